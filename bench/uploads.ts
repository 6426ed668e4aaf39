/**
 * The bench's upload figures alone, with more samples (docs/performance.md, "Uploads"): the full
 * dataset and server of `npm run bench`, its HTTP loads cut to one second, then `--single` uploads one
 * at a time and `--rounds` bursts of eight while 50 readers load feed page 1. Prints one JSON line per
 * run. Compare builds by building each (`npm run build`) and running this against it.
 *
 *   npx tsx bench/uploads.ts [--single 7] [--rounds 4] [--server-env KEY=VALUE ...]
 *   DATABASE_URL=postgres://... npx tsx bench/uploads.ts
 */
import { parseArgs } from 'node:util';
import { PROFILES, parseServerEnv, runBench } from './run.ts';

const { values } = parseArgs({
  options: {
    single: { type: 'string', default: '7' },
    rounds: { type: 'string', default: '4' },
    'server-env': { type: 'string', multiple: true, default: [] },
  },
});
const serverEnv = parseServerEnv(values['server-env']);
const full = PROFILES.full!;
const run = await runBench({
  profile: {
    ...full,
    load: { ...full.load, durationS: 1, warmupS: 0 },
    uploads: { ...full.uploads, single: Number(values.single), rounds: Number(values.rounds) },
    idleS: 10,
  },
  databaseUrl: process.env.DATABASE_URL || undefined,
  web: false,
  keep: false,
  reuseDataset: true,
  serverEnv,
});
const { singleMs, singleMedianMs, concurrent } = run.uploads;
console.log(
  JSON.stringify({
    database: run.database.kind,
    serverEnv,
    singleMs,
    singleMedianMs,
    burstWallMs: concurrent.wallMs,
    peakRssMb: concurrent.peakRssMb,
    feedDuring: { p99Ms: concurrent.feedDuring.p99Ms, rps: concurrent.feedDuring.rps },
    rssAfterLoadMb: run.rss.afterLoadMb,
  }),
);
