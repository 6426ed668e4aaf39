import { defineProject } from 'vitest/config';

/**
 * Test files that replace a module with vi.mock: they run in a project of their own (vitest.isolated.config.ts)
 * with a fresh module graph per file, since a mock in a shared graph would reach, or miss, other files.
 */
export const NEEDS_ISOLATION = ['src/modules/groups/group-codes.test.ts', 'src/media/image-timeout.test.ts'];

/**
 * The server's sweeps (issue 52): long exhaustive walks that `npm run test:sweeps` runs, and CI with it
 * on both databases, rather than `npm test`. The cell probe walks every GET route after each of many
 * small moves of a secret point (~90 s); test/privacy/location-walk.test.ts, which walks every route
 * once per viewer, stays in `npm test`. The hostile-input sweeps send every route malformed bodies,
 * ids, pages and generated values (~40 s); the hostile tests of one rule each (rate limits, uploads,
 * file modes, headers, blocks, outages) stay in `npm test`.
 */
export const HOSTILE_SWEEPS = [
  'test/hostile/json-bodies.test.ts',
  'test/hostile/ids-and-pages.test.ts',
  'test/hostile/properties.test.ts',
];
export const SWEEPS = ['test/privacy/cell-probe.test.ts', ...HOSTILE_SWEEPS];

/** What the server projects share. */
export const serverTest = {
  globalSetup: ['./test/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
};

export default defineProject({
  test: {
    ...serverTest,
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...NEEDS_ISOLATION, ...SWEEPS],
    // One module graph per worker, not per file: importing the app afresh for each of a hundred files was
    // a third of this project's CPU on CI's two cores (docs/performance.md, "CI"). Every file builds its
    // own app and database (test/build-app.ts), so nothing a test sees is shared but loaded code.
    isolate: false,
  },
});
