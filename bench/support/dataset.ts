/**
 * The benchmark's dataset, written with a few set-based statements (generate_series) so that 100,000
 * posts and their likes and comments take seconds, not the minutes row-by-row inserts would.
 *
 * Everything is derived from numbers: user n has id md5('bench-user-n')::uuid, email bench<n>@bench.test
 * and the password BENCH_PASSWORD, post i has id md5('bench-post-i')::uuid and is the i-th newest. Post
 * images point at a small set of real WebP variants (bench/support/media.ts) so every URL resolves.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrationsFolder, type DatabaseHandle } from '../../apps/server/src/db/client.ts';
import { rowsOf } from './db.ts';
import type { BenchMedia } from './media.ts';
import { WORK_DIR } from './paths.ts';

export const BENCH_PASSWORD = 'BenchCats123';
/** Bump when the statements change: seeded copies kept for --reuse-dataset are then made again. */
export const DATASET_VERSION = 4;

/**
 * Where a seeded PGlite copy of a profile's dataset is kept (--reuse-dataset, and the experiment
 * scripts): named after the dataset version and the migrations, so a schema change seeds anew.
 */
export function datasetTemplateDir(profile: string): string {
  const journal = readFileSync(join(migrationsFolder(), 'meta', '_journal.json'));
  const schema = createHash('sha256').update(journal).digest('hex').slice(0, 8);
  return join(WORK_DIR, `dataset-pglite-${profile}-v${DATASET_VERSION}-${schema}`);
}
export const benchEmail = (n: number) => `bench${n}@bench.test`;

export interface DatasetSize {
  users: number;
  posts: number;
  /** Average likes per post (uniform 0..2x). */
  likesPerPost: number;
  /** Average comments per post (uniform 0..2x). */
  commentsPerPost: number;
  /** Posts each user has hidden: half among the newest 2,000, half anywhere. */
  hidesPerUser: number;
  /** Users each user has blocked. */
  blocksPerUser: number;
  /** Cat profiles (issue 26), each with its territory; the posts taken there are its sightings. */
  cats: number;
  /** The share of posts linked to a cat (the cat picked at random, the post moved into its territory). */
  sightingShare: number;
  /** Cats each user follows. */
  followsPerUser: number;
}

export const FULL_DATASET: DatasetSize = {
  users: 1000,
  posts: 100_000,
  likesPerPost: 5,
  commentsPerPost: 3,
  hidesPerUser: 20,
  blocksPerUser: 2,
  cats: 20_000,
  sightingShare: 0.6,
  followsPerUser: 10,
};

export const SMALL_DATASET: DatasetSize = {
  users: 100,
  posts: 5_000,
  likesPerPost: 5,
  commentsPerPost: 3,
  hidesPerUser: 10,
  blocksPerUser: 1,
  cats: 1_000,
  sightingShare: 0.6,
  followsPerUser: 5,
};

export interface DatasetCounts {
  users: number;
  posts: number;
  located: number;
  shownOnMap: number;
  likes: number;
  comments: number;
  hiddenPosts: number;
  blocks: number;
  /** Issue 26; datasets seeded before version 4 have none. */
  cats?: number;
  sightings?: number;
  seedMs: number;
}

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** The statements, in order. Exported so the docs can show them and tests can inspect them. */
export function datasetStatements(size: DatasetSize, media: BenchMedia, passwordHash: string): string[] {
  const { users: U, posts: P } = size;
  const postMedia = media.posts
    .map((m, k) => `(${k}, ${literal(m.prefix)}, ${m.width}, ${m.height}, ${literal(m.placeholder)})`)
    .join(',\n      ');
  const avatars = `array[${media.avatars.map((a) => literal(a)).join(', ')}]::text[]`;
  // One post every ~5 minutes going back in time: 100,000 posts cover about a year.
  const step = `interval '315 seconds'`;
  const likeSpan = size.likesPerPost * 2 + 1;
  const commentSpan = size.commentsPerPost * 2 + 1;
  const newest = Math.min(2000, P);
  return [
    `select setseed(0.4242)`,
    `insert into users (id, username, email, password_hash, profile_pic_key, exact_public_location, created_at)
     select md5('bench-user-' || n)::uuid, 'bench_' || n, 'bench' || n || '@bench.test', ${literal(passwordHash)},
            case when n % 3 = 0 then (${avatars})[1 + n % ${media.avatars.length}] end,
            n % 10 = 0, now() - interval '400 days'
       from generate_series(1, ${U}) n`,
    `create temporary table bench_post_media (k int primary key, media_key text, width int, height int, placeholder text)`,
    `insert into bench_post_media values
      ${postMedia}`,
    // r1: located or not; r2: where; r3, r4: coordinates; r5: caption length; r6: map switch.
    `insert into posts (id, user_id, caption, cat_name, latitude, longitude, show_location, media_key, width,
                        height, placeholder, created_at)
     select md5('bench-post-' || s.i)::uuid,
            md5('bench-user-' || (1 + floor(s.r0 * ${U}))::int)::uuid,
            left('Spotted this one sunbathing on the garden wall again. Friendly, a bit shy, loves chin scratches. '
                 || 'Third time this week on our street!', (s.r5 * 150)::int),
            (array['Tom', 'Mittens', 'Luna', 'Simba', 'Bella', 'Oliver', 'Misty', 'Tiger', 'Chloe', 'Shadow',
                   null, null])[1 + s.i % 12],
            case when s.r1 < 0.85 then
              case when s.r2 < 0.7 then 36.0 + s.r3 * 2.5 else -40 + s.r3 * 100 end end,
            case when s.r1 < 0.85 then
              case when s.r2 < 0.7 then -7.0 + s.r4 * 5.0 else -120 + s.r4 * 260 end end,
            s.r1 < 0.85 and s.r6 < 0.8,
            m.media_key, m.width, m.height, m.placeholder,
            now() - s.i * ${step} - s.r5 * interval '60 seconds'
       from (select i, random() r0, random() r1, random() r2, random() r3, random() r4, random() r5, random() r6
               from generate_series(1, ${P}) i) s
       join bench_post_media m on m.k = s.i % ${media.posts.length}`,
    // The history is loaded without the notification triggers (migrations 0012 and 0014): a year of
    // likes and comments would write some 800,000 entries through them, one statement at a time, and
    // take the seed from seconds to minutes. No load reads them; bench/notifications.ts seeds its own.
    `alter table likes disable trigger likes_notify_added`,
    `alter table comments disable trigger comments_notify_added`,
    `insert into likes (post_id, user_id, created_at)
     select md5('bench-post-' || p.i)::uuid,
            md5('bench-user-' || (1 + (p.i * 37 + j * 101) % ${U}))::uuid,
            least(now(), now() - p.i * ${step} + j * interval '7 minutes')
       from (select i, floor(random() * ${likeSpan})::int n from generate_series(1, ${P}) i) p,
            generate_series(0, p.n - 1) j`,
    `insert into comments (post_id, user_id, body, created_at)
     select md5('bench-post-' || p.i)::uuid,
            md5('bench-user-' || (1 + (p.i * 53 + j * 71) % ${U}))::uuid,
            (array['What a beauty!', 'I have seen this one near the bakery.', 'So fluffy', 'Look at those eyes',
                   'Is that the cat from number 12?', 'Adorable.', 'Needs a name!'])[1 + (p.i + j) % 7],
            least(now(), now() - p.i * ${step} + (j + 1) * interval '11 minutes')
       from (select i, floor(random() * ${commentSpan})::int n from generate_series(1, ${P}) i) p,
            generate_series(0, p.n - 1) j`,
    `alter table likes enable trigger likes_notify_added`,
    `alter table comments enable trigger comments_notify_added`,
    `insert into hidden_posts (user_id, post_id)
     select md5('bench-user-' || u)::uuid,
            md5('bench-post-' || (1 + floor(random() * case when k % 2 = 0 then ${newest} else ${P} end))::int)::uuid
       from generate_series(1, ${U}) u, generate_series(1, ${size.hidesPerUser}) k
     on conflict do nothing`,
    `insert into blocks (blocker_id, blocked_id)
     select md5('bench-user-' || u)::uuid, md5('bench-user-' || (1 + (u * 7 + k * 13) % ${U}))::uuid
       from generate_series(1, ${U}) u, generate_series(1, ${size.blocksPerUser}) k
      where 1 + (u * 7 + k * 13) % ${U} <> u
     on conflict do nothing`,
    ...catStatements(size),
    `drop table bench_post_media`,
    // The explore map's change log gets one row per shown post from the insert trigger; a real
    // deployment reaches 100,000 posts over months with the log pruned hourly.
    `delete from map_changes`,
    // Statistics for the planner, and the visibility map that lets index-only scans skip the heap: a
    // database that has served for a year has had both from autovacuum (PostgreSQL) or the server's
    // own upkeep a minute after its last answer (PGlite, plugins/embedded-upkeep.ts). A bare ANALYZE
    // left PGlite's page 200 fetching 4,030 rows the index already holds (docs/performance.md).
    `vacuum analyze`,
  ];
}

/**
 * Issue 26: cats and their sightings, after everything else (a seed of its own, so the statements above
 * draw the same random numbers as in earlier dataset versions). Each cat has a territory: one in ten
 * lies in one dense old town (3.3 x 3.6 km in Málaga: 2,000 cats at the full size, the worst case for
 * 'Which cat is this?'), six in ten over the posts' southern Spain, the rest worldwide. A share of the
 * posts are linked to a random cat and moved to within ~220 m of its territory's centre; posts without
 * coordinates stay without. A quarter of the cats live with someone, half of those with a home point;
 * one in seven has a second caretaker; half have a chosen cover; every user follows a few. The
 * sighting notifications' trigger is off while linking, as the likes' and comments' are above.
 */
function catStatements(size: DatasetSize): string[] {
  const { users: U, posts: P, cats: C } = size;
  const names = `array['Luna', 'Milo', 'Tom', 'Mittens', 'Simba', 'Bella', 'Oliver', 'Misty', 'Tiger', 'Chloe',
                       'Shadow', 'Pepper']`;
  return [
    `select setseed(0.2626)`,
    `create temporary table bench_cats as
     select n, md5('bench-cat-' || n)::uuid id,
            case when n % 10 = 0 then 36.705 + r1 * 0.03
                 when n % 10 <= 6 then 36.0 + r1 * 2.5 else -40 + r1 * 100 end lat,
            case when n % 10 = 0 then -4.44 + r2 * 0.04
                 when n % 10 <= 6 then -7.0 + r2 * 5.0 else -120 + r2 * 260 end lng
       from (select n, random() r1, random() r2 from generate_series(1, ${C}) n) s`,
    `insert into cats (id, name, living, home_latitude, home_longitude, created_by, created_at)
     select id, (${names})[1 + n % 12] || ' ' || n,
            case when n % 4 = 0 then 'household' when n % 4 = 1 then 'community' else 'unknown' end,
            case when n % 8 = 0 then lat end, case when n % 8 = 0 then lng end,
            md5('bench-user-' || (1 + n % ${U}))::uuid, now() - interval '380 days'
       from bench_cats`,
    `insert into cat_caretakers (cat_id, user_id)
     select id, md5('bench-user-' || (1 + n % ${U}))::uuid from bench_cats
     union
     select id, md5('bench-user-' || (1 + (n * 13 + 5) % ${U}))::uuid from bench_cats where n % 7 = 0`,
    `alter table posts disable trigger posts_notify_cat_changed`,
    // The explore map's change log would get a row per moved post; it is emptied below anyway.
    `alter table posts disable trigger posts_explore_update`,
    `update posts p
        set cat_id = c.id,
            latitude = case when p.latitude is not null then c.lat + (x.r1 - 0.5) * 0.004 end,
            longitude = case when p.latitude is not null then c.lng + (x.r2 - 0.5) * 0.005 end
       from (select i, 1 + floor(random() * ${C})::int k, random() < ${size.sightingShare} linked,
                    random() r1, random() r2
               from generate_series(1, ${P}) i) x
       join bench_cats c on c.n = x.k
      where x.linked and p.id = md5('bench-post-' || x.i)::uuid`,
    `alter table posts enable trigger posts_notify_cat_changed`,
    `alter table posts enable trigger posts_explore_update`,
    `update cats c set cover_post_id = (select p.id from posts p where p.cat_id = c.id
                                          order by p.created_at desc, p.id desc limit 1)
      where c.id in (select id from bench_cats where n % 2 = 0)`,
    `insert into cat_follows (cat_id, user_id)
     select md5('bench-cat-' || (1 + (u * 37 + k * 1009) % ${C}))::uuid, md5('bench-user-' || u)::uuid
       from generate_series(1, ${U}) u, generate_series(1, ${size.followsPerUser}) k
     on conflict do nothing`,
    `drop table bench_cats`,
  ];
}

export async function seedDataset(
  database: DatabaseHandle,
  size: DatasetSize,
  media: BenchMedia,
  passwordHash: string,
): Promise<DatasetCounts> {
  const started = Date.now();
  for (const statement of datasetStatements(size, media, passwordHash)) {
    await database.db.execute(sql.raw(statement));
  }
  const seedMs = Date.now() - started;
  const result = await database.db.execute(
    sql.raw(`select (select count(*) from users) users, (select count(*) from posts) posts,
      (select count(*) from posts where latitude is not null) located,
      (select count(*) from posts where show_location and latitude is not null) shown_on_map,
      (select count(*) from likes) likes, (select count(*) from comments) comments,
      (select count(*) from hidden_posts) hidden_posts, (select count(*) from blocks) blocks,
      (select count(*) from cats) cats, (select count(*) from posts where cat_id is not null) sightings`),
  );
  const row = rowsOf<Record<string, string | number>>(result)[0]!;
  return {
    users: Number(row.users),
    posts: Number(row.posts),
    located: Number(row.located),
    shownOnMap: Number(row.shown_on_map),
    likes: Number(row.likes),
    comments: Number(row.comments),
    hiddenPosts: Number(row.hidden_posts),
    blocks: Number(row.blocks),
    cats: Number(row.cats),
    sightings: Number(row.sightings),
    seedMs,
  };
}
