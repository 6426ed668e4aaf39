import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEMO_USER_ID,
  NOTIFICATION_REPLAY_LIMIT,
  notificationSchema,
  STREAM_TICKET_SECONDS,
  type Notification,
  UNREAD_COUNT_CAP,
} from '@cats/contracts';
import { rowsOf } from '../../db/raw-results.ts';
import { buildTestApp, secondInstance, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { NO_RATE_LIMITS } from '../../../test/hostile/support/world.ts';
import { dataOf, openSse, type SseEvent, type SseStream } from '../../../test/sse-client.ts';
import { NOTIFICATION_STREAM_MESSAGES } from './notification-stream.routes.ts';
import { issueMailToken } from '../mail/mail-tokens.service.ts';
import { signStreamTicket } from './stream-ticket.ts';

/**
 * Issue 25's live delivery, over real HTTP connections: the ticket, the stream's replay after
 * Last-Event-ID (nothing lost, nothing twice), live likes, removals and unread counts, the heartbeat,
 * refusals, and the streams ending when their account or the app goes.
 */
const HEARTBEAT_MS = 150;

describe('notification stream', () => {
  let t: TestApp;
  let base: string;
  const streams: SseStream[] = [];

  beforeAll(async () => {
    t = await buildTestApp(NO_RATE_LIMITS, { streamHeartbeatMs: HEARTBEAT_MS });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t?.close();
  });

  const ticketFor = async (userId: string): Promise<string> => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/stream-ticket',
      headers: await authHeader(t.app, userId),
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { ticket: string }).ticket;
  };
  const open = async (
    userId: string,
    opts: { lastEventId?: string; header?: string; headers?: Record<string, string> } = {},
  ): Promise<SseStream> => {
    const query = new URLSearchParams({ ticket: await ticketFor(userId) });
    if (opts.lastEventId !== undefined) query.set('lastEventId', opts.lastEventId);
    const stream = await openSse(`${base}/api/notifications/stream?${query}`, {
      ...(opts.header !== undefined ? { 'last-event-id': opts.header } : {}),
      ...opts.headers,
    });
    streams.push(stream);
    expect(stream.status, JSON.stringify(stream.body)).toBe(200);
    return stream;
  };
  const like = async (user: { id: string }, postId: string) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/posts/likePost/${postId}`,
      headers: await authHeader(t.app, user.id),
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const markAllRead = async (userId: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/read',
      headers: await authHeader(t.app, userId),
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const list = async (userId: string): Promise<Notification[]> => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: await authHeader(t.app, userId),
    });
    return (res.json() as { notifications: Notification[] }).notifications;
  };
  const lastSeq = async (userId: string): Promise<number> => {
    const [row] = rowsOf(
      await t.db.execute(sql`select seq from notification_counters where user_id = ${userId}`),
    );
    return row ? Number(row.seq) : 0;
  };
  /** The notification events of a stream, checked against the contract. */
  const notificationsIn = (events: SseEvent[]) =>
    events
      .filter((e) => e.event === 'notification')
      .map((e) => {
        const n = notificationSchema.parse(dataOf(e));
        expect(e.id).toBe(String(n.seq));
        return n;
      });
  const fans = async (count: number): Promise<CreatedUser[]> =>
    Promise.all(Array.from({ length: count }, () => createUser(t.db)));
  /** The unread count a stream was last sent, or null before the first. */
  const lastCount = (events: SseEvent[]): number | null => {
    const counts = events.filter((e) => e.event === 'unread');
    return counts.length > 0 ? dataOf<{ count: number }>(counts.at(-1)!).count : null;
  };
  /** Waits until the stream has covered the user's last seq (its `unread` or notification ids). */
  const caughtUp = async (stream: SseStream, userId: string) => {
    const seq = await lastSeq(userId);
    await stream.waitFor(() => Number(stream.lastEventId) >= seq, 5_000, `event id ${seq}`);
  };

  it('hands a signed-in caller a ticket, the demo account too; none without a token', async () => {
    const user = await createUser(t.db);
    for (const id of [user.id, DEMO_USER_ID]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/notifications/stream-ticket',
        headers: await authHeader(t.app, id),
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { ticket: string; expiresIn: number };
      expect(body.expiresIn).toBe(STREAM_TICKET_SECONDS);
      expect(body.ticket.startsWith(`${id}.`)).toBe(true);
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/notifications/stream-ticket' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses a missing, malformed, forged or expired ticket with 401 {message}, and an access token', async () => {
    const user = await createUser(t.db);
    const key = t.app.sessionKeys.streamTicket;
    const good = await ticketFor(user.id);
    const [id, generation, expires, nonce, signature] = good.split('.');
    const cases: [string, string | null, string][] = [
      ['missing', null, NOTIFICATION_STREAM_MESSAGES.ticketRequired],
      ['malformed', 'not-a-ticket', NOTIFICATION_STREAM_MESSAGES.ticketInvalid],
      [
        'another user named',
        `${(await createUser(t.db)).id}.${generation}.${expires}.${nonce}.${signature}`,
        NOTIFICATION_STREAM_MESSAGES.ticketInvalid,
      ],
      [
        'a later expiry',
        `${id}.${generation}.${Number(expires) + 3600}.${nonce}.${signature}`,
        NOTIFICATION_STREAM_MESSAGES.ticketInvalid,
      ],
      [
        'another nonce',
        `${id}.${generation}.${expires}.${randomBytes(16).toString('base64url')}.${signature}`,
        NOTIFICATION_STREAM_MESSAGES.ticketInvalid,
      ],
      [
        'another generation',
        `${id}.${Number(generation) + 1}.${expires}.${nonce}.${signature}`,
        NOTIFICATION_STREAM_MESSAGES.ticketInvalid,
      ],
      [
        'signed with another key',
        signStreamTicket(randomBytes(32), { userId: user.id, generation: 0 }, new Date(Date.now() + 60_000)),
        NOTIFICATION_STREAM_MESSAGES.ticketInvalid,
      ],
      [
        'another purpose’s key',
        signStreamTicket(
          t.app.sessionKeys.device,
          { userId: user.id, generation: 0 },
          new Date(Date.now() + 60_000),
        ),
        NOTIFICATION_STREAM_MESSAGES.ticketInvalid,
      ],
      [
        'expired',
        signStreamTicket(key, { userId: user.id, generation: 0 }, new Date(Date.now() - 1000)),
        NOTIFICATION_STREAM_MESSAGES.ticketInvalid,
      ],
      [
        'the access token',
        (await authHeader(t.app, user.id)).authorization.slice('Bearer '.length),
        NOTIFICATION_STREAM_MESSAGES.ticketInvalid,
      ],
    ];
    for (const [what, ticket, message] of cases) {
      const url = `${base}/api/notifications/stream${ticket === null ? '' : `?ticket=${encodeURIComponent(ticket)}`}`;
      const res = await openSse(url, await authHeader(t.app, user.id));
      expect([what, res.status, res.body]).toEqual([what, 401, { message }]);
      expect(res.headers['cache-control'], what).toBe('private, no-store');
    }
    // A ticket is good for STREAM_TICKET_SECONDS, then no more.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + (STREAM_TICKET_SECONDS + 1) * 1000);
      const late = await openSse(`${base}/api/notifications/stream?ticket=${good}`);
      expect([late.status, late.body]).toEqual([
        401,
        { message: NOTIFICATION_STREAM_MESSAGES.ticketInvalid },
      ]);
    } finally {
      vi.useRealTimers();
    }
    const bad = await openSse(`${base}/api/notifications/stream?ticket=${good}`, { 'last-event-id': 'abc' });
    expect([bad.status, bad.body]).toEqual([400, { message: NOTIFICATION_STREAM_MESSAGES.badLastEventId }]);
  });

  it('opens with the unread count, then sends each like as it commits: uncompressed, uncached, unbuffered', async () => {
    const owner = await createUser(t.db);
    const [a, b] = await fans(2);
    const post = await createPost(t.db, owner.id);
    const stream = await open(owner.id, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.headers['cache-control']).toBe('private, no-store');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(stream.headers['x-content-type-options']).toBe('nosniff');
    expect(stream.retryMs).toBeGreaterThanOrEqual(2000);

    const first = await stream.next();
    expect([first.event, first.id, dataOf(first)]).toEqual(['unread', '0', { count: 0 }]);

    await like(a!, post.id);
    const liked = await stream.next();
    expect(liked.event).toBe('notification');
    const entry = notificationSchema.parse(dataOf(liked));
    expect(entry).toMatchObject({ type: 'like', actorCount: 1, read: false, post: { _id: post.id } });
    expect(entry.actors.map((x) => x._id)).toEqual([a!.id]);
    expect(liked.id).toBe(String(await lastSeq(owner.id)));
    expect(dataOf(await stream.next())).toEqual({ count: 1 });

    // The same post liked again within its window: the same entry, changed, with a later seq. The
    // count stays 1, so no unread event follows.
    await like(b!, post.id);
    const again = notificationSchema.parse(dataOf(await stream.next()));
    expect(again).toMatchObject({ _id: entry._id, actorCount: 2 });
    expect(again.seq).toBeGreaterThan(entry.seq);
    expect(again.actors.map((x) => x._id)).toEqual([b!.id, a!.id]);

    await markAllRead(owner.id);
    const read = await stream.next();
    expect([read.event, dataOf(read)]).toEqual(['unread', { count: 0 }]);
    expect(stream.events.map((e) => e.event)).toEqual([
      'unread',
      'notification',
      'unread',
      'notification',
      'unread',
    ]);
  });

  it('announces a removed entry and the new count', async () => {
    const owner = await createUser(t.db);
    const [fan] = await fans(1);
    const post = await createPost(t.db, owner.id);
    const stream = await open(owner.id);
    await stream.next();
    await like(fan!, post.id);
    const entry = notificationSchema.parse(dataOf(await stream.next()));
    expect(dataOf(await stream.next())).toEqual({ count: 1 });
    await like(fan!, post.id); // unliked: the entry's only like is gone, and so is the entry
    const removed = await stream.next();
    expect([removed.event, dataOf(removed)]).toEqual(['removed', { _id: entry._id }]);
    expect(dataOf(await stream.next())).toEqual({ count: 0 });
  });

  it('replays after Last-Event-ID exactly what changed while away, grouped likes included', async () => {
    const owner = await createUser(t.db);
    const likers = await fans(4);
    const [p1, p2, p3] = [
      await createPost(t.db, owner.id),
      await createPost(t.db, owner.id),
      await createPost(t.db, owner.id),
    ];
    const first = await open(owner.id);
    await first.next();
    await like(likers[0]!, p1.id);
    await like(likers[0]!, p2.id);
    await caughtUp(first, owner.id);
    const seen = notificationsIn(first.events);
    expect(seen.map((n) => n.post?._id)).toEqual([p1.id, p2.id]);
    const lastSeen = first.lastEventId;
    first.close();

    // While away: p1's entry changes twice (two more likers), p3 gets its first like, p2's does not change.
    await like(likers[1]!, p1.id);
    await like(likers[1]!, p3.id);
    await like(likers[2]!, p1.id);

    // EventSource's own reconnect: the header. A query value beside it loses.
    const back = await open(owner.id, { header: lastSeen, lastEventId: '0' });
    await caughtUp(back, owner.id);
    const replayed = notificationsIn(back.events);
    expect(replayed.map((n) => [n.post?._id, n.actorCount])).toEqual([
      [p3.id, 1],
      [p1.id, 3],
    ]);
    expect(replayed.every((n) => n.seq > Number(lastSeen))).toBe(true);
    // The replay, then the count; then live.
    expect(back.events.map((e) => e.event)).toEqual(['notification', 'notification', 'unread']);
    expect(dataOf(back.events[2]!)).toEqual({ count: 3 });
    expect(back.events[2]!.id).toBe(String(await lastSeq(owner.id)));
    await like(likers[3]!, p2.id);
    await back.waitFor((events) => events.length > 3, 5_000, 'the live like');
    const live = notificationSchema.parse(dataOf(back.events[3]!));
    expect([live.post?._id, live.actorCount]).toEqual([p2.id, 2]);

    // A new EventSource cannot set the header: the query does the same.
    const fresh = await open(owner.id, { lastEventId: lastSeen });
    await caughtUp(fresh, owner.id);
    expect(notificationsIn(fresh.events).map((n) => n.post?._id)).toEqual([p3.id, p1.id, p2.id]);
    // Without either, the stream starts from now.
    const now = await open(owner.id);
    expect((await now.next()).event).toBe('unread');
    await new Promise((r) => setTimeout(r, 100));
    expect(now.events.map((e) => e.event)).toEqual(['unread']);
  });

  it('loses nothing and sends nothing twice when likes commit while streams open and replay', async () => {
    const owner = await createUser(t.db);
    const likers = await fans(6);
    const posts = await Promise.all(Array.from({ length: 5 }, () => createPost(t.db, owner.id)));
    // Likes keep committing from before the first stream opens until after the last one has.
    let stop = false;
    const writer = (async () => {
      for (let round = 0; !stop || round < 12; round += 1) {
        const liker = likers[round % likers.length]!;
        await like(liker, posts[round % posts.length]!.id);
      }
    })();
    const opened: { stream: SseStream; after: number }[] = [];
    // As many as one user may hold open on an instance.
    for (let i = 0; i < t.config.NOTIFICATION_STREAMS_PER_USER; i += 1) {
      const after = i % 2 === 0 ? 0 : await lastSeq(owner.id);
      opened.push({ stream: await open(owner.id, { lastEventId: String(after) }), after });
      await new Promise((r) => setTimeout(r, 15));
    }
    stop = true;
    await writer;
    const entries = new Map(
      rowsOf(await t.db.execute(sql`select id, seq from notifications where recipient_id = ${owner.id}`)).map(
        (r) => [r.id as string, Number(r.seq)],
      ),
    );
    for (const { stream, after } of opened) {
      await caughtUp(stream, owner.id);
      const got = notificationsIn(stream.events);
      // Nothing twice: each change (seq) once, in increasing order.
      const seqs = got.map((n) => n.seq);
      expect(seqs).toEqual([...new Set(seqs)].sort((x, y) => x - y));
      // Nothing lost: every entry's latest change after `after` arrived.
      const latest = new Map(got.map((n) => [n._id, n.seq]));
      for (const [id, seq] of entries) if (seq > after) expect(latest.get(id), id).toBe(seq);
      // And the count, correct in the end. An unlike that removed an entry moves no event id: its
      // count may still be on its way once the ids have caught up.
      await stream.waitFor((events) => lastCount(events) === entries.size, 5_000, `count ${entries.size}`);
    }
  });

  it(`replays the newest ${NOTIFICATION_REPLAY_LIMIT} changes when more happened`, async () => {
    const owner = await createUser(t.db);
    const [fan] = await fans(1);
    const total = NOTIFICATION_REPLAY_LIMIT + 5;
    for (let i = 0; i < total; i += 1) await createPost(t.db, owner.id);
    // One statement: the like trigger writes an entry per post, each with its own seq.
    await t.db.execute(
      sql`insert into likes (post_id, user_id) select id, ${fan!.id} from posts where user_id = ${owner.id}`,
    );
    const stream = await open(owner.id, { lastEventId: '0' });
    await caughtUp(stream, owner.id);
    const got = notificationsIn(stream.events);
    const expected = rowsOf(
      await t.db.execute(
        sql`select seq from notifications where recipient_id = ${owner.id} order by seq desc limit ${NOTIFICATION_REPLAY_LIMIT}`,
      ),
    )
      .map((r) => Number(r.seq))
      .reverse();
    expect(got.map((n) => n.seq)).toEqual(expected);
    // The unread count stops at its cap (the bell's '99+').
    expect(dataOf(stream.events.at(-1)!)).toEqual({ count: Math.min(total, UNREAD_COUNT_CAP) });
  });

  it('sends nothing of an entry the user may not see, and still moves its event id on', async () => {
    const owner = await createUser(t.db);
    const [fan, other] = await fans(2);
    const post = await createPost(t.db, owner.id);
    const trashed = await createPost(t.db, owner.id);
    const stream = await open(owner.id);
    await stream.next();
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/posts/${trashed.id}`,
      headers: await authHeader(t.app, owner.id),
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    // A like that raced the move to the trash: its entry exists, but its post is no one's to see.
    await t.db.execute(sql`insert into likes (post_id, user_id) values (${trashed.id}, ${fan!.id})`);
    const hiddenSeq = await lastSeq(owner.id);
    await like(other!, post.id);
    const next = await stream.next();
    expect(notificationSchema.parse(dataOf(next)).post?._id).toBe(post.id);
    expect(Number(next.id)).toBeGreaterThan(hiddenSeq);
    expect(dataOf(await stream.next())).toEqual({ count: 1 });
    expect(stream.events.some((e) => e.data.includes(trashed.id))).toBe(false);
    // The list agrees.
    expect((await list(owner.id)).map((n) => n.post?._id)).toEqual([post.id]);
  });

  // PGlite has one connection: no other can hold a lock while a stream reads, nor commit meanwhile.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'keeps the count in step with the entries when a like commits while a stream reads',
    async () => {
      const owner = await createUser(t.db);
      const [early, late] = await fans(2);
      const [first, second] = [await createPost(t.db, owner.id), await createPost(t.db, owner.id)];
      const stream = await open(owner.id);
      await stream.next();
      // appeals is read by the entries' statement and by neither the count nor a like: locked, it holds
      // the stream's read of the first like's entry until the second like has committed.
      const locker = new pg.Client({ connectionString: t.databaseUrl! });
      await locker.connect();
      try {
        await locker.query('begin; lock table appeals in access exclusive mode');
        await like(early!, first.id);
        await vi.waitFor(
          async () => {
            const { rows } = await locker.query(
              "select 1 from pg_locks where relation = 'appeals'::regclass and not granted",
            );
            expect(rows.length).toBe(1);
          },
          { timeout: 5_000, interval: 20 },
        );
        await like(late!, second.id);
        await locker.query('commit');
      } finally {
        await locker.end();
      }
      // Both entries, and a last count of 2: read apart, the count said 1 beside both entries, and the
      // second like's announcement was then skipped as already sent.
      await stream.waitFor((events) => notificationsIn(events).length === 2, 5_000, 'both entries');
      expect(notificationsIn(stream.events).map((n) => n.post?._id)).toEqual([first.id, second.id]);
      await stream.waitFor((events) => lastCount(events) === 2, 5_000, 'an unread count of 2');
    },
  );

  it("reaches every open stream of the user (tabs, devices), and no one else's", async () => {
    const owner = await createUser(t.db);
    const bystander = await createUser(t.db);
    const [fan] = await fans(1);
    const post = await createPost(t.db, owner.id);
    const tabs = [await open(owner.id), await open(owner.id), await open(owner.id)];
    const theirs = await open(bystander.id);
    for (const s of [...tabs, theirs]) await s.next();
    await like(fan!, post.id);
    for (const tab of tabs) {
      expect(notificationSchema.parse(dataOf(await tab.next())).post?._id).toBe(post.id);
      expect(dataOf(await tab.next())).toEqual({ count: 1 });
    }
    expect(theirs.events.map((e) => e.event)).toEqual(['unread']);
  });

  it('sends an entry whose announcement never came, or came late, with the next one', async () => {
    const owner = await createUser(t.db);
    const [quiet, loud] = await fans(2);
    const [first, second] = [await createPost(t.db, owner.id), await createPost(t.db, owner.id)];
    const stream = await open(owner.id);
    await stream.next();
    // A like committed without its announcement reaching anyone (announcements are made after commit,
    // by the process that committed: db/announce-after-commit.ts). On a connection of the app's own
    // the NOTICE would be announced, so it goes through one that ignores it.
    if (t.databaseUrl) {
      const plain = new pg.Client({ connectionString: t.databaseUrl });
      await plain.connect();
      await plain.query("begin; set local cats.notify_after_commit = 'on'");
      await plain.query('insert into likes (post_id, user_id) values ($1, $2)', [first.id, quiet!.id]);
      await plain.query('commit');
      await plain.end();
    } else {
      await t.db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('cats.notify_after_commit', 'on', true)`);
        await tx.execute(sql`insert into likes (post_id, user_id) values (${first.id}, ${quiet!.id})`);
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stream.events).toHaveLength(1);
    await like(loud!, second.id);
    const sent = notificationsIn([await stream.next(), await stream.next()]);
    expect(sent.map((n) => [n.post?._id, n.actors.map((a) => a._id)])).toEqual([
      [first.id, [quiet!.id]],
      [second.id, [loud!.id]],
    ]);
    expect(dataOf(await stream.next())).toEqual({ count: 2 });
  });

  it('sends a heartbeat comment on an idle stream', async () => {
    const owner = await createUser(t.db);
    const stream = await open(owner.id);
    await stream.next();
    const before = stream.comments;
    await new Promise((r) => setTimeout(r, HEARTBEAT_MS * 4));
    expect(stream.comments - before).toBeGreaterThanOrEqual(2);
    expect(stream.events.map((e) => e.event)).toEqual(['unread']);
  });

  it("refuses a deleted account's ticket, and ends its open streams", async () => {
    const user = await createUser(t.db);
    const stream = await open(user.id);
    await stream.next();
    const ticket = await ticketFor(user.id);
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/profile/deleteUser/${user.id}`,
      headers: await authHeader(t.app, user.id),
    });
    expect(gone.statusCode, gone.body).toBe(204);
    await stream.ended;
    const refused = await openSse(`${base}/api/notifications/stream?ticket=${ticket}`);
    expect([refused.status, refused.body]).toEqual([
      401,
      { message: NOTIFICATION_STREAM_MESSAGES.ticketInvalid },
    ]);
    expect(t.app.notificationStreams.liveCount(user.id)).toBe(0);
  });

  it('refuses a ticket taken before a password change or reset with 401 {message}; a new one opens', async () => {
    const refusedAfter = async (change: (user: CreatedUser) => Promise<void>) => {
      const user = await createUser(t.db);
      const ticket = await ticketFor(user.id);
      const another = await ticketFor(user.id);
      // The account was just looked up (kept LIVE_USER_TTL_MS), as a thief's ticket would find it.
      expect(await t.app.liveUsers.generation(user.id)).toBe(0);
      await change(user);
      const refused = await openSse(`${base}/api/notifications/stream?ticket=${ticket}`);
      expect([refused.status, refused.body]).toEqual([
        401,
        { message: NOTIFICATION_STREAM_MESSAGES.ticketRevoked },
      ]);
      expect(refused.headers['cache-control']).toBe('private, no-store');
      expect(t.app.notificationStreams.liveCount(user.id)).toBe(0);
      const es = await openSse(`${base}/api/notifications/stream?ticket=${another}`, {
        'accept-language': 'es',
      });
      expect([es.status, es.body]).toEqual([
        401,
        { message: 'Este ticket de flujo se pidió antes de que se cambiara la contraseña: pide uno nuevo' },
      ]);
      // A ticket taken with the new session opens the stream.
      const stream = await open(user.id);
      expect((await stream.next()).event).toBe('unread');
    };
    await refusedAfter(async (user) => {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/profile/settings/password',
        headers: await authHeader(t.app, user.id),
        payload: { currentPassword: user.password, newPassword: 'Purring456' },
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    await refusedAfter(async (user) => {
      const issued = await issueMailToken(t.db, {
        userId: user.id,
        address: user.email,
        purpose: 'password_reset',
        newEmail: null,
        ttlMinutes: 30,
      });
      if (!('token' in issued)) throw new Error('throttled');
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/password/reset',
        payload: { token: issued.token, password: 'Purring456' },
      });
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  it('opens one stream per ticket: a second use is refused with 401 {message}, on another instance too', async () => {
    const user = await createUser(t.db);
    const ticket = await ticketFor(user.id);
    const first = await openSse(`${base}/api/notifications/stream?ticket=${ticket}`);
    streams.push(first);
    expect(first.status).toBe(200);
    const again = await openSse(`${base}/api/notifications/stream?ticket=${ticket}`);
    expect([again.status, again.body]).toEqual([401, { message: NOTIFICATION_STREAM_MESSAGES.ticketUsed }]);
    // Even once the first stream is gone (what EventSource's own reconnect would send).
    first.close();
    await vi.waitFor(() => expect(t.app.notificationStreams.liveCount(user.id)).toBe(0));
    const replayed = await openSse(`${base}/api/notifications/stream?ticket=${ticket}`, {
      'last-event-id': '1',
    });
    expect([replayed.status, replayed.body]).toEqual([
      401,
      { message: NOTIFICATION_STREAM_MESSAGES.ticketUsed },
    ]);
    // The record of uses is in the database: another instance refuses it as well.
    const other = await secondInstance(t);
    try {
      await other.app.listen({ port: 0, host: '127.0.0.1' });
      const otherBase = `http://127.0.0.1:${(other.app.server.address() as AddressInfo).port}`;
      const there = await openSse(`${otherBase}/api/notifications/stream?ticket=${ticket}`);
      expect([there.status, there.body]).toEqual([401, { message: NOTIFICATION_STREAM_MESSAGES.ticketUsed }]);
      // Of many tickets used at once on both instances, each opens exactly one stream.
      const tickets = await Promise.all(Array.from({ length: 4 }, () => ticketFor(user.id)));
      const opened = await Promise.all(
        tickets.flatMap((tk) => [
          openSse(`${base}/api/notifications/stream?ticket=${tk}`),
          openSse(`${otherBase}/api/notifications/stream?ticket=${tk}`),
        ]),
      );
      streams.push(...opened);
      expect(opened.map((o) => o.status).sort()).toEqual([200, 200, 200, 200, 401, 401, 401, 401]);
      for (const o of opened) o.close();
    } finally {
      await other.close();
    }
  });

  it('keeps at most NOTIFICATION_STREAMS_PER_USER (5) streams of one user open on an instance, ending the oldest first', async () => {
    expect(t.config.NOTIFICATION_STREAMS_PER_USER).toBe(5);
    const user = await createUser(t.db);
    const bystander = await createUser(t.db);
    const theirs = await open(bystander.id);
    await theirs.next();
    const mine: SseStream[] = [];
    for (let i = 0; i < t.config.NOTIFICATION_STREAMS_PER_USER; i += 1) {
      mine.push(await open(user.id));
      await mine.at(-1)!.next();
    }
    expect(t.app.notificationStreams.liveCount(user.id)).toBe(t.config.NOTIFICATION_STREAMS_PER_USER);
    for (let i = 0; i < 3; i += 1) {
      const newest = await open(user.id);
      await newest.next();
      mine.push(newest);
      // The oldest still open is ended; the others stay.
      await mine[i]!.ended;
      for (const later of mine.slice(i + 1)) expect(later.isEnded()).toBe(false);
      expect(t.app.notificationStreams.liveCount(user.id)).toBe(t.config.NOTIFICATION_STREAMS_PER_USER);
    }
    // Another user's streams are not theirs to crowd out.
    expect(theirs.isEnded()).toBe(false);
  });

  it('tells the stream the cap ends that it was superseded, as its last event, and tells the others nothing', async () => {
    const user = await createUser(t.db);
    const mine: SseStream[] = [];
    for (let i = 0; i < t.config.NOTIFICATION_STREAMS_PER_USER; i += 1) {
      mine.push(await open(user.id));
      await mine.at(-1)!.next();
    }
    const newest = await open(user.id);
    await newest.next();
    await mine[0]!.ended;
    // Its replay's count, then the reason it ends, with nothing after it (the web client waits
    // for its tab to be looked at again instead of reconnecting at once).
    expect(mine[0]!.events.map((e) => e.event)).toEqual(['unread', 'superseded']);
    expect(dataOf(mine[0]!.events[1]!)).toEqual({});
    for (const other of [...mine.slice(1), newest]) {
      expect(other.isEnded()).toBe(false);
      expect(other.events.map((e) => e.event)).toEqual(['unread']);
    }
    // Streams ended for other reasons (the account or the app going) are not told so.
    t.app.notificationStreams.closeUser(user.id);
    await Promise.all([...mine.slice(1), newest].map((s) => s.ended));
    for (const other of [...mine.slice(1), newest])
      expect(other.events.map((e) => e.event)).toEqual(['unread']);
  });

  it('of one stream more than the cap opened at once, the one ended is told it was superseded, replayed or not', async () => {
    const user = await createUser(t.db);
    const cap = t.config.NOTIFICATION_STREAMS_PER_USER;
    const tickets = await Promise.all(Array.from({ length: cap + 1 }, () => ticketFor(user.id)));
    // At once: the one ended may still be waiting for its replay, and is then answered with the
    // superseded event alone.
    const opened = await Promise.all(
      tickets.map((tk) => openSse(`${base}/api/notifications/stream?ticket=${tk}`)),
    );
    streams.push(...opened);
    expect(opened.map((o) => o.status)).toEqual(tickets.map(() => 200));
    await vi.waitFor(() => expect(opened.filter((o) => o.isEnded())).toHaveLength(1));
    const ended = opened.find((o) => o.isEnded())!;
    await ended.ended;
    expect(ended.events.at(-1)?.event).toBe('superseded');
    expect(ended.events.filter((e) => e.event === 'superseded')).toHaveLength(1);
    await vi.waitFor(() => expect(t.app.notificationStreams.liveCount(user.id)).toBe(cap));
    for (const o of opened)
      if (o !== ended) expect(o.events.some((e) => e.event === 'superseded')).toBe(false);
  });

  it('answers a stream the cap ends while its replay is being read with the superseded event alone', async () => {
    const user = await createUser(t.db);
    const cap = t.config.NOTIFICATION_STREAMS_PER_USER;
    const tickets = await Promise.all(Array.from({ length: cap + 1 }, () => ticketFor(user.id)));
    // The first stream's replay (the next transaction) waits until the others have opened.
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const transaction = t.db.transaction.bind(t.db);
    const spy = vi.spyOn(t.db, 'transaction').mockImplementationOnce((async (
      ...args: Parameters<typeof transaction>
    ) => {
      await gate;
      return transaction(...args);
    }) as typeof t.db.transaction);
    try {
      const first = openSse(`${base}/api/notifications/stream?ticket=${tickets[0]}`);
      await vi.waitFor(() => expect(spy).toHaveBeenCalled());
      const others = tickets.slice(1).map((tk) => openSse(`${base}/api/notifications/stream?ticket=${tk}`));
      await vi.waitFor(() => expect(t.app.notificationStreams.size).toBeGreaterThanOrEqual(cap));
      await new Promise((r) => setTimeout(r, 100));
      release();
      const ended = await first;
      streams.push(ended, ...(await Promise.all(others)));
      expect(ended.status).toBe(200);
      await ended.ended;
      // Not replayed: no count, just the reason.
      expect(ended.events.map((e) => e.event)).toEqual(['superseded']);
      await vi.waitFor(() => expect(t.app.notificationStreams.liveCount(user.id)).toBe(cap));
    } finally {
      release();
      spy.mockRestore();
    }
  });

  it('forgets a stream whose client went away', async () => {
    const owner = await createUser(t.db);
    const before = t.app.notificationStreams.size;
    const stream = await open(owner.id);
    await stream.next();
    expect(t.app.notificationStreams.size).toBe(before + 1);
    stream.close();
    await vi.waitFor(() => expect(t.app.notificationStreams.size).toBe(before));
  });

  it('catches up after its database listener was cut and listens again (PostgreSQL)', async (ctx) => {
    if (t.database.kind !== 'postgres') return ctx.skip();
    const owner = await createUser(t.db);
    const [a, b] = await fans(2);
    const [p1, p2] = [await createPost(t.db, owner.id), await createPost(t.db, owner.id)];
    const stream = await open(owner.id);
    await stream.next();
    const cut = rowsOf(
      await t.db.execute(
        sql`select pg_terminate_backend(pid) as cut from pg_stat_activity
            where datname = current_database() and query = 'LISTEN notifications'`,
      ),
    );
    expect(cut).toEqual([{ cut: true }]);
    // Committed while nobody listens: its NOTIFY is heard by no one.
    await like(a!, p1.id);
    await like(b!, p2.id);
    // The listener connects again within LISTEN_RETRY_MS and the stream replays what it missed.
    await stream.waitFor((events) => notificationsIn(events).length === 2, 10_000, 'the missed likes');
    expect(notificationsIn(stream.events).map((n) => n.post?._id)).toEqual([p1.id, p2.id]);
    await stream.waitFor((events) => events.at(-1)?.event === 'unread', 5_000, 'the count');
    expect(dataOf(stream.events.at(-1)!)).toEqual({ count: 2 });
  });
});

describe('notification streams when the app closes', () => {
  it('ends every stream at once, so that shutdown waits for none', async () => {
    const t = await buildTestApp();
    let closed = false;
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const users = await Promise.all([createUser(t.db), createUser(t.db)]);
      const streams: SseStream[] = [];
      for (const user of [...users, users[0]!]) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/notifications/stream-ticket',
          headers: await authHeader(t.app, user.id),
        });
        const stream = await openSse(
          `${base}/api/notifications/stream?ticket=${(res.json() as { ticket: string }).ticket}`,
        );
        await stream.next();
        streams.push(stream);
      }
      expect(t.app.notificationStreams.size).toBe(3);
      const started = Date.now();
      await t.app.close();
      closed = true;
      await Promise.all(streams.map((s) => s.ended));
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(t.app.notificationStreams.size).toBe(0);
    } finally {
      if (!closed) await t.app.close();
      await t.close();
    }
  });
});
