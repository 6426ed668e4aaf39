import { defineConfig } from 'vitest/config';

// Unit and in-process API tests. End-to-end tests have their own config (e2e/vitest.config.ts).
export default defineConfig({
  test: {
    projects: ['packages/contracts', 'apps/server', 'apps/server/vitest.isolated.config.ts', 'apps/web'],
    // Two cores: PGlite instances are heavy, so keep workers few.
    maxWorkers: 2,
  },
});
