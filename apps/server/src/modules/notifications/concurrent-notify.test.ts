import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/raw-results.ts';
import { notificationCounters, notifications } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { NO_RATE_LIMITS } from '../../../test/hostile/support/world.ts';
import { notificationsClient } from '../../../test/notifications.ts';
import { NOTIFICATION_CHANNEL } from './notifications.repository.ts';

/**
 * Issue 25, 'Reliability': grouped entries stay correct when their causes arrive at once. On PostgreSQL
 * the requests really run side by side (a pool of 10 connections); PGlite runs them one at a time.
 */
describe('notifications under concurrent writes', () => {
  let t: TestApp;
  let api: ReturnType<typeof notificationsClient>;
  beforeAll(async () => {
    t = await buildTestApp(NO_RATE_LIMITS);
    api = notificationsClient(t);
    // Every write of an entry, in the order the writes happened (a sequence taken in the writer's
    // transaction, after the recipient's counter lock): what a stream replaying by seq relies on.
    await t.db.execute(sql`create table notification_writes (
      n bigint generated always as identity primary key, recipient_id uuid not null, seq bigint not null)`);
    await t.db.execute(sql`create function log_notification_write() returns trigger language plpgsql as $$
      begin
        -- A read mark keeps the number: not a change a stream announces.
        if tg_op = 'UPDATE' and old.seq = new.seq then return null; end if;
        insert into notification_writes (recipient_id, seq) values (new.recipient_id, new.seq);
        return null;
      end $$`);
    await t.db.execute(sql`create trigger notifications_log_writes after insert or update on notifications
      for each row execute function log_notification_write()`);
  });
  afterAll(async () => {
    await t?.close();
  });

  const users = async (n: number): Promise<CreatedUser[]> => {
    const out = [];
    for (let i = 0; i < n; i += 1) out.push(await createUser(t.db));
    return out;
  };
  const writesOf = async (recipientId: string): Promise<number[]> =>
    rowsOf(
      await t.db.execute(
        sql`select seq from notification_writes where recipient_id = ${recipientId} order by n`,
      ),
    ).map((r) => Number(r.seq));
  const counterOf = async (userId: string): Promise<number> =>
    (await t.db.select().from(notificationCounters).where(eq(notificationCounters.userId, userId)))[0]?.seq ??
    0;

  it('grouped likes stay correct under 50 concurrent likers', async () => {
    const owner = await createUser(t.db);
    const postId = (await createPost(t.db, owner.id)).id;
    const likers = await users(50);
    const headers = await Promise.all(likers.map((u) => authHeader(t.app, u.id)));

    // What every instance's listener hears. On PostgreSQL each change is announced after its commit
    // (docs/decisions/010-notify-after-commit.md), not always in commit order: streams read everything
    // after what they sent, so only that each change is heard once matters.
    const heard: number[] = [];
    const listener = await t.database.listen(NOTIFICATION_CHANNEL, (payload) => {
      const [recipient, seq] = payload.split(' ');
      if (recipient === owner.id && /^\d+$/.test(seq ?? '')) heard.push(Number(seq));
    });
    try {
      const answers = await Promise.all(
        headers.map((h, i) =>
          t.app
            .inject({ method: 'PUT', url: `/api/posts/likePost/${postId}`, headers: h, payload: {} })
            .then((res) => ({ i, res })),
        ),
      );
      for (const { res } of answers) expect(res.statusCode, res.body).toBe(200);
      // Each answer's like list holds its own like: every toggle added one, none removed another.
      for (const { i, res } of answers) {
        const { updatedPost } = res.json() as { updatedPost: { greatCat: string[] } };
        expect(updatedPost.greatCat).toContain(likers[i]!.id);
      }

      const entries = await api.ofType(owner, 'like', postId);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ actorCount: 50, read: false });
      expect(entries[0]!.actors).toHaveLength(3);
      expect(await api.unread(owner)).toBe(1);
      const rows = await t.db.select().from(notifications).where(eq(notifications.recipientId, owner.id));
      expect(rows).toHaveLength(1);

      // One event number per change, each larger than the one before, in the order the changes happened.
      const writes = await writesOf(owner.id);
      expect(writes).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(await counterOf(owner.id)).toBe(50);
      expect(entries[0]!.seq).toBe(50);
      if (t.database.kind === 'postgres') {
        for (let waited = 0; heard.length < 50 && waited < 5000; waited += 50)
          await new Promise((r) => setTimeout(r, 50));
        expect(heard.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      }
    } finally {
      await listener.close();
    }
  });

  it('comments on threads whose participants overlap never deadlock, however they interleave', async () => {
    const [ownerA, ownerB] = await users(2);
    const postA = (await createPost(t.db, ownerA!.id)).id;
    const postB = (await createPost(t.db, ownerB!.id)).id;
    const crowd = await users(16);
    // Everyone takes part in both threads, each owner in the other's too: every comment tells
    // (nearly) everyone, including the other thread's owner.
    for (const u of crowd) {
      await api.comment(u, postA, `hello A from ${u.username}`);
      await api.comment(u, postB, `hello B from ${u.username}`);
    }
    await api.comment(ownerA!, postB, 'from A');
    await api.comment(ownerB!, postA, 'from B');

    for (let round = 0; round < 3; round += 1) {
      // All read: the next reply in each thread must write again for every participant.
      await t.db.update(notifications).set({ readAt: new Date() });
      const writers = [
        ...crowd.flatMap((u) => [
          { user: u, postId: postA },
          { user: u, postId: postB },
        ]),
        { user: ownerA!, postId: postB },
        { user: ownerB!, postId: postA },
        { user: ownerA!, postId: postA },
        { user: ownerB!, postId: postB },
      ];
      const answers = await Promise.all(
        writers.map(async ({ user, postId }) =>
          t.app.inject({
            method: 'POST',
            url: `/api/posts/createComment/${postId}`,
            headers: await authHeader(t.app, user.id),
            payload: { newComment: `round ${round}` },
          }),
        ),
      );
      for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    }

    // Still one reply entry per participant per thread, unread, naming the other participants; every
    // recipient's writes numbered one after another, their counter at the last number.
    for (const u of [...crowd, ownerA!, ownerB!]) {
      const replies = (await api.all(u)).filter((n) => n.type === 'reply');
      // (A 12 h window may start during the test: one entry per window, so count the threads.)
      const threads = [...new Set(replies.map((n) => n.post!._id))].sort();
      expect(threads, u.id).toEqual(u === ownerA ? [postB] : u === ownerB ? [postA] : [postA, postB].sort());
      expect(replies.every((n) => !n.read && n.actorCount >= 10)).toBe(true);
      const writes = await writesOf(u.id);
      expect(writes, u.id).toEqual(Array.from({ length: writes.length }, (_, i) => i + 1));
      expect(await counterOf(u.id)).toBe(writes.length);
    }
  });
});
