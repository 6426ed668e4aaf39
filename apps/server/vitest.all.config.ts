import { defineConfig } from 'vitest/config';

/**
 * Every server test, the sweeps included, in one run: CI's PostgreSQL stage (.ci/run). Run apart, the
 * cell probe (the longest file, ~80 s) held one worker while the other sat idle; in one run the API
 * tests fill the second worker meanwhile.
 */
export default defineConfig({
  root: import.meta.dirname,
  test: {
    maxWorkers: 2,
    projects: ['vitest.config.ts', 'vitest.isolated.config.ts', 'vitest.sweeps.config.ts'],
  },
});
