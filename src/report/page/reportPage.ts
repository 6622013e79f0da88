/**
 * The report of one run: header, results, charts, episodes, replay viewer and run details. With a
 * `live_url` (the `view` server, while the run is going) the page polls it and updates in place; the
 * episode filters, the sort and the viewer's place survive the updates.
 */
import { IN_PROGRESS, type EpisodeRow, type ReportData } from '../pageData.ts';
import { gameCharts } from './charts.ts';
import { costSection } from './cost.ts';
import { el, replaceChildren } from './dom.ts';
import { EpisodeList } from './episodes.ts';
import { loadRecordingText, parseRecording } from './recording.ts';
import { resultsTable } from './results.ts';
import { runDetails, runHeader } from './summary.ts';
import { ReplayViewer } from './viewer.ts';
import { TranscriptPanel } from './transcriptPanel.ts';

const POLL_MS = 2000;

export function mountReport(root: HTMLElement, data: ReportData, liveUrl: string | null): void {
  const page = new ReportPage(root, data, liveUrl !== null);
  const first = firstToReplay(data.episodes, (row) => page.playable(row).ok);
  if (first !== undefined) void page.replay(first, { userAsked: false });
  if (liveUrl !== null) followLive(page, liveUrl);
}

class ReportPage {
  private readonly header = el('div');
  private readonly results = el('div');
  private readonly charts = el('div');
  private readonly cost = el('div');
  private readonly recordingsNote = el('p', { class: 'note', 'data-testid': 'recordings-note' });
  private readonly replayStatus = el('p', { class: 'replay-status', 'data-testid': 'replay-status' }, 'Choose an episode to replay.');
  private readonly details = el('div');
  private readonly viewer: ReplayViewer;
  private readonly transcript = new TranscriptPanel();
  private readonly episodes: EpisodeList;
  /** The episode in the viewer. */
  open: EpisodeRow | null = null;

  constructor(
    root: HTMLElement,
    public data: ReportData,
    private readonly live: boolean,
  ) {
    this.viewer = new ReplayViewer((gameId) => this.data.games.find((g) => g.game_id === gameId)?.default_fps ?? 5);
    this.viewer.element.addEventListener('stepchange', (event) => this.transcript.showStep((event as CustomEvent<number>).detail));
    this.episodes = new EpisodeList({ playable: (row) => this.playable(row), onReplay: (row) => void this.replay(row) });
    const section = (id: string, title: string, ...content: Node[]) => el('section', { id }, el('h2', {}, title), ...content);
    root.append(
      this.header,
      section('results', 'Results', this.results),
      section('charts', 'Scores by game', this.charts),
      section('cost', 'Cost', this.cost),
      section('episodes', 'Episodes', this.episodes.element),
      section('replay', 'Replay', this.recordingsNote, this.replayStatus, this.viewer.element, this.transcript.element),
      section('run', 'Run', this.details),
    );
    this.render();
  }

  render(problem?: string): void {
    const data = this.data;
    replaceChildren(this.header, runHeader(data, this.live && data.run.status === 'running'), problem && el('p', { class: 'note' }, problem));
    replaceChildren(this.results, resultsTable(data.results));
    replaceChildren(
      this.charts,
      gameCharts(
        data.results,
        data.agents.map((a) => a.label),
      ),
    );
    replaceChildren(
      this.cost,
      costSection(
        data.results,
        data.agents.map((a) => a.label),
      ),
    );
    replaceChildren(this.recordingsNote, recordingsSentence(data));
    replaceChildren(this.details, runDetails(data));
    this.episodes.update(data.episodes);
  }

  playable(row: EpisodeRow): { ok: boolean; why: string } {
    if (row.recording === null) return { ok: false, why: 'no recording: recordings were off for this run' };
    if (this.data.recordings.kind === 'served' || this.data.recordings.embedded.includes(row.recording)) return { ok: true, why: `replay ${row.recording}` };
    return { ok: false, why: `not embedded in this file; to replay it: arcbench view ${this.data.run.folder}` };
  }

  /** Opens the episode's recording in the viewer; `follow` reloads the open one (it grew) in place. */
  async replay(row: EpisodeRow, options: { follow?: boolean; userAsked?: boolean } = {}): Promise<void> {
    const { follow = false, userAsked = true } = options;
    if (!follow) {
      this.open = row;
      replaceChildren(this.replayStatus, `Loading ${row.recording}…`);
    }
    try {
      const recording = parseRecording(await loadRecordingText(this.data.recordings, row.recording!));
      if (!follow) await this.transcript.load(this.data.recordings, row, recording);
      if (follow) this.viewer.extend(recording);
      else this.viewer.show({ agent: row.agent, gameId: row.game_id, episode: row.episode, outcome: row.outcome }, recording);
      replaceChildren(this.replayStatus, `${row.recording} · ${recording.steps.length} steps${row.outcome === IN_PROGRESS ? ' · still being played' : ''}`);
      if (!follow && userAsked) {
        this.viewer.element.scrollIntoView({ block: 'nearest' });
        this.viewer.element.focus({ preventScroll: true });
      }
    } catch (error) {
      replaceChildren(this.replayStatus, `Cannot replay ${row.recording}: ${(error as Error).message}`);
    }
  }
}

/**
 * Polls the `view` server while the run is going: the page is drawn again from each answer, and the
 * recording in the viewer, while its episode is being played, is reloaded in place.
 */
function followLive(page: ReportPage, liveUrl: string): void {
  const poll = async () => {
    try {
      const response = await fetch(liveUrl, { cache: 'no-store' });
      if (!response.ok) throw new Error(`the server answered ${response.status}`);
      page.data = (await response.json()) as ReportData;
      page.render();
      const open = page.open;
      const current = open === null ? undefined : page.data.episodes.find((e) => e.recording === open.recording);
      if (open !== null && current !== undefined && (current.outcome === IN_PROGRESS || open.outcome === IN_PROGRESS)) {
        page.open = current;
        await page.replay(current, { follow: true });
      }
    } catch (error) {
      page.render(`Live updates paused: ${(error as Error).message}; retrying.`);
    } finally {
      // Once the run has ended, one last update has shown its final state.
      if (page.data.run.status === 'running') setTimeout(() => void poll(), POLL_MS);
    }
  };
  setTimeout(() => void poll(), POLL_MS);
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
