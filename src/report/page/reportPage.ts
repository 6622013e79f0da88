/**
 * The report of one run: header, results, charts, episodes, replay viewer and run details. With a
 * `live_url` (the `view` server, while the run is going) the page polls it and updates in place; the
 * episode filters, the sort and the viewer's place survive the updates.
 */
import { IN_PROGRESS, type EpisodeRow, type ReportData } from '../pageData.ts';
import { gameCharts } from './charts.ts';
import { el, replaceChildren } from './dom.ts';
import { EpisodeList } from './episodes.ts';
import { loadRecordingText, parseRecording } from './recording.ts';
import { resultsTable } from './results.ts';
import { runDetails, runHeader } from './summary.ts';
import { ReplayViewer } from './viewer.ts';

const POLL_MS = 2000;

export function mountReport(root: HTMLElement, initial: ReportData, liveUrl: string | null): void {
  let data = initial;
  let open: EpisodeRow | null = null;
  const header = el('div');
  const results = el('div');
  const charts = el('div');
  const recordingsNote = el('p', { class: 'note', 'data-testid': 'recordings-note' });
  const replayStatus = el('p', { class: 'replay-status', 'data-testid': 'replay-status' }, 'Choose an episode to replay.');
  const details = el('div');
  const viewer = new ReplayViewer((gameId) => data.games.find((g) => g.game_id === gameId)?.default_fps ?? 5);

  const playable = (row: EpisodeRow) => {
    if (row.recording === null) return { ok: false, why: 'no recording: recordings were off for this run' };
    if (data.recordings.kind === 'served' || data.recordings.embedded.includes(row.recording)) return { ok: true, why: `replay ${row.recording}` };
    return { ok: false, why: `not embedded in this file; to replay it: arcbench view ${data.run.folder}` };
  };
  const replay = async (row: EpisodeRow, follow = false) => {
    if (!follow) {
      open = row;
      replaceChildren(replayStatus, `Loading ${row.recording}…`);
    }
    try {
      const recording = parseRecording(await loadRecordingText(data.recordings, row.recording!));
      if (follow) viewer.extend(recording);
      else viewer.show({ agent: row.agent, gameId: row.game_id, episode: row.episode, outcome: row.outcome }, recording);
      replaceChildren(replayStatus, `${row.recording} · ${recording.steps.length} steps${row.outcome === IN_PROGRESS ? ' · still being played' : ''}`);
      if (!follow) viewer.element.scrollIntoView({ block: 'nearest' });
    } catch (error) {
      replaceChildren(replayStatus, `Cannot replay ${row.recording}: ${(error as Error).message}`);
    }
  };
  const episodes = new EpisodeList({ playable, onReplay: (row) => void replay(row) });

  const render = () => {
    replaceChildren(header, runHeader(data, liveUrl !== null && data.run.status === 'running'));
    replaceChildren(results, resultsTable(data.results));
    replaceChildren(charts, gameCharts(data.results, data.agents.map((a) => a.label)));
    replaceChildren(recordingsNote, recordingsSentence(data));
    replaceChildren(details, runDetails(data));
    episodes.update(data.episodes);
  };

  const section = (id: string, title: string, ...content: Node[]) => el('section', { id }, el('h2', {}, title), ...content);
  root.append(
    header,
    section('results', 'Results', results),
    section('charts', 'Scores by game', charts),
    section('episodes', 'Episodes', episodes.element),
    section('replay', 'Replay', recordingsNote, replayStatus, viewer.element),
    section('run', 'Run', details),
  );
  render();
  const first = firstToReplay(data.episodes, (row) => playable(row).ok);
  if (first !== undefined) void replay(first);

  if (liveUrl !== null) {
    const poll = async () => {
      try {
        const response = await fetch(liveUrl, { cache: 'no-store' });
        if (!response.ok) throw new Error(`the server answered ${response.status}`);
        data = (await response.json()) as ReportData;
        render();
        // The open recording is still being written while its episode has no finished record.
        const current = open === null ? undefined : data.episodes.find((e) => e.recording === open!.recording);
        if (current !== undefined && (current.outcome === IN_PROGRESS || open!.outcome === IN_PROGRESS)) {
          open = current;
          await replay(current, true);
        }
      } catch (error) {
        replaceChildren(header, runHeader(data, false), el('p', { class: 'note' }, `Live updates paused: ${(error as Error).message}; retrying.`));
      } finally {
        // Once the run has ended, one last update has shown its final state.
        if (data.run.status === 'running') setTimeout(() => void poll(), POLL_MS);
      }
    };
    setTimeout(() => void poll(), POLL_MS);
  }
}

/** The page opens on the best finished episode it can replay (else any it can). */
function firstToReplay(rows: readonly EpisodeRow[], canPlay: (row: EpisodeRow) => boolean): EpisodeRow | undefined {
  const playable = rows.filter(canPlay);
  const finished = playable.filter((row) => row.outcome !== IN_PROGRESS);
  const pool = finished.length > 0 ? finished : playable;
  return [...pool].sort((a, b) => (b.score ?? 0) - (a.score ?? 0) || b.levels_completed - a.levels_completed)[0];
}

function recordingsSentence(data: ReportData): string {
  const source = data.recordings;
  if (source.kind === 'served') return 'Every recording of the run folder can be replayed here.';
  const withRecording = data.episodes.filter((e) => e.recording !== null).length;
  if (withRecording === 0) return 'This run wrote no recordings (recordings: false in its config).';
  if (source.embedded.length >= source.total) return `All ${source.total} recordings are embedded in this file.`;
  return `${source.embedded.length} of ${source.total} recordings are embedded in this file (${source.reason}). To replay any episode: arcbench view ${data.run.folder}`;
}
