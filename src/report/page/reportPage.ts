/**
 * The report of one run: header, results, charts, episodes, replay viewer and run details. With a
 * `live_url` (the `view` server, while the run is going) the page polls it and updates in place; the
 * episode filters, the sort and the viewer's place survive the updates. Every episode and every step
 * has a URL (`#episode=<agent>/<game>/<n>&step=<k>`, see episodeLink.ts) that opens the viewer there.
 */
import { IN_PROGRESS, PLAYED_AGAIN, UNFINISHED, type EpisodeRow, type ReportData } from '../pageData.ts';
import { gameCharts } from './charts.ts';
import { costSection } from './cost.ts';
import { factorialSection, harnessCardSection } from './harness.ts';
import { el, replaceChildren } from './dom.ts';
import { EpisodeList } from './episodes.ts';
import { episodeKey, linkTo, readLink } from './episodeLink.ts';
import * as format from './format.ts';
import { loadRecordingText, parseRecording } from './recording.ts';
import { resultsTable } from './results.ts';
import { levelsSection } from './levels.ts';
import { runDetails, runHeader } from './summary.ts';
import { ReplayViewer } from './viewer.ts';
import { TranscriptPanel } from './transcriptPanel.ts';

const POLL_MS = 2000;

export function mountReport(root: HTMLElement, data: ReportData, liveUrl: string | null): void {
  const page = new ReportPage(root, data, liveUrl !== null);
  // A link opens its episode at its step; without one, the page opens on the best episode.
  if (!page.openLink()) {
    const first = firstToReplay(data.episodes, (row) => page.playable(row).ok);
    if (first !== undefined) void page.replay(first, { userAsked: false });
  }
  window.addEventListener('hashchange', () => page.openLink());
  if (liveUrl !== null) followLive(page, liveUrl);
}

class ReportPage {
  private readonly header = el('div');
  private readonly results = el('div');
  private readonly charts = el('div');
  private readonly levels = el('div');
  private readonly cost = el('div');
  private readonly harness = el('div');
  private readonly factorial = el('div');
  private readonly factorialSection: HTMLElement;
  private readonly recordingsNote = el('p', { class: 'note', 'data-testid': 'recordings-note' });
  private readonly replayStatus = el('p', { class: 'replay-status', 'data-testid': 'replay-status' }, 'Choose an episode to replay.');
  private readonly details = el('div');
  private readonly viewer: ReplayViewer;
  private readonly transcript = new TranscriptPanel();
  private readonly episodes: EpisodeList;
  /** The episode in the viewer. */
  open: EpisodeRow | null = null;
  /** The address bar follows the viewer once the reader chose an episode (not the one the page opened on). */
  private urlFollows = false;

  constructor(
    root: HTMLElement,
    public data: ReportData,
    private readonly live: boolean,
  ) {
    this.viewer = new ReplayViewer(
      (gameId) => this.data.games.find((g) => g.game_id === gameId)?.default_fps ?? 5,
      // The address bar follows the viewer, so that it can be copied at any step.
      (link) => {
        if (this.urlFollows) history.replaceState(null, '', `#${link}`);
      },
    );
    this.viewer.element.addEventListener('stepchange', (event) => this.transcript.showStep((event as CustomEvent<number>).detail));
    this.episodes = new EpisodeList({
      playable: (row) => this.playable(row),
      onReplay: (row) => void this.replay(row),
      nameOf: (gameId) => this.gameName(gameId),
      linkOf: (row) => (this.playable(row).ok ? linkTo(row) : null),
    });
    const section = (id: string, title: string, ...content: Node[]) => el('section', { id }, el('h2', {}, title), ...content);
    this.factorialSection = section('factors', 'Factorial arms', this.factorial);
    root.append(
      this.header,
      section('results', 'Results', this.results),
      this.factorialSection,
      section('harness', 'Harness card', this.harness),
      section('charts', 'Scores by game', this.charts),
      section('levels', 'Levels', this.levels),
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
    const nameOf = (gameId: string) => this.gameName(gameId);
    replaceChildren(this.results, resultsTable(data.results, data.unknown_scores, nameOf, data.result_notes ?? []));
    const agents = data.agents.map((a) => a.label);
    replaceChildren(this.levels, levelsSection(data.results, data.solve_curves ?? [], agents, nameOf));
    replaceChildren(
      this.charts,
      gameCharts(
        data.results,
        data.agents.map((a) => a.label),
        nameOf,
      ),
    );
    replaceChildren(
      this.cost,
      costSection(
        data.results,
        data.agents.map((a) => a.label),
      ),
    );
    replaceChildren(this.harness, harnessCardSection(data));
    // Only a run with arms has factors to show.
    this.factorialSection.hidden = data.factorial === null;
    replaceChildren(this.factorial, data.factorial && factorialSection(data.factorial));
    replaceChildren(this.recordingsNote, recordingsSentence(data));
    replaceChildren(this.details, runDetails(data));
    this.episodes.update(data.episodes);
  }

  playable(row: EpisodeRow): { ok: boolean; why: string } {
    if (row.recording === null) return { ok: false, why: 'no recording: recordings were off for this run' };
    if (this.data.recordings.kind === 'served' || this.data.recordings.embedded.includes(row.recording)) return { ok: true, why: `replay ${row.recording}` };
    return { ok: false, why: `not embedded in this file; to replay it: arcbench view ${this.data.run.folder}` };
  }

  gameName(gameId: string): string {
    return format.gameName(gameId, this.data.games.find((g) => g.game_id === gameId)?.title);
  }

  /** Opens the episode and step the page's URL names; false when it names none this page can open. */
  openLink(): boolean {
    const link = readLink(location.hash);
    if (link === undefined) return false;
    const row = this.data.episodes.find((r) => episodeKey(r) === link.episode && this.playable(r).ok);
    if (row === undefined) {
      replaceChildren(this.replayStatus, `The link names episode ${link.episode}, which this page cannot replay.`);
      return false;
    }
    void this.replay(row, { step: link.step });
    return true;
  }

  /** Opens the episode's recording in the viewer; `follow` reloads the open one (it grew) in place. */
  async replay(row: EpisodeRow, options: { follow?: boolean; userAsked?: boolean; step?: number } = {}): Promise<void> {
    const { follow = false, userAsked = true } = options;
    if (!follow) {
      this.open = row;
      this.urlFollows ||= userAsked;
      replaceChildren(this.replayStatus, `Loading ${row.recording}…`);
    }
    try {
      const recording = parseRecording(await loadRecordingText(this.data.recordings, row.recording!));
      if (!follow) await this.transcript.load(this.data.recordings, row, recording);
      if (follow) this.viewer.extend(recording);
      else {
        const title = { agent: row.agent, gameId: row.game_id, gameName: this.gameName(row.game_id), episode: row.episode, outcome: row.outcome };
        this.viewer.show(title, recording, { ...(options.step !== undefined ? { step: options.step } : {}), linkOf: (step) => linkTo(row, step) });
      }
      replaceChildren(this.replayStatus, `${row.recording} · ${recording.steps.length} steps${STATUS_NOTES[row.outcome] ?? ''}`);
      if (!follow && userAsked) {
        // The viewer's top at the window's: the whole grid and its controls in sight.
        this.viewer.element.scrollIntoView({ block: 'start' });
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

/** What the replay status adds for an episode that did not end as episodes do. */
const STATUS_NOTES: Record<string, string> = {
  [IN_PROGRESS]: ' · still being played',
  [PLAYED_AGAIN]: " · cut short by the run's stop (Ctrl-C or run_seconds); a resume played it again, and that record counts",
  [UNFINISHED]: ' · the run ended before this episode did (its process was killed); it has no record',
};

/** The page opens on the best finished episode it can replay (else any it can). */
function firstToReplay(rows: readonly EpisodeRow[], canPlay: (row: EpisodeRow) => boolean): EpisodeRow | undefined {
  const playable = rows.filter(canPlay);
  const finished = playable.filter((row) => STATUS_NOTES[row.outcome] === undefined);
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
