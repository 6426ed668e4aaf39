/**
 * Explore map benchmark: 100,000 located posts in a fresh embedded database (PGlite), then
 * GET /api/explore for a 1280x800 screen (padded as the web client pads it) at zooms 3, 5, 8, 11 and 14,
 * through the real app in process (app.inject: routing, validation, auth, SQL, clustering, serialisation).
 *
 *   npm run bench:explore                     (POSTS=100000 REQUESTS=100 by default)
 *   POSTS=20000 REQUESTS=50 npm run bench:explore
 *
 * Media keys are fake: the bench measures the API, not image serving.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { MAP_DEFAULT_CENTER, type ExploreResponse, type MapViewport } from '@cats/contracts';
import { buildApp } from '../apps/server/src/app.ts';
import { testConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { openPglite } from '../apps/server/src/db/pglite-thread.ts';
import { LocalStorage } from '../apps/server/src/media/local-storage.ts';
import { MapStore } from '../apps/server/src/modules/explore/map-store.ts';
import { seedDemoUser } from '../apps/server/src/seed/seed.ts';

const POSTS = Number(process.env.POSTS ?? 100_000);
const REQUESTS = Number(process.env.REQUESTS ?? 100);
const ZOOMS = [3, 5, 8, 11, 14];
const SCREEN = { width: 1280, height: 800 };
/** The web client asks for its visible bounds plus 25% on every side (features/explore/lib/viewport.ts). */
const PADDING = 0.25;

const ms = (t0: number) => performance.now() - t0;
const fmt = (n: number, digits = 1) => n.toFixed(digits);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

const latToY = (lat: number) => {
  const s = Math.sin((lat * Math.PI) / 180);
  return 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
};
const yToLat = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;

/** The padded bounds of a screen centred on a point, as Leaflet reports them. */
function viewportAround(lat: number, lng: number, zoom: number): MapViewport {
  const world = 256 * 2 ** zoom;
  const halfW = (SCREEN.width / 2 / world) * (1 + 2 * PADDING);
  const halfH = (SCREEN.height / 2 / world) * (1 + 2 * PADDING);
  const y = latToY(lat);
  const round = (v: number) => Math.round(v * 1e4) / 1e4;
  return {
    west: round(Math.max(-540, lng - halfW * 360)),
    east: round(Math.min(540, lng + halfW * 360)),
    north: round(Math.min(90, yToLat(Math.max(0, y - halfH)))),
    south: round(Math.max(-90, yToLat(Math.min(1, y + halfH)))),
    zoom,
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'cats-explore-bench-'));
  const client = await openPglite({});
  const database = await openDatabase({ dataDir: dir }, client);
  const storage = new LocalStorage(join(dir, 'media'));
  try {
    const t0 = performance.now();
    await database.migrate();
    await seedDemoUser({ db: database.db, storage, log: undefined as never });
    const db = database.db;
    const select = async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
    // 1,000 authors, one in ten publishing exact locations; everyone else's posts show ~500 m cells.
    await db.execute(sql`insert into users (username, email, password_hash, exact_public_location)
      select 'bench_' || g, 'bench_' || g || '@example.com', 'x', g % 10 = 0 from generate_series(1, 1000) g`);
    // 100 towns (60 in Iberia, 40 elsewhere in Europe); nine posts in ten within a few km of a town.
    await db.execute(sql`create temp table bench_towns as
      select t as k,
        case when t < 60 then 36 + random() * 7.5 else 40 + random() * 18 end as lat,
        case when t < 60 then -9 + random() * 12 else -10 + random() * 40 end as lng
      from generate_series(0, 99) t`);
    await db.execute(sql`insert into posts
        (user_id, caption, latitude, longitude, show_location, media_key, width, height, placeholder, created_at)
      select u.id, 'Bench cat ' || g,
        case when g % 10 = 0 then -60 + random() * 130 else t.lat + (random() + random() + random() - 1.5) * 0.05 end,
        case when g % 10 = 0 then -180 + random() * 360 else t.lng + (random() + random() + random() - 1.5) * 0.06 end,
        true, 'posts/' || md5(g::text), 800, 800, 'AAAA', now() - make_interval(secs => g)
      from generate_series(1, ${POSTS}) g
      join bench_towns t on t.k = g % 100
      join (select id, row_number() over (order by id) - 1 as k from users where username like 'bench\\_%') u
        on u.k = g % 1000`);
    // Some likes, so posts carry realistic greatCat arrays.
    await db.execute(sql`insert into likes (post_id, user_id)
      select p.id, u.id from (select id, row_number() over () as n from posts limit ${Math.floor(POSTS * 0.3)}) p
      join (select id, row_number() over (order by id) - 1 as k from users) u on u.k = p.n % 1000
      on conflict do nothing`);
    await db.execute(sql`analyze`);
    const seeded = ms(t0);

    // A viewer with no exclusions, and one who hid 200 posts and blocked two authors.
    const [plain] = await select<{ id: string }>(sql`select id from users where username = 'bench_7'`);
    const [picky] = await select<{ id: string }>(sql`select id from users where username = 'bench_8'`);
    await db.execute(sql`insert into hidden_posts (user_id, post_id)
      select ${picky!.id}, id from posts order by created_at desc limit 200`);
    await db.execute(sql`insert into blocks (blocker_id, blocked_id)
      select ${picky!.id}, id from users where username in ('bench_11', 'bench_12')`);

    const app = await buildApp({
      config: testConfig({ DATA_DIR: dir }),
      database,
      storage,
      jwtSecret: randomBytes(32).toString('hex'),
      webDistDir: null,
    });
    // Ready starts loading the map index in the background; the first request waits for it.
    const started = performance.now();
    await app.ready();
    const auth = async (id: string) => ({ authorization: `Bearer ${await app.accessTokens.sign(id)}` });
    const viewers = { plain: await auth(plain!.id), picky: await auth(picky!.id) };

    const get = async (url: string, headers: { authorization: string }) => {
      const t = performance.now();
      const res = await app.inject({ url, headers });
      const time = ms(t);
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      return { time, bytes: Buffer.byteLength(res.body), body: res.json() as ExploreResponse };
    };
    const query = (v: MapViewport) =>
      `/api/explore?${new URLSearchParams(Object.entries(v).map(([k, val]): [string, string] => [k, String(val)]))}`;

    console.log(
      `Explore benchmark: ${POSTS.toLocaleString('en')} located posts, ${REQUESTS} requests per zoom`,
    );
    console.log(`seeded in ${fmt(seeded / 1000)} s (PGlite, in memory)\n`);

    const cold = await get(
      query(viewportAround(MAP_DEFAULT_CENTER.lat, MAP_DEFAULT_CENTER.lng, 8)),
      viewers.plain,
    );
    console.log(
      `map index load at start + first answer: ${fmt(ms(started))} ms (the request itself: ${fmt(cold.time)} ms)`,
    );
    const loadStart = performance.now();
    const index = await new MapStore(db).current();
    console.log(
      `a full load of the map index alone: ${fmt(ms(loadStart))} ms (${index.size.toLocaleString('en')} points)`,
    );
    const heap = process.memoryUsage();
    console.log(
      `memory after load: heap ${fmt(heap.heapUsed / 2 ** 20, 0)} MB, rss ${fmt(heap.rss / 2 ** 20, 0)} MB\n`,
    );

    // Centres: the default view's surroundings, and the towns themselves (dense areas).
    const towns = await select<{ lat: number; lng: number }>(
      sql`select lat, lng from bench_towns order by k`,
    );
    const centre = (i: number, zoom: number) => {
      if (zoom <= 5)
        return {
          lat: MAP_DEFAULT_CENTER.lat + ((i % 7) - 3),
          lng: MAP_DEFAULT_CENTER.lng + ((i % 5) - 2) * 2,
        };
      const town = towns[i % towns.length]!;
      const jitter = 0.5 / 2 ** (zoom - 8);
      return {
        lat: town.lat + (((i * 7) % 11) - 5) * jitter * 0.1,
        lng: town.lng + (((i * 3) % 13) - 6) * jitter * 0.1,
      };
    };

    const rows: string[][] = [];
    for (const [who, headers] of Object.entries(viewers)) {
      for (const zoom of ZOOMS) {
        const times: number[] = [];
        let bytes = 0;
        let clusters = 0;
        let posts = 0;
        for (let i = 0; i < REQUESTS; i += 1) {
          const c = centre(i, zoom);
          const r = await get(query(viewportAround(c.lat, c.lng, zoom)), headers);
          times.push(r.time);
          bytes += r.bytes;
          clusters += r.body.clusters?.length ?? 0;
          posts += r.body.markers?.length ?? 0;
        }
        times.sort((a, b) => a - b);
        rows.push([
          who,
          String(zoom),
          fmt(percentile(times, 0.5)),
          fmt(percentile(times, 0.99)),
          fmt(times.at(-1)!),
          fmt(bytes / REQUESTS / 1024),
          fmt(clusters / REQUESTS),
          fmt(posts / REQUESTS),
        ]);
      }
    }
    const header = ['viewer', 'zoom', 'p50 ms', 'p99 ms', 'max ms', 'avg KB', 'clusters', 'lone markers'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
    console.log(line(header));
    for (const r of rows) console.log(line(r));

    // A new post is patched into the index (change log), not reloaded.
    await db.execute(sql`insert into posts (user_id, latitude, longitude, show_location, media_key, width, height, placeholder)
      values (${plain!.id}, 37.01, -4.51, true, 'posts/bench-new', 800, 800, 'AAAA')`);
    const patched = await get(query(viewportAround(37, -4.5, 8)), viewers.plain);
    const after = await get(query(viewportAround(37, -4.5, 8)), viewers.plain);
    console.log(
      `\nafter a new post: first request ${fmt(patched.time)} ms (patches the index), next ${fmt(after.time)} ms`,
    );

    const all = await get('/api/explore', viewers.plain);
    console.log(
      `without a viewport (the spec's call, capped at ${all.body.posts?.length ?? 0} posts): ${fmt(all.time)} ms, ${fmt(all.bytes / 2 ** 20)} MB`,
    );
    await app.close();
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
