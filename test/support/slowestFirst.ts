/**
 * The order test files start in. vitest starts the files it has timed before longest first, and files it
 * has never timed (a clean clone: every CI run) largest first. The slowest files here are short ones that
 * spawn processes, so on a clean clone they started late and ran on alone at the end while the other core
 * idled. They start first, longest first, always (with a timing history vitest would put them first too).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The slowest files of the whole suite, slowest first: each took 30 s to 105 s of one worker in a run on
 * 2026-11-25 (a loaded 2-core machine, with coverage); the rest took under 25 s each, most under 5 s.
 */
const SLOWEST = [
  'test/games-cli.test.ts',
  'test/runner-resume.test.ts',
  'test/runner-resume-kill.test.ts',
  'test/package.test.ts',
  'test/runner-statistics.test.ts',
  'test/scale-queue.test.ts',
  'test/agents-llm-answers.test.ts',
  'test/cli-main.test.ts',
  'test/recording-gzip.test.ts',
  'test/runner-faults.test.ts',
];

function rank(file: TestSpecification): number {
  const index = SLOWEST.findIndex((name) => file.moduleId.endsWith(name));
  return index === -1 ? SLOWEST.length : index;
}

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array.prototype.sort is stable: the rest keep vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
