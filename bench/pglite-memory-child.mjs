// One measurement of bench/pglite-memory.ts, in its own process so that each variant starts clean.
// Plain JavaScript (no TypeScript loader) so that nothing but PGlite and Node weigh on the figures.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

const rssMb = () =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024);
const settings = JSON.parse(process.env.PGLITE_SETTINGS ?? '[]');
/** [{ name, sql, params, repeat }]: timed queries against an existing (seeded) data directory. */
const queries = process.env.PGLITE_QUERIES ? JSON.parse(process.env.PGLITE_QUERIES) : null;

const started = Date.now();
const db = await PGlite.create({
  dataDir: process.env.PGLITE_DIR,
  startParams: [...PGlite.defaultStartParams, ...settings.flatMap((s) => ['-c', s])],
});
const openMs = Date.now() - started;
const rssAfterOpenMb = rssMb();
globalThis.gc();
const rssAfterOpenGcMb = rssMb();

const timings = {};
const workStarted = Date.now();
if (queries) {
  for (const q of queries) {
    const times = [];
    for (let i = 0; i < q.repeat; i += 1) {
      const t = performance.now();
      await db.query(q.sql, q.params);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    timings[q.name] = {
      p50: Math.round(times[Math.floor(times.length / 2)] * 10) / 10,
      p90: Math.round(times[Math.floor(times.length * 0.9)] * 10) / 10,
    };
  }
} else {
  const migrations = join(import.meta.dirname, '..', 'apps', 'server', 'drizzle');
  for (const file of readdirSync(migrations)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    for (const statement of readFileSync(join(migrations, file), 'utf8').split('--> statement-breakpoint')) {
      if (statement.trim()) await db.exec(statement);
    }
  }
  await db.exec(`
    insert into users (username, email, password_hash)
      select 'user_' || i, 'user_' || i || '@example.com', 'x' from generate_series(1, 200) i;
    insert into posts (user_id, caption, media_key, width, height, placeholder, latitude, longitude, show_location, created_at)
      select (select id from users order by username offset (i % 200) limit 1), 'caption ' || i, 'posts/abc', 800, 600, 'ph',
        36 + (i % 100) / 50.0, -5 + (i % 97) / 40.0, true, now() - i * interval '1 minute'
      from generate_series(1, 20000) i;
    insert into likes (post_id, user_id) select p.id, u.id from (select id from posts limit 5000) p cross join (select id from users limit 4) u;
    insert into comments (post_id, user_id, body) select p.id, u.id, 'nice cat' from (select id from posts limit 5000) p cross join (select id from users limit 2) u;
  `);
  for (let page = 0; page < 200; page += 1) {
    await db.query(
      `select p.*, (select array_agg(l.user_id) from likes l where l.post_id = p.id) likers,
              (select count(*) from comments c where c.post_id = p.id) comments
         from posts p join users u on u.id = p.user_id
        order by p.created_at desc, p.id desc limit 21 offset $1`,
      [page * 20],
    );
  }
  await db.query('select id, latitude, longitude from posts where show_location');
}
const workMs = Date.now() - workStarted;
const rssAfterWorkMb = rssMb();
for (let i = 0; i < 3; i += 1) {
  globalThis.gc();
  await new Promise((r) => setTimeout(r, 300));
}
const rssAfterGcMb = rssMb();
await db.close();
console.log(
  JSON.stringify({ openMs, rssAfterOpenMb, rssAfterOpenGcMb, rssAfterWorkMb, rssAfterGcMb, workMs, timings }),
);
