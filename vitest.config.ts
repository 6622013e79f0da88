import { defineConfig } from 'vitest/config';

// In CI a JSON report is written as well, so .ci/run can print a plain "N passed, N failed" line.
const ci = process.env.CI === 'true';

export default defineConfig({
  // Tests run the sources: `arcbench` imports resolve through tsconfig.json's paths to src/, not to the
  // build in dist/ that package.json's exports name.
  resolve: { tsconfigPaths: true },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/tempRoot.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ci ? ['default', ['json', { outputFile: '.vitest-report.json' }]] : ['default'],
  },
});
