/**
 * The names of a run folder's files, in one place: the runner and a merge write them; resume, the
 * worker pool, the report and `view` find them by these names. A new file of the run folder is named
 * here first. (Tests keep the literals: they check the names users see.)
 */

/** The run's report: configuration, provenance, cards, the table (runReport.ts is its schema). */
export const RUN_FILE = 'run.json';
/** Every finished episode, one JSON line each, appended as it ends. */
export const EPISODES_FILE = 'episodes.jsonl';
/** One recording per session, named by recordingFileName (src/recording). */
export const RECORDINGS_FOLDER = 'recordings';
/** The results table as markdown. */
export const TABLE_FILE = 'table.md';
/** The results as JUnit XML, for CI. */
export const JUNIT_FILE = 'junit.xml';
/** The comparison with `--baseline`, as JSON and as markdown. */
export const COMPARISON_JSON_FILE = 'comparison.json';
export const COMPARISON_MARKDOWN_FILE = 'comparison.md';
/** The report page (src/report), written at the end of `arcbench run` and `merge`. */
export const REPORT_FILE = 'report.html';
/** The run's readable log. */
export const LOG_FILE = 'run.log';
/**
 * One checkpoint per episode in flight (episodeCheckpoint.ts), removed once its record is in
 * episodes.jsonl: what a resume continues the episode from. Empty when no episode is in flight.
 */
export const CHECKPOINTS_FOLDER = 'checkpoints';
/** Every other file of the folder with its size and SHA-256, written last (runManifest.ts); `arcbench verify` checks it. */
export const MANIFEST_FILE = 'manifest.json';
/** One transcript of model calls per episode, named as its recording (src/recording/transcript*). */
export const TRANSCRIPTS_FOLDER = 'transcripts';

/** Where an episode's recording is, relative to the run folder (an episode record's `recording`). */
export function recordingPath(fileName: string): string {
  return `${RECORDINGS_FOLDER}/${fileName}`;
}

/** An episode's checkpoint file, `<game>.<agent>.<n>.json`, in CHECKPOINTS_FOLDER (labels and game ids cannot leave it). */
export function checkpointFileName(gameId: string, agentLabel: string, episode: number): string {
  return `${gameId}.${agentLabel}.${episode}.json`;
}

/** Where an episode's transcript is, relative to the run folder. */
export function transcriptPath(fileName: string): string {
  return `${TRANSCRIPTS_FOLDER}/${fileName}`;
}

/** What every run leaves in its folder, as `arcbench run --help` lists it. */
export const RUN_FOLDER_FILES = [
  RUN_FILE,
  EPISODES_FILE,
  `${RECORDINGS_FOLDER}/`,
  `${TRANSCRIPTS_FOLDER}/`,
  TABLE_FILE,
  JUNIT_FILE,
  REPORT_FILE,
  LOG_FILE,
  MANIFEST_FILE,
] as const;
