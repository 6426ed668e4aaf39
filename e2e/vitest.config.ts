import { defineConfig } from 'vitest/config';

// End-to-end: real server processes (built app) driven by Debian's Chromium through playwright-core.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    pool: 'forks',
  },
});
