import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SlowestFirst } from './test/support/slowestFirst.ts';

// In CI a JSON report is written as well, so .ci/run can print a plain "N passed, N failed" line.
const ci = process.env.CI === 'true';

export default defineConfig({
  // Tests run the sources: `arcbench` imports resolve through tsconfig.json's paths to src/, not to the
  // build in dist/ that package.json's exports name.
  resolve: { tsconfigPaths: true },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/tempRoot.ts', 'test/support/builtCli.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Files run in parallel, one worker per core; the slowest start first. vitest's own default for a run is
    // one worker fewer than the cores: on a 2-core machine that is one file at a time, while most files
    // spend much of their time waiting on a child process, a server or a timer.
    maxWorkers: availableParallelism(),
    // A file runs in a worker process that earlier files used, with the modules they loaded: a fresh
    // process and module graph per file had cost 124 s of the suite's 508 s of CPU (measured 2026-11-26).
    // The guard fails a file that leaves the process changed for the next (environment, cwd, timers).
    isolate: false,
    setupFiles: ['test/support/sharedWorkerGuard.ts'],
    sequence: { sequencer: SlowestFirst },
    reporters: ci ? ['default', ['json', { outputFile: '.vitest-report.json' }]] : ['default'],
    // `npm run coverage` (what CI runs): v8's own counters in the test workers. Code that runs only in a
    // child process (the CLI the tests spawn) or in the browser (the report page) is not counted.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/report/page/**'],
      reporter: ['text-summary', 'json-summary'],
      // The figures are printed when a test fails too, so a failing run still says where coverage stands.
      reportOnFailure: true,
      // The whole suite measured 83.72% lines, 78.96% branches, 82.84% functions, 83.15% statements on
      // 2026-11-25; the floor is a little under, so that timing-dependent paths do not fail CI.
      thresholds: { lines: 83, branches: 78, functions: 82, statements: 82.5 },
    },
  },
});
