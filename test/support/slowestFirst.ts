/**
 * The order test files start in. vitest starts the files it has timed before longest first, and files it
 * has never timed (a clean clone: every CI run) largest first. The slowest files here are short ones that
 * spawn processes, so on a clean clone they started late and ran on alone at the end while the other core
 * idled. They start first, longest first, always (with a timing history vitest would put them first too).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The slowest files of the whole suite, slowest first: each took 12 s to 55 s of one worker in a run on
 * 2026-11-26 (the quiet 2-core machine); the rest took under 10 s each, most under 3 s.
 */
const SLOWEST = [
  'test/scale-queue-continue.test.ts',
  'test/runner-resume-kill.test.ts',
  'test/runner-resume-llm.test.ts',
  'test/runner-resume-continue.test.ts',
  'test/runner-resume.test.ts',
  'test/scale-queue.test.ts',
  'test/agent-python-play.test.ts',
  'test/runner-statistics.test.ts',
  'test/package.test.ts',
  'test/report-page.test.ts',
  'test/agent-python-faults.test.ts',
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
