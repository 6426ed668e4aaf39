import { defineConfig } from 'vitest/config';
import { SWEEPS, serverTest } from './vitest.config.ts';

/** The server's sweeps (see vitest.config.ts), run by `npm run test:sweeps` and in CI. */
export default defineConfig({
  root: import.meta.dirname,
  test: { ...serverTest, name: 'server-sweeps', include: SWEEPS, isolate: false },
});
