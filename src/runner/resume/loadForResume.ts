/**
 * The experiment a resume continues: the file that made the run (or the one the user names), with the
 * command-line overrides the run started with applied again, so `--seed 7` need not be repeated. The
 * run folder is checked first, so a folder that is not a run, or is still being run, is reported before
 * any config problem.
 */
import { existsSync } from 'node:fs';
import { type Experiment, loadExperiment } from '../config/loader.ts';
import { type RunReport, RunFolderError } from '../results/runReport.ts';
import { readResumableReport } from './resumedAttempt.ts';

export interface ResumeLoadOptions {
  /** The experiment file; default: the one run.json names. */
  configPath?: string;
  /** This command line's overrides; they win over the ones the run started with. */
  overrides?: RunReport['overrides'];
}

export async function loadExperimentForResume(runDir: string, options: ResumeLoadOptions = {}): Promise<Experiment> {
  const report = readResumableReport(runDir);
  const file = options.configPath ?? report.config_file;
  if (options.configPath === undefined && !existsSync(file)) {
    throw new RunFolderError(`${runDir}: the experiment file that made this run, ${file}, is gone; name it: arcbench run <config> --resume ${runDir}`);
  }
  const given = Object.fromEntries(Object.entries(options.overrides ?? {}).filter(([, value]) => value !== undefined));
  return loadExperiment(file, { overrides: { ...report.overrides, ...given } });
}
