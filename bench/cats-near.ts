/**
 * GET /api/cats?near=lat,lng (issue 26: 'search by name, nearest first; paged') on the town of
 * bench/missing-near.ts: 20,000 cats over southern Spain, 2,000 of them in 10 x 10 km of Málaga, plus
 * four older sightings per cat around its first (100,000 sightings: the newest one the viewer may see
 * places the cat). Measures on the built server at 50 connections: the first page around a random
 * point of the city and of the region, the same with a name query, and a later page (its cursor read
 * first) around the city's centre. Prints one JSON line. The list read and sorted every cat before
 * (about 4 s a request at this size); its rings read only the cats near the point.
 *
 *   npm run build && npx tsx bench/cats-near.ts
 *   DATABASE_URL=postgres://... npx tsx bench/cats-near.ts
 */
import { mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { CatsResponse } from '@cats/contracts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { hashPassword } from '../apps/server/src/lib/passwords.ts';
import { CATS, CITY, EMAIL, REGION, seedStatements } from './missing-near.ts';
import { createPgDatabase, PROFILES } from './run.ts';
import { BENCH_PASSWORD } from './support/dataset.ts';
import { rowsOf } from './support/db.ts';
import { cpuMeter } from './support/cpu.ts';
import { WORK_DIR } from './support/paths.ts';
import { getLoader, p99Verdicts } from './support/scenarios.ts';
import { benchLogin, startLoadServer } from './support/server.ts';

/** The budget of issue 26's other cat queries (suggestions, missing near me), held to here too. */
const P99_BUDGET_MS = 50;
const OLDER_SIGHTINGS = 4;

/** Older sightings of every cat, each within about 1 km of its first, by the cat's caretaker. */
const olderSightings = () => `
  insert into posts (id, user_id, caption, media_key, width, height, placeholder, latitude, longitude, show_location, cat_id, created_at)
  select md5('cn-post-' || n || '-' || k)::uuid, md5('mn-user-' || (n % 20000))::uuid, 'Seen before', 'posts/cn-' || n || '-' || k,
         800, 800, 'AAAA',
         least(90, greatest(-90, first.latitude + (('x' || substr(md5('cn-lat-' || n || '-' || k), 1, 8))::bit(32)::bigint::float8 / 4294967295 - 0.5) * 0.018)),
         least(180, greatest(-180, first.longitude + (('x' || substr(md5('cn-lng-' || n || '-' || k), 1, 8))::bit(32)::bigint::float8 / 4294967295 - 0.5) * 0.022)),
         k % 2 = 0, md5('mn-cat-' || n)::uuid, now() - interval '30 days' - k * interval '1 day'
    from generate_series(0, ${CATS - 1}) n, generate_series(1, ${OLDER_SIGHTINGS}) k,
         lateral (select p.latitude, p.longitude from posts p where p.id = md5('mn-post-' || n)::uuid) first`;

async function main() {
  const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  const runDir = join(WORK_DIR, `cats-near-${kind}-${Date.now()}`);
  mkdirSync(runDir, { recursive: true });
  const pg = process.env.DATABASE_URL ? await createPgDatabase(process.env.DATABASE_URL) : null;
  try {
    const database = await openDatabase({ databaseUrl: pg?.url, dataDir: runDir, poolSize: 2 });
    const seeded = Date.now();
    let sightings = 0;
    try {
      await database.migrate();
      const statements = seedStatements(await hashPassword(BENCH_PASSWORD));
      // The older sightings go in before the closing vacuum analyze.
      statements.splice(statements.length - 1, 0, olderSightings());
      for (const statement of statements) await database.db.execute(sql.raw(statement));
      const [row] = rowsOf<{ n: number }>(
        await database.db.execute(sql`select count(*)::int as n from posts where cat_id is not null`),
      );
      sightings = Number(row?.n ?? 0);
    } finally {
      await database.close();
    }
    const seedMs = Date.now() - seeded;

    const server = await startLoadServer(runDir, pg?.url);
    try {
      const auth = await benchLogin(server.url, EMAIL, BENCH_PASSWORD);
      const centre = '36.7213,-4.4214';
      const first = await fetch(`${server.url}/api/cats?near=${centre}`, { headers: auth });
      const firstPage = (await first.json()) as CatsResponse;
      if (first.status !== 200 || firstPage.cats.length === 0 || !firstPage.info.nextCursor)
        throw new Error(`the first page is ${JSON.stringify(firstPage).slice(0, 200)}`);
      // The tenth page's cursor, walked to as a reader would (page 10: 200 cats out, about 3 km).
      let cursor = firstPage.info.nextCursor;
      for (let page = 2; page < 10; page += 1) {
        const res = await fetch(
          `${server.url}/api/cats?near=${centre}&cursor=${encodeURIComponent(cursor)}`,
          {
            headers: auth,
          },
        );
        const body = (await res.json()) as CatsResponse;
        if (!body.info.nextCursor) throw new Error(`page ${page} has no next page`);
        cursor = body.info.nextCursor;
      }
      const plan = PROFILES.full!.load;
      const cpu = cpuMeter(server.pid, !!pg);
      const load = getLoader(server.url, plan, auth, cpu);
      const random = (lo: number, hi: number) => (lo + Math.random() * (hi - lo)).toFixed(5);
      const inCity = () => `${random(CITY.south, CITY.north)},${random(CITY.west, CITY.east)}`;
      const inRegion = () => `${random(REGION.south, REGION.north)},${random(REGION.west, REGION.east)}`;
      const loads = {
        nearCity: await load(() => `/api/cats?near=${inCity()}`),
        nearRegion: await load(() => `/api/cats?near=${inRegion()}`),
        // 'Cat 1…': one name in nine starts so, spread over the whole region.
        nameNearCity: await load(() => `/api/cats?q=cat%201&near=${inCity()}`),
        tenthPageCity: await load(() => `/api/cats?near=${centre}&cursor=${encodeURIComponent(cursor)}`),
      };
      // The feed's first page on the same server in the same minute: what this shared machine gives
      // the feed right now (information, as in bench/missing-near.ts; compare within a run).
      const feedReference = await load(() => '/api/feed/1');
      const summary = p99Verdicts(loads, P99_BUDGET_MS);
      console.log(
        JSON.stringify({
          database: kind,
          cats: CATS,
          sightings,
          seedMs,
          budget: `p99 < ${P99_BUDGET_MS} ms at ${plan.connections} connections`,
          ...summary,
          feedReference: { rps: feedReference.rps, p50Ms: feedReference.p50Ms, p99Ms: feedReference.p99Ms },
          loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
        }),
      );
      if (Object.values(summary).some((s) => s.verdict === 'FAIL')) process.exitCode = 1;
    } finally {
      await server.stop();
    }
  } finally {
    await pg?.drop();
    rmSync(runDir, { recursive: true, force: true });
  }
}

await main();
