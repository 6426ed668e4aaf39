import { defineConfig } from 'vitest/config';
import { slowFirstSequencer } from './scripts/slow-first-sequencer.ts';

// Unit and in-process API tests. End-to-end tests have their own config (e2e/vitest.config.ts).
export default defineConfig({
  test: {
    projects: ['packages/contracts', 'apps/server', 'apps/server/vitest.isolated.config.ts', 'apps/web'],
    // Two cores: PGlite instances are heavy, so keep workers few.
    maxWorkers: 2,
    // The longest files first: in a fresh clone (no results cache) Vitest's own order left the
    // bootstrap test (~19 s) to run alone at the end of the server's files.
    sequence: {
      sequencer: slowFirstSequencer([
        'apps/server/test/authz/matrix.test.ts', // ~23 s
        'apps/server/src/modules/backup/backup.test.ts', // ~21 s
        'apps/server/src/bootstrap.test.ts', // ~19 s
        'apps/server/src/modules/backup/backup-cli.test.ts', // ~11 s
        'apps/server/src/modules/health/readiness.test.ts', // ~11 s
      ]),
    },
  },
});
