import { defineConfig } from 'vitest/config';
import { DB_RESTART, FAULTS, LIGHTHOUSE, SWEEPS, shared } from './vitest.config.ts';

// The sweeps and the fault tests (`npm run test:sweeps`, see vitest.config.ts): two files at a time,
// then Lighthouse alone with the machine to itself, then the database restart (sequence.groupOrder).
export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...shared,
          name: 'e2e-sweeps',
          include: [...SWEEPS, ...FAULTS],
          globalSetup: ['support/seeded-template.ts'],
        },
      },
      {
        test: { ...shared, name: 'e2e-lighthouse', include: [LIGHTHOUSE], sequence: { groupOrder: 1 } },
      },
      {
        test: { ...shared, name: 'e2e-db-restart', include: [DB_RESTART], sequence: { groupOrder: 2 } },
      },
    ],
  },
});
