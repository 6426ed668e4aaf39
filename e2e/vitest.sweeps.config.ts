import { defineConfig } from 'vitest/config';
import { LIGHTHOUSE, SWEEPS, shared } from './vitest.config.ts';

// The sweeps (`npm run test:sweeps`, see vitest.config.ts): two files at a time, then Lighthouse alone
// (sequence.groupOrder), with the machine to itself.
export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...shared,
          name: 'e2e-sweeps',
          include: SWEEPS,
          globalSetup: ['support/seeded-template.ts'],
        },
      },
      {
        test: { ...shared, name: 'e2e-lighthouse', include: [LIGHTHOUSE], sequence: { groupOrder: 1 } },
      },
    ],
  },
});
