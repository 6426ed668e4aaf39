import { defineConfig } from 'vitest/config';
import { slowFirstSequencer } from '../../scripts/slow-first-sequencer.ts';

/**
 * Every server test, the sweeps included, in one run: CI's PostgreSQL stage (.ci/run). Run apart, the
 * cell probe (the longest file, ~80-115 s, half of it waiting on the database) held one worker while
 * the other sat idle; in one run the API tests fill the second worker meanwhile, if the probe starts
 * first: Vitest's own order puts the sweeps' project last.
 */
export default defineConfig({
  root: import.meta.dirname,
  test: {
    maxWorkers: 2,
    projects: ['vitest.config.ts', 'vitest.isolated.config.ts', 'vitest.sweeps.config.ts'],
    // The longest files first (test times on PostgreSQL, CI's slowest host): the rest fill in around them.
    sequence: {
      sequencer: slowFirstSequencer([
        'test/privacy/cell-probe.test.ts', // ~115 s
        'test/hostile/json-bodies.test.ts', // ~27 s
        'test/authz/matrix.test.ts', // ~20 s
        'test/hostile/ids-and-pages.test.ts', // ~16 s
        'src/bootstrap.test.ts', // ~16 s
        'test/hostile/properties.test.ts', // ~10 s
      ]),
    },
  },
});
