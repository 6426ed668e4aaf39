/**
 * What metrics cost the feed (issue 29; docs/operations.md, "Metrics and health"): feed page 1 at 50
 * connections on the built server without metrics and with METRICS_TOKEN set, scraped every second
 * meanwhile (Prometheus scrapes every 15 s by default: this is fifteen times worse). The two kinds of
 * run alternate, off/on/off/on, so that a machine getting busier does not count against one of them,
 * and each kind's best run (lowest p99) counts: on a shared machine other work only ever adds to a
 * run's p99, so the best of several is the closest to what the server itself costs. Budget: with metrics, p99 at most 10 % + 5 ms above without.
 * Prints one JSON line; exits 1 on a FAIL.
 *
 *   npm run build && npx tsx bench/metrics-cost.ts [--profile small|full] [--rounds 3]
 *   DATABASE_URL=postgres://... npx tsx bench/metrics-cost.ts
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { hashPassword } from '../apps/server/src/lib/passwords.ts';
import { createPgDatabase, PROFILES } from './run.ts';
import { BENCH_PASSWORD, seedDataset } from './support/dataset.ts';
import { measure, pick, request, type LoadFigures } from './support/load.ts';
import { installMedia, prepareMedia } from './support/media.ts';
import { WORK_DIR } from './support/paths.ts';
import { prepareViewers, settle } from './support/scenarios.ts';
import { JEMALLOC, JEMALLOC_CONF, startBenchServer } from './support/server.ts';

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'small' },
    rounds: { type: 'string', default: '3' },
  },
});

const TOKEN = randomBytes(24).toString('hex');
const SCRAPE_EVERY_MS = 1000;
/** With metrics, the feed's p99 may be this much above without: 10 % and 5 ms. */
const budgetMs = (offP99: number) => offP99 * 1.1 + 5;

async function main() {
  const profile = PROFILES[values.profile!];
  if (!profile) throw new Error(`unknown profile ${values.profile}: ${Object.keys(PROFILES).join(', ')}`);
  const rounds = Number(values.rounds);
  const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  const runDir = join(WORK_DIR, `metrics-cost-${kind}-${Date.now()}`);
  mkdirSync(runDir, { recursive: true });
  const pg = process.env.DATABASE_URL ? await createPgDatabase(process.env.DATABASE_URL) : null;
  const log = (line: string) => console.error(line);
  try {
    const media = await prepareMedia({ uploads: 0, log });
    const database = await openDatabase({ databaseUrl: pg?.url, dataDir: runDir, poolSize: 2 });
    try {
      await database.migrate();
      log(`seeding ${profile.dataset.posts} posts (${kind})`);
      await seedDataset(database, profile.dataset, media, await hashPassword(BENCH_PASSWORD));
    } finally {
      await database.close();
    }
    installMedia(media, join(runDir, 'media'));

    const env = {
      DATA_DIR: runDir,
      ...(pg ? { DATABASE_URL: pg.url } : {}),
      JWT_SECRET: randomBytes(32).toString('hex'),
      SEED: 'false',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_LOGIN_PER_MINUTE: '1000000',
      ...(existsSync(JEMALLOC) ? { LD_PRELOAD: JEMALLOC, MALLOC_CONF: JEMALLOC_CONF } : {}),
    };
    const runs: { metrics: boolean; feed: LoadFigures; scrapes: number; scrapeBytes: number }[] = [];
    for (let round = 0; round < rounds; round += 1) {
      for (const metrics of [false, true]) {
        const server = await startBenchServer(
          metrics ? { ...env, METRICS_TOKEN: TOKEN } : env,
          join(runDir, 'server.log'),
        );
        try {
          const viewers = await prepareViewers(server.url, profile.viewers, 1);
          let current = viewers[0]!;
          let scrapes = 0;
          let scrapeBytes = 0;
          const scraper = metrics
            ? setInterval(() => {
                void fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
                  .then(async (res) => {
                    if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
                    scrapeBytes = (await res.text()).length;
                    scrapes += 1;
                  })
                  .catch((err: unknown) => log(`scrape failed: ${String(err)}`));
              }, SCRAPE_EVERY_MS)
            : null;
          await settle(server.url);
          const feed = await measure({
            url: server.url,
            connections: profile.load.connections,
            durationS: profile.load.durationS,
            warmupS: profile.load.warmupS,
            requests: [
              request(
                'GET',
                () => {
                  current = pick(viewers);
                  return '/api/feed/1';
                },
                () => ({ authorization: `Bearer ${current.token}` }),
              ),
            ],
          });
          if (scraper) clearInterval(scraper);
          if (metrics && scrapes === 0) throw new Error('no scrape succeeded during the load');
          log(
            `round ${round + 1}, metrics ${metrics ? 'on ' : 'off'}: ${feed.rps} req/s  p50 ${feed.p50Ms} ms  ` +
              `p99 ${feed.p99Ms} ms  errors ${feed.errors}${metrics ? `  ${scrapes} scrapes of ${scrapeBytes} bytes` : ''}`,
          );
          runs.push({ metrics, feed, scrapes, scrapeBytes });
        } finally {
          await server.stop();
        }
      }
    }
    const best = (metrics: boolean) => {
      const feeds = runs.filter((r) => r.metrics === metrics).map((r) => r.feed);
      const chosen = feeds.reduce((a, b) => (b.p99Ms < a.p99Ms ? b : a));
      return { p99Ms: chosen.p99Ms, p50Ms: chosen.p50Ms, rps: chosen.rps };
    };
    const off = best(false);
    const on = best(true);
    const errors = runs.reduce((sum, r) => sum + r.feed.errors, 0);
    const verdict = errors === 0 && on.p99Ms <= budgetMs(off.p99Ms) ? 'PASS' : 'FAIL';
    console.log(
      JSON.stringify({
        bench: 'metrics-cost',
        database: kind,
        profile: profile.name,
        connections: profile.load.connections,
        durationS: profile.load.durationS,
        runs: runs.map((r) => ({
          metrics: r.metrics,
          rps: r.feed.rps,
          p50Ms: r.feed.p50Ms,
          p99Ms: r.feed.p99Ms,
        })),
        feedPage1: { metricsOff: off, metricsOn: on, p99DifferenceMs: on.p99Ms - off.p99Ms },
        budget: `p99 with metrics <= ${budgetMs(off.p99Ms).toFixed(1)} ms (without + 10 % + 5 ms)`,
        errors,
        loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
        verdict,
      }),
    );
    if (verdict === 'FAIL') process.exitCode = 1;
  } finally {
    await pg?.drop();
    rmSync(runDir, { recursive: true, force: true });
  }
}

await main();
