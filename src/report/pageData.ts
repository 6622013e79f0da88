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
  provenance: ReportProvenance | null;
  config: unknown;
  totals: ReportTotals | null;
}

/** A folder's commit (null outside a repository) and whether a tracked file differs from it. */
export interface ReportGitState {
  sha: string | null;
  dirty: boolean | null;
}

/**
 * run.json's provenance as the page reads it. Every field is required and named as in run.json's schema
 * (runReport.ts): the writer assigns the schema's type to this one, so a field renamed there fails the
 * type-check here, where a cast once hid `git` → `experiment_git` and every page said "not a git checkout".
 */
export interface ReportProvenance {
  arcbench_version: string;
  /** Only when arcbench ran from a git checkout of itself. */
  arcbench_git: ReportGitState | null;
  /** The experiment file's folder and its git state. */
  experiment_git: ReportGitState & { folder: string };
  node_version: string;
  platform: string;
  seed: number;
  target: string;
  argv: string[];
}

/** run.json's totals, the figures the page's header shows (the writer assigns the schema's type to it). */
export interface ReportTotals {
  episodes: number;
  actions: number;
  errors: number;
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
  /** The game's title, where known (its descriptor, or the built-in catalog); the page shows it beside the id. */
  title: string | null;
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
  /** The card's score as the service defines it (best run per game), scored locally; null when unknown (`ReportData.unknown_scores`). */
  score: number | null;
  /** The service's own score for it, where the service returned a card; else null. */
  service_score: number | null;
  /** The mean of the episodes' own scores; null when unknown. */
  mean: number | null;
  interval: Interval | null;
  levels: string;
  actions: number;
  wins: number;
  errors: number;
  /** Levels completed (the card's), for dollars per level. */
  levels_completed?: number;
  /** Levels the card counts for the game (in total: for all its games). */
  level_count?: number;
  /** Null when no model was called. */
  usage?: UsageFigures | null;
  /** Episodes the plan declared for the row, and how many of them have no result (absent for runs without a plan to count against). */
  planned?: number;
  missing?: number;
  /** Each repeat's score and their spread; null when unknown; absent for runs of older versions. */
  spread?: { repeats: number; mean: number; sd: number | null; min: number; max: number } | null;
  /** The spread as the tables word it (`25.80 ± 3.90 (19.10–31.20)`, `unknown`). */
  spread_text?: string;
  /** Counted actions ÷ the summed human baselines of the same episodes' games; null when unknown. */
  baseline_share?: number | null;
  /** Model dollars per level completed; null when unknown or none was completed. */
  cost_per_level?: number | null;
  /** Per level: the episodes that completed it, and the mean actions spent on it by those that did (game rows). */
  level_solves?: number[];
  /** The cells of the levels section, worded as table.md words them (levelsSection.ts): solved per level, solved every time, actions and seconds per level. */
  levels_detail?: { solved: string; steady: string; actions: string; seconds: string };
  level_actions?: (number | null)[];
  level_seconds?: (number | null)[];
}

export const TOTAL_ROW = 'total';

/** An agent's level-solve curve: levels completed, summed over its episodes, against the actions each had taken. */
export interface SolveCurve {
  agent: string;
  points: Array<{ actions: number; solved: number }>;
  /** The levels there were to complete, over its episodes. */
  levels: number;
}

export interface EpisodeRow {
  agent: string;
  game_id: string;
  episode: number;
  /**
   * win, budget, agent_stop, …; `in progress` for a recording whose episode has not finished, `unfinished`
   * for one a run that has ended never finished, PLAYED_AGAIN for a record a resume played again.
   */
  outcome: string;
  /** The attempt that played it (1, then one more per resume); null for a recording without a record. */
  attempt: number | null;
  score: number | null;
  levels_completed: number;
  /** How many levels the card counts for the game (episodeLevelCount): what `levels_completed` is out of. */
  level_count: number;
  /** How many levels its frames say the game has: what its replay plays through. */
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
/** A recording without a record in a run that has ended (killed before the episode ended, and not cut cleanly). */
export const UNFINISHED = 'unfinished';
/** A record the run's stop cut short (Ctrl-C, run_seconds) that a resume played again: kept, not counted. */
export const PLAYED_AGAIN = 'cut, played again';

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
  /** Why some scores are null (a game without level baselines), to say once; null when all are known. */
  unknown_scores: string | null;
  /** The lines under the results table (what its intervals resample, best draws, repeats, missing episodes), as under table.md's. */
  result_notes?: string[];
  /** Per agent, over its finished episodes. */
  solve_curves?: SolveCurve[];
  episodes: EpisodeRow[];
  recordings: RecordingSource;
  /** What produced the scores beyond the model (run.json's harness_card); null for a run that kept none. */
  harness_card: ReportHarnessCard | null;
  /** Main effects of the factors and the cost frontier across arms; null for a run without factorial arms. */
  factorial: ReportFactorial | null;
}

/** A fact of a harness card (src/runfolder/harnessCard.ts); the writer assigns the card to this type. */
export type ReportCardFact = string | number | boolean | null;

export interface ReportHarnessCard {
  run: Record<string, ReportCardFact>;
  agents: Array<{ label: string; facts: Record<string, ReportCardFact> }>;
}

/** src/analysis/factorialSummary.ts as the page reads it (the writer assigns that type to this one). */
export interface ReportFactorial {
  readonly designs: ReadonlyArray<{
    readonly of: string;
    readonly arms: readonly string[];
    readonly note: string | null;
    readonly factors: ReadonlyArray<{
      readonly factor: string;
      readonly levels: ReadonlyArray<{
        readonly level: string | number | boolean;
        readonly arms: readonly string[];
        readonly mean: number | null;
        readonly effect: { readonly value: number; readonly interval: Interval | null; readonly games: number; readonly pairing: string } | null;
      }>;
    }>;
  }>;
  readonly frontier: {
    readonly points: ReadonlyArray<{
      readonly agent: string;
      readonly mean: number | null;
      readonly cost_per_episode: number | null;
      readonly calls: number;
      readonly on_frontier: boolean;
    }>;
    readonly note: string | null;
  };
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
  /** What differs between the two runs' harness cards, as `compare` says it first (analysis/harnessCardDiff.ts). */
  harness_card_lines?: readonly string[];
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
