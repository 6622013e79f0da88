/**
 * The experiment a resume continues: the file that made the run (or the one the user names), or for a
 * config-less run (`arcbench run --agent random --game crat`) the same flags again, with the
 * command-line overrides the run started with applied again, so `--seed 7` need not be repeated. The
 * run folder is checked first, so a folder that is not a run, or is still being run, is reported before
 * any config problem.
 */
import { existsSync } from 'node:fs';
import { COMMAND_LINE_EXPERIMENT, type Experiment, experimentFromFlags, loadExperiment } from '../config/loader.ts';
import { type RunReport, RunFolderError } from '../../runfolder/runReport.ts';
import { readResumableReport } from './resumedAttempt.ts';

export interface ResumeLoadOptions {
  /** The experiment file; default: the one run.json names. */
  configPath?: string | undefined;
  /** This command line's overrides; they win over the ones the run started with. */
  overrides?: RunReport['overrides'];
}

export async function loadExperimentForResume(runDir: string, options: ResumeLoadOptions = {}): Promise<Experiment> {
  const report = readResumableReport(runDir);
  const given = Object.fromEntries(Object.entries(options.overrides ?? {}).filter(([, value]) => value !== undefined));
  const { base_dir: baseDir, ...overrides } = { ...report.overrides, ...given };
  if (options.configPath === undefined && report.config_file === COMMAND_LINE_EXPERIMENT) {
    return experimentFromFlags(overrides.agents ?? [], { baseDir: baseDir ?? process.cwd(), overrides });
  }
  const file = options.configPath ?? report.config_file;
  if (options.configPath === undefined && !existsSync(file)) {
    throw new RunFolderError(`${runDir}: the experiment file that made this run, ${file}, is gone; name it: arcbench run <config> --resume ${runDir}`);
  }
  return loadExperiment(file, { overrides });
}
