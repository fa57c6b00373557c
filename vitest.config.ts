import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'console/test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most test time is spent waiting (child processes, chains, sockets, browsers): three files at once on these
    // 2-core machines halves the suite's wall time (vitest's default here would be one). CREDENCE_TEST_WORKERS overrides.
    maxWorkers: Number(process.env.CREDENCE_TEST_WORKERS) || 3,
    teardownTimeout: 30_000,
  },
});
