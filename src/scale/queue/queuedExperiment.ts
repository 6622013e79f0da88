/**
 * The experiment as a worker rebuilds it from the run's description: the experiment file's text as the
 * coordinator read it (or, for a run without a file, the same command-line agents), with the same
 * overrides; agent plugins load from the file's folder in this worker's checkout, and `${VAR}` takes
 * this worker's environment. The plan's fingerprint must come out as the coordinator's: otherwise the
 * worker would play other episodes than the ones planned, and it refuses the run, saying what differs.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { COMMAND_LINE_EXPERIMENT, type Experiment, experimentFromFlags, parseExperiment } from '../../runner/config/loader.ts';
import { fingerprintDifferences, planFingerprint } from '../../runner/resume/planFingerprint.ts';
import { QueueRunError, type RunMeta } from './runMeta.ts';

/** The file here: where the coordinator had it if this machine has it there, else at the same place in this checkout. */
function experimentFile(meta: RunMeta): string {
  return existsSync(meta.config_file) ? meta.config_file : resolve(meta.config_file_relative);
}

export async function experimentOfRun(meta: RunMeta): Promise<Experiment> {
  const { base_dir: baseDir, ...overrides } = meta.overrides;
  let experiment: Experiment;
  if (meta.config_file === COMMAND_LINE_EXPERIMENT) {
    experiment = await experimentFromFlags(overrides.agents ?? [], { baseDir: baseDir ?? process.cwd(), overrides });
  } else {
    const file = experimentFile(meta);
    experiment = await parseExperiment(meta.config_text, { file, baseDir: dirname(file), overrides });
  }
  const mine = planFingerprint(experiment, { games: meta.games, episodes: [] });
  if (mine.hash !== meta.plan.hash) {
    throw new QueueRunError(
      `run ${meta.run_id}: this worker's experiment plans other episodes than the coordinator's (${fingerprintDifferences(meta.plan, mine).join('; ')}); run workers from the coordinator's checkout`,
    );
  }
  return experiment;
}
