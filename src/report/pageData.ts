/**
 * What the report page is given: the run folder digested into plain JSON by the writer (Node) and read
 * by the page (browser). Types only, shared by both sides, so neither can drift from the other.
 */

export const REPORT_FORMAT = 'arcbench.report/1';

/** A 95% (or other) confidence interval of a mean, when the run's statistics provide one. */
export interface Interval {
  low: number;
  high: number;
}

export interface RunHeader {
  name: string;
  /** run.json's status, or `running` while a run has not written run.json yet. */
  status: string;
  started_at: string | null;
  finished_at: string | null;
  config_file: string | null;
  target: string | null;
  /** The run folder on the machine that wrote the report. */
  folder: string;
  provenance: Record<string, unknown> | null;
  config: unknown;
  totals: Record<string, unknown> | null;
}

export interface AgentSummary {
  label: string;
  use: string | null;
  card_id: string | null;
  /** The score of the card the service returned on close. */
  service_score: number | null;
  /** The same card scored locally from the episodes. */
  local_score: number | null;
  close_error: string | null;
  score_differences: string[];
}

export interface GameSummary {
  game_id: string;
  default_fps: number;
  levels: number;
}

/**
 * Model usage of an agent, a game or an episode: tokens (cached a part of input, reasoning a part of
 * output) and dollars (null: a call had no price).
 */
export interface UsageFigures {
  calls: number;
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
  cost_usd: number | null;
}

/** One row of the results table: an agent on a game, or its total (`game` = TOTAL_ROW). */
export interface ResultRow {
  agent: string;
  game: string;
  episodes: number;
  /** The card's score as the service defines it (best run per game). */
  score: number;
  /** The mean of the episodes' own scores. */
  mean: number;
  interval: Interval | null;
  levels: string;
  actions: number;
  wins: number;
  errors: number;
  /** Levels completed (the card's), for dollars per level. */
  levels_completed?: number;
  /** Null when no model was called. */
  usage?: UsageFigures | null;
}

export const TOTAL_ROW = 'total';

export interface EpisodeRow {
  agent: string;
  game_id: string;
  episode: number;
  /** win, budget, agent_stop, …; `in progress` for a recording whose episode has not finished. */
  outcome: string;
  score: number | null;
  levels_completed: number;
  win_levels: number;
  actions: number;
  resets: number;
  wall_seconds: number | null;
  error: string | null;
  /** The recording's path inside the run folder (`recordings/…`), or null without one. */
  recording: string | null;
  /** Null when no model was called. */
  usage?: UsageFigures | null;
  /** The transcript's path inside the run folder (`transcripts/…`), when the episode kept one. */
  transcript?: string | null;
}

export const IN_PROGRESS = 'in progress';

/**
 * Where the page gets recordings: embedded in the file (gzip, base64, one `<script>` each, listed by
 * path), or from the `view` server under `base_url`.
 */
export type RecordingSource = { kind: 'embedded'; embedded: string[]; total: number; reason: string } | { kind: 'served'; base_url: string };

export interface ReportData {
  format: typeof REPORT_FORMAT;
  generated_at: string;
  run: RunHeader;
  agents: AgentSummary[];
  games: GameSummary[];
  results: ResultRow[];
  episodes: EpisodeRow[];
  recordings: RecordingSource;
}

/** One run in the `view` server's list. */
export interface RunListing {
  id: string;
  name: string;
  status: string;
  /** Why the folder cannot be read (status `unreadable`), else null. */
  problem: string | null;
  started_at: string | null;
  agents: string[];
  games: number;
  episodes: number;
  recordings: number;
  url: string;
}

/** One row of a comparison of two runs (`arcbench compare`): an agent on a game, or its total. */
export interface ComparisonRow {
  agent: string;
  game: string;
  baseline: { mean: number; episodes: number };
  candidate: { mean: number; episodes: number };
  /** candidate − baseline in score points, with its 95% interval. */
  difference: { value: number; interval: Interval | null };
  pairing: string;
  note: string | null;
  verdict: string;
  regression: boolean;
}

/** A comparison as `arcbench compare --json` prints it (the fields the page shows). */
export interface ComparisonData {
  baseline: string;
  candidate: string;
  threshold: number;
  rows: readonly ComparisonRow[];
  notes: readonly string[];
  fail_on_regression: boolean;
  failed: boolean;
}

/** What a page is told at load: a run's report, a comparison of two runs, or the `view` server's list of runs. */
export type PageBootstrap =
  | { page: 'report'; data: ReportData; live_url: string | null }
  | { page: 'comparison'; data: ComparisonData; generated_at: string }
  | { page: 'runs'; runs: RunListing[]; folder: string; live_url: string };

/** Id of the `<script type="application/json">` that carries the bootstrap. */
export const BOOTSTRAP_ELEMENT_ID = 'arcbench-bootstrap';
/** Attribute naming an embedded recording's `<script>` by its path. */
export const EMBEDDED_RECORDING_ATTRIBUTE = 'data-recording';
