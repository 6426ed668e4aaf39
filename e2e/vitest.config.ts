import { defineConfig } from 'vitest/config';

const shared = {
  root: import.meta.dirname,
  testTimeout: 90_000,
  hookTimeout: 120_000,
  pool: 'forks',
  setupFiles: 'support/failure-report.ts',
  // expect.poll gives up after 1 s by default: too short for a screen on a busy two-core machine, where
  // a lazily loaded part (the member navigation and its bell) can take several seconds to appear.
  expect: { poll: { timeout: 15_000, interval: 100 } },
} as const;

// End-to-end: real server processes (built app) driven by Debian's Chromium through playwright-core.
// Two files need the machine or a shared service to themselves: each is its own project, run after
// the others (sequence.groupOrder) with nothing beside it.
const ALONE = { lighthouse: 'lighthouse.e2e.ts', dbRestart: 'db-restart.e2e.ts' };

export default defineConfig({
  test: {
    // Two files at a time (one alone in the later groups); `--maxWorkers 1` on the command line wins.
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...shared,
          name: 'e2e',
          include: ['**/*.e2e.ts'],
          exclude: ['**/node_modules/**', ...Object.values(ALONE)],
          globalSetup: ['support/seeded-template.ts'],
        },
      },
      {
        // Lighthouse scores what two cores can do while it runs.
        test: {
          ...shared,
          name: 'e2e-lighthouse',
          include: [ALONE.lighthouse],
          sequence: { groupOrder: 1 },
        },
      },
      {
        // Stops and starts the PostgreSQL server that the other PostgreSQL tests use (CI's last step).
        test: {
          ...shared,
          name: 'e2e-db-restart',
          include: [ALONE.dbRestart],
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
