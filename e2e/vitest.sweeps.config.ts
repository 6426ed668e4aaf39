import { defineConfig } from 'vitest/config';
import { slowFirstSequencer } from '../scripts/slow-first-sequencer.ts';
import { DB_RESTART, FAULTS, LIGHTHOUSE, SWEEPS, shared } from './vitest.config.ts';

// The sweeps and the fault tests (`npm run test:sweeps`, see vitest.config.ts): two files at a time,
// then Lighthouse alone with the machine to itself, then the database restart (sequence.groupOrder).
export default defineConfig({
  test: {
    maxWorkers: 2,
    // The axe sweep (~140 s) and the pseudo-locale one (~70 s, its build included) first: started after
    // the shorter files, as Vitest's own order did in a fresh clone, one of them ran alone at the end.
    sequence: { sequencer: slowFirstSequencer(['a11y.e2e.ts', 'pseudo-locale.e2e.ts']) },
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
