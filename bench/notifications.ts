/**
 * 'A user with 10,000 notifications pages through them at the feed's speed (keyset, index)' (issue 25,
 * docs/performance.md "Notifications"). Seeds one user with 10,000 entries of every type, written by the
 * app's own database functions and triggers from likes, comments, group shares and join requests
 * (set-based statements, seconds), then measures on the built server, at the feed's 50 connections:
 * the first page, deep pages by cursor and the unread count, each against the feed's p99 budget, and
 * the feed's own first page beside them for reference (this machine is shared: compare within a run).
 * Prints one JSON line; --explain prints the plans of the list and count queries instead.
 *
 *   npm run build && npx tsx bench/notifications.ts [--unread 10000] [--explain]
 *   DATABASE_URL=postgres://... npx tsx bench/notifications.ts
 */
import { mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { UNREAD_COUNT_CAP, type NotificationsResponse, type NotificationType } from '@cats/contracts';
import { openDatabase, type Database } from '../apps/server/src/db/client.ts';
import { captureSql, type CapturedSql } from '../apps/server/test/capture-sql.ts';
import { hashPassword } from '../apps/server/src/lib/passwords.ts';
import {
  countUnread,
  listNotifications,
} from '../apps/server/src/modules/notifications/notifications.repository.ts';
import { createPgDatabase, PROFILES } from './run.ts';
import { BENCH_PASSWORD } from './support/dataset.ts';
import { rowsOf } from './support/db.ts';
import { cpuMeter } from './support/cpu.ts';
import { pick, type LoadFigures } from './support/load.ts';
import { WORK_DIR } from './support/paths.ts';
import { FEED_P99_BUDGET_MS } from './support/report.ts';
import { getLoader, loadSummary, p99Verdicts } from './support/scenarios.ts';
import { benchLogin, startLoadServer } from './support/server.ts';

const { values } = parseArgs({
  options: {
    /** How many of the 10,000 entries are unread (the newest ones); all of them by default. */
    unread: { type: 'string', default: '10000' },
    explain: { type: 'boolean', default: false },
  },
});
const UNREAD = Number(values.unread);
const EMAIL = 'nb0@bench.test';
const TARGET = `md5('nb-user-0')::uuid`;
const USERS = 300;

/** The entries the user gets, by type: 10,000 in all. */
export const NOTIFICATION_MIX: Record<NotificationType, number> = {
  like: 2800,
  comment: 2000,
  reply: 1500,
  group_share: 1000,
  join_request: 500,
  request_accepted: 600,
  request_declined: 400,
  removed_from_group: 100,
  cat_sighting: 500,
  cat_missing_nearby: 100,
  cat_found: 100,
  missing_report: 100,
  cat_suggestion: 200,
  cat_suggestion_accepted: 100,
  // Moderation entries (issue 27) are few and read the same way, through one more primary-key join.
  moderation_decision: 0,
  appeal_decided: 0,
  report_outcome: 0,
};

/**
 * The statements. User 0 is the one with 10,000 notifications; users 1-300 like, comment, share and
 * ask. Entries come from the migrations' own writers: likes, comments, sightings of a cat user 0
 * follows and cat suggestions through their triggers, shares through add_notifications(), group events through
 * add_notification().
 */
export function seedStatements(passwordHash: string): string[] {
  const m = NOTIFICATION_MIX;
  const user = (expr: string) => `md5('nb-user-' || (${expr}))::uuid`;
  const post = (kind: 't' | 'o' | 's', expr: string) => `md5('nb-post-${kind}-' || (${expr}))::uuid`;
  const group = (expr: string) => `md5('nb-group-' || (${expr}))::uuid`;
  const postColumns = `(id, user_id, caption, cat_name, media_key, width, height, placeholder, created_at)`;
  return [
    `insert into users (id, username, email, password_hash, created_at)
     select ${user('n')}, 'nb_' || n, 'nb' || n || '@bench.test', '${passwordHash}', now() - interval '400 days'
       from generate_series(0, ${USERS}) n`,
    // Groups 1-10 belong to users 1-10, every user a member; groups 11 and 12 to user 0.
    `insert into groups (id, name, code, owner_id)
     select ${group('g')}, 'Street ' || g, 'Street' || g || '-BNCH-' || lpad(g::text, 4, '0'),
            case when g <= 10 then ${user('g')} else ${TARGET} end
       from generate_series(1, 12) g`,
    `insert into group_members (group_id, user_id, role)
     select ${group('g')}, ${user('u')}, case when u = g or (g > 10 and u = 0) then 'owner' else 'member' end::group_role
       from generate_series(1, 12) g, generate_series(0, ${USERS}) u
      where g <= 10 or u = 0`,
    // User 0's posts, one an hour going back, and other users' posts.
    `insert into posts ${postColumns}
     select ${post('t', 'i')}, ${TARGET}, 'On the wall again', 'Luna', 'posts/nb-t-' || i, 800, 800, 'AAAA',
            now() - i * interval '1 hour'
       from generate_series(1, ${m.like}) i`,
    `insert into posts ${postColumns}
     select ${post('o', 'i')}, ${user(`1 + i % ${USERS}`)}, 'Spotted near the bakery', 'Tom', 'posts/nb-o-' || i,
            800, 800, 'AAAA', now() - i * interval '2 hours' - interval '1 hour'
       from generate_series(1, ${m.reply + m.group_share}) i`,
    // Likes: 1-4 on each of user 0's posts, now (one grouped entry per post).
    `insert into likes (post_id, user_id)
     select ${post('t', 'i')}, ${user(`1 + (i * 7 + j * 13) % ${USERS}`)}
       from generate_series(1, ${m.like}) i, generate_series(0, i % 4) j`,
    // A comment on each of user 0's first 2,500 posts: a 'comment' entry each.
    `insert into comments (post_id, user_id, body, created_at)
     select ${post('t', 'i')}, ${user(`1 + (i * 11) % ${USERS}`)}, 'What a beauty!', now() - i * interval '3 hours'
       from generate_series(1, ${m.comment}) i`,
    // User 0 comments on others' posts and someone answers a minute later: a 'reply' entry each.
    `insert into comments (post_id, user_id, body, created_at)
     select ${post('o', 'i')}, x.user_id, x.body, now() - i * interval '2 hours' + x.k * interval '1 minute'
       from generate_series(1, ${m.reply}) i,
            lateral (values (0, ${TARGET}, 'Seen it too'),
                            (1, ${user(`1 + (i * 17) % ${USERS}`)}, 'Same cat, I think!')) x(k, user_id, body)`,
    // Others' posts shared with the groups user 0 is in.
    `insert into post_groups (post_id, group_id, user_id, shared_at)
     select ${post('o', 'i')}, ${group(`1 + i % 10`)}, ${user(`1 + i % ${USERS}`)}, now() - i * interval '5 hours'
       from generate_series(${m.reply + 1}, ${m.reply + m.group_share}) i`,
    `select count(add_notifications(array[${TARGET}], array['group_share'], array[pg.group_id], pg.user_id,
            pg.post_id, null, pg.shared_at))
       from post_groups pg`,
    // A cat of user 1's that user 0 follows, and others' sightings of it: a 'cat_sighting' entry each.
    `insert into cats (id, name, created_by) values (md5('nb-cat-1')::uuid, 'Luna', ${user('1')})`,
    `insert into cat_caretakers (cat_id, user_id) values (md5('nb-cat-1')::uuid, ${user('1')})`,
    `insert into cat_follows (cat_id, user_id) values (md5('nb-cat-1')::uuid, ${TARGET})`,
    `insert into posts (id, user_id, caption, cat_name, media_key, width, height, placeholder, created_at, cat_id)
     select ${post('s', 'i')}, ${user(`1 + i % ${USERS}`)}, 'Luna again', 'Luna', 'posts/nb-s-' || i, 800, 800, 'AAAA',
            now() - i * interval '4 hours', md5('nb-cat-1')::uuid
       from generate_series(1, ${m.cat_sighting}) i`,
    // Missing cats (issue 26): user 0 is told of cats missing near them, found, and reported (as the
    // migration's triggers tell them, through add_notifications() with the cat).
    ...(['cat_missing_nearby', 'cat_found', 'missing_report'] as const).map(
      (type) =>
        `select count(add_notifications(array[${TARGET}], array['${type}'], array[null::uuid], ${user('1 + i % 10')},
            null, null, now() - i * interval '6 hours', md5('nb-cat-1')::uuid))
           from generate_series(1, ${m[type]}) i`,
    ),
    // 'This is Luna' on user 0's pictures (a 'cat_suggestion' entry each), and user 0's own suggestions
    // on others' pictures, accepted an hour later (a 'cat_suggestion_accepted' entry each): the triggers.
    `insert into cat_suggestions (post_id, cat_id, suggested_by, created_at)
     select ${post('t', 'i')}, md5('nb-cat-1')::uuid, ${user(`1 + i % ${USERS}`)}, now() - i * interval '90 minutes'
       from generate_series(1, ${m.cat_suggestion}) i`,
    `insert into cat_suggestions (post_id, cat_id, suggested_by, created_at)
     select ${post('o', 'i')}, md5('nb-cat-1')::uuid, ${TARGET}, now() - i * interval '6 hours'
       from generate_series(1, ${m.cat_suggestion_accepted}) i`,
    `update cat_suggestions set status = 'accepted', answered_at = created_at + interval '1 hour'
      where suggested_by = ${TARGET}`,
    // Join requests to user 0's two groups, and answers from the other groups' owners.
    `insert into join_requests (group_id, user_id)
     select ${group(`11 + i % 2`)}, ${user(`1 + i / 2`)} from generate_series(0, ${m.join_request - 1}) i`,
    `select count(add_notification(${TARGET}, 'join_request', jr.user_id, null, null, jr.group_id))
       from join_requests jr`,
    ...(['request_accepted', 'request_declined', 'removed_from_group'] as const).map(
      (type) =>
        `select count(add_notification(${TARGET}, '${type}', ${user('1 + i % 10')}, null, null, ${group('1 + i % 10')}))
           from generate_series(1, ${m[type]}) i`,
    ),
    // A history mixes its types: the entries take their event numbers in a shuffled order (through
    // numbers out of the way, the (recipient, seq) index being unique), and the newest UNREAD stay unread.
    `update notifications set seq = seq + 1000000000 where recipient_id = ${TARGET}`,
    `update notifications n set seq = s.r
       from (select id, row_number() over (order by md5(id::text)) r from notifications where recipient_id = ${TARGET}) s
      where n.id = s.id`,
    `update notification_counters set seq = (select max(seq) from notifications where recipient_id = ${TARGET})
      where user_id = ${TARGET}`,
    `update notifications set read_at = now()
      where recipient_id = ${TARGET} and seq <= (select count(*) from notifications where recipient_id = ${TARGET}) - ${UNREAD}`,
    `vacuum analyze`,
  ];
}

/** EXPLAIN ANALYZE of a statement as the repository sends it (captureSql), its values bound. */
async function explain(db: Database, label: string, { inlined: text }: CapturedSql): Promise<void> {
  const plan = rowsOf<Record<string, string>>(
    await db.execute(sql.raw(`explain (analyze, buffers, costs off) ${text}`)),
  );
  console.log(`\n-- ${label}\n${plan.map((r) => Object.values(r)[0]).join('\n')}`);
}

async function main() {
  const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  const runDir = join(WORK_DIR, `notifications-${kind}-${Date.now()}`);
  mkdirSync(runDir, { recursive: true });
  const pg = process.env.DATABASE_URL ? await createPgDatabase(process.env.DATABASE_URL) : null;
  try {
    const database = await openDatabase({ databaseUrl: pg?.url, dataDir: runDir, poolSize: 2 });
    const seeded = Date.now();
    let counts: Record<string, number>;
    try {
      await database.migrate();
      for (const statement of seedStatements(await hashPassword(BENCH_PASSWORD))) {
        await database.db.execute(sql.raw(statement));
      }
      const [target] = rowsOf<{ id: string }>(
        await database.db.execute(sql.raw(`select ${TARGET}::text as id`)),
      );
      counts = Object.fromEntries(
        rowsOf<{ type: string; n: number }>(
          await database.db.execute(
            sql`select type, count(*)::int as n from notifications where recipient_id = ${target!.id} group by type`,
          ),
        ).map((r) => [r.type, Number(r.n)]),
      );
      for (const [type, expected] of Object.entries(NOTIFICATION_MIX)) {
        if ((counts[type] ?? 0) !== expected)
          throw new Error(`seeded ${counts[type]} ${type} entries, not ${expected}`);
      }
      if (values.explain) {
        const { db } = database;
        const deep = 10_000 - 450 * 20;
        await explain(
          db,
          'first page',
          await captureSql((ex) => listNotifications(ex, target!.id, 21, null)),
        );
        await explain(
          db,
          `deep page (before seq ${deep})`,
          await captureSql((ex) => listNotifications(ex, target!.id, 21, deep)),
        );
        await explain(db, 'unread count', await captureSql((ex) => countUnread(ex, target!.id)));
      }
    } finally {
      await database.close();
    }
    const seedMs = Date.now() - seeded;
    if (values.explain) return;

    const server = await startLoadServer(runDir, pg?.url);
    try {
      const auth = await benchLogin(server.url, EMAIL, BENCH_PASSWORD);

      // Every page once, as the user scrolls: 10,000 entries, each once, newest change first.
      const cursors: string[] = [];
      const seen = new Set<string>();
      let last = Number.POSITIVE_INFINITY;
      let unreadCount = -1;
      for (let cursor: string | null = ''; cursor !== null;) {
        const res = await fetch(`${server.url}/api/notifications${cursor ? `?cursor=${cursor}` : ''}`, {
          headers: auth,
        });
        if (!res.ok) throw new Error(`page after ${cursor}: ${res.status} ${await res.text()}`);
        const body = (await res.json()) as NotificationsResponse;
        unreadCount = body.unreadCount;
        for (const n of body.notifications) {
          if (seen.has(n._id) || n.seq >= last) throw new Error(`entry ${n._id} out of order or twice`);
          seen.add(n._id);
          last = n.seq;
        }
        cursor = body.info.nextCursor;
        if (cursor) cursors.push(cursor);
      }
      if (seen.size !== 10_000) throw new Error(`paged through ${seen.size} entries, not 10,000`);
      if (unreadCount !== Math.min(UNREAD, UNREAD_COUNT_CAP))
        throw new Error(`unread count ${unreadCount} for ${UNREAD} unread entries`);

      // The feed's load: 50 connections, 3 s of warm-up, 10 s measured (bench/run.ts, profile full).
      const plan = PROFILES.full!.load;
      const cpu = cpuMeter(server.pid, !!pg);
      const load = getLoader(server.url, plan, auth, cpu);
      // Deep pages: a random one of the last half (pages 251-500), by its cursor.
      const deepCursors = cursors.slice(Math.floor(cursors.length / 2));
      const loads = {
        firstPage: await load(() => '/api/notifications'),
        deepPages: await load(() => `/api/notifications?cursor=${pick(deepCursors)}`),
        unreadCount: await load(() => '/api/notifications/unread-count'),
      };
      // The feed's first page on the same server in the same minute: what this shared machine gives
      // the feed right now (information; its budget is bench/run.ts's).
      const feedReference = await load(() => '/api/feed/1');
      const budget = FEED_P99_BUDGET_MS[kind];
      const figuresOf = (f: LoadFigures) => ({
        ...loadSummary(f),
        kbPerResponse: Math.round(f.bytesPerRequest / 102.4) / 10,
      });
      const summary = p99Verdicts(loads, budget, figuresOf);
      const result = {
        database: kind,
        notifications: seen.size,
        unread: UNREAD,
        pages: cursors.length + 1,
        seedMs,
        budget: `p99 < ${budget} ms at ${plan.connections} connections (the feed's)`,
        ...summary,
        feedReference: figuresOf(feedReference),
        loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
      };
      console.log(JSON.stringify(result));
      if (Object.values(summary).some((s) => s.verdict === 'FAIL')) process.exitCode = 1;
    } finally {
      await server.stop();
    }
  } finally {
    await pg?.drop();
    rmSync(runDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
