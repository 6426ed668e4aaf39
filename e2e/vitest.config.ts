import { defineConfig } from 'vitest/config';

const shared = {
  root: import.meta.dirname,
  testTimeout: 90_000,
  hookTimeout: 120_000,
  pool: 'forks',
} as const;

// End-to-end: real server processes (built app) driven by Debian's Chromium through playwright-core.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'e2e',
          include: ['**/*.e2e.ts'],
          exclude: ['**/node_modules/**', 'lighthouse.e2e.ts'],
          globalSetup: ['support/seeded-template.ts'],
          maxWorkers: 2,
        },
      },
      {
        // Lighthouse scores what two cores can do while it runs: it gets the machine to itself, after
        // every other end-to-end file has finished.
        test: {
          ...shared,
          name: 'e2e-lighthouse',
          include: ['lighthouse.e2e.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
