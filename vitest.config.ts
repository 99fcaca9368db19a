import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Every file: its temp dirs removed at its end. npm run test:citus: each statement tagged with its
    // source line for the router-query check.
    setupFiles: [
      'test/file-setup.ts',
      ...(process.env.LEADFLOW_TEST_CITUS ? ['test/citus/tag-queries.ts'] : []),
    ],
    // Each test file gets its own database cloned from a migrated template, so files run in parallel.
    pool: 'forks',
    // A worker runs its files one after another in one process and keeps the loaded modules: each file
    // still gets its own database and its own app instance, and loading the app once per worker instead
    // of once per file cut the suite's CPU time by about a third (same run, 432 files).
    isolate: false,
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
  },
});
