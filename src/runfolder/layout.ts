/**
 * Where each file of a run folder lives, for the code that writes or streams it (the runner's finishing
 * files, pino's run.log, the recording thread, the report page). Only src/runfolder/ knows the names
 * (fileNames.ts); everything else asks the layout of a folder.
 */
import { join } from 'node:path';
import {
  CHECKPOINTS_FOLDER,
  COMPARISON_JSON_FILE,
  COMPARISON_MARKDOWN_FILE,
  checkpointFileName,
  EPISODES_FILE,
  JUNIT_FILE,
  LOG_FILE,
  MANIFEST_FILE,
  RECORDINGS_FOLDER,
  REPORT_FILE,
  RUN_FILE,
  RUN_FOLDER_FILES,
  TABLE_FILE,
  TRANSCRIPTS_FOLDER,
} from './fileNames.ts';

export interface RunFolderLayout {
  readonly dir: string;
  readonly run: string;
  readonly episodes: string;
  readonly log: string;
  readonly manifest: string;
  readonly table: string;
  readonly junit: string;
  readonly report: string;
  readonly comparisonJson: string;
  readonly comparisonMarkdown: string;
  readonly recordings: string;
  readonly transcripts: string;
  readonly checkpoints: string;
  /** A file named in an episode record (its `recording` or `transcript`), which are relative to the folder. */
  recorded(relativePath: string): string;
  /** A recording by its file name (recordingFileName in src/recording). */
  recording(fileName: string): string;
  /** An episode's checkpoint, while it plays. */
  checkpoint(gameId: string, agentLabel: string, episode: number): string;
}

export function runFolderLayout(dir: string): RunFolderLayout {
  return {
    dir,
    run: join(dir, RUN_FILE),
    episodes: join(dir, EPISODES_FILE),
    log: join(dir, LOG_FILE),
    manifest: join(dir, MANIFEST_FILE),
    table: join(dir, TABLE_FILE),
    junit: join(dir, JUNIT_FILE),
    report: join(dir, REPORT_FILE),
    comparisonJson: join(dir, COMPARISON_JSON_FILE),
    comparisonMarkdown: join(dir, COMPARISON_MARKDOWN_FILE),
    recordings: join(dir, RECORDINGS_FOLDER),
    transcripts: join(dir, TRANSCRIPTS_FOLDER),
    checkpoints: join(dir, CHECKPOINTS_FOLDER),
    recorded: (relativePath) => join(dir, relativePath),
    recording: (fileName) => join(dir, RECORDINGS_FOLDER, fileName),
    checkpoint: (gameId, agentLabel, episode) => join(dir, CHECKPOINTS_FOLDER, checkpointFileName(gameId, agentLabel, episode)),
  };
}

/** Paths of an episode's files relative to the folder, as its record holds them (`recording`, `transcript`). */
export { recordingPath, transcriptPath } from './fileNames.ts';

/** Names for sentences a user reads (help, log lines): what every run leaves, and the optional files. */
export const RUN_FOLDER_NAMES = {
  contents: RUN_FOLDER_FILES as readonly string[],
  report: REPORT_FILE,
  comparisonJson: COMPARISON_JSON_FILE,
  comparisonMarkdown: COMPARISON_MARKDOWN_FILE,
} as const;
