import { defineConfig } from 'vitest/config';

/**
 * The sweeps (issue 52): every screen x width x colour scheme x language through axe, the pseudo-locale
 * walk, the bundle and image budgets and Lighthouse. `npm run test:sweeps` runs them
 * (vitest.sweeps.config.ts), CI runs them after `npm test`; every feature they pass through is covered
 * end to end by the files of `npm test` too.
 */
export const SWEEPS = ['a11y.e2e.ts', 'pseudo-locale.e2e.ts', 'budgets.e2e.ts'];
/**
 * The fault tests, which `npm run test:sweeps` runs too and CI again on PostgreSQL and Redis: a crash in
 * the middle of writes, a graceful shutdown, two instances behind one database, a database restart
 * (the last two only with TEST_DATABASE_URL and REDIS_URL).
 */
export const FAULTS = ['crash.e2e.ts', 'shutdown.e2e.ts', 'scale-out.e2e.ts'];
/** Stops and starts the PostgreSQL server other tests share: alone, after everything else. */
export const DB_RESTART = 'db-restart.e2e.ts';
/** Lighthouse scores what two cores can do while it runs: a sweep that runs alone, after the others. */
export const LIGHTHOUSE = 'lighthouse.e2e.ts';

export const shared = {
  root: import.meta.dirname,
  testTimeout: 90_000,
  hookTimeout: 120_000,
  pool: 'forks',
  // One module graph per worker, not per file: importing playwright-core, axe and the helpers afresh
  // for each file was ~4 s of a file's set-up on a busy machine (issue 52). Each file still starts its
  // own servers and browsers; nothing a test sees is shared but loaded code.
  isolate: false,
  setupFiles: 'support/failure-report.ts',
  // expect.poll gives up after 1 s by default: too short for a screen on a busy two-core machine, where
  // a lazily loaded part (the member navigation and its bell) can take several seconds to appear.
  expect: { poll: { timeout: 15_000, interval: 100 } },
} as const;

// End-to-end: real server processes (built app) driven by Debian's Chromium through playwright-core.
export default defineConfig({
  test: {
    // Two files at a time; `--maxWorkers 1` on the command line wins.
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...shared,
          name: 'e2e',
          include: ['**/*.e2e.ts'],
          exclude: ['**/node_modules/**', LIGHTHOUSE, DB_RESTART, ...SWEEPS, ...FAULTS],
          globalSetup: ['support/seeded-template.ts'],
        },
      },
    ],
  },
});
