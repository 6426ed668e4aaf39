import { defineProject } from 'vitest/config';
import { NEEDS_ISOLATION, serverTest } from './vitest.config.ts';

/** The server's test files that mock a module, each in a module graph of its own (see vitest.config.ts). */
export default defineProject({
  test: { ...serverTest, name: 'server-isolated', include: NEEDS_ISOLATION, isolate: true },
});
