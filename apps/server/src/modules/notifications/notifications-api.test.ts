import { sql } from 'drizzle-orm';
import { NOTIFICATIONS_PAGE_SIZE, UNREAD_COUNT_CAP, type Notification } from '@cats/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { NO_RATE_LIMITS } from '../../../test/hostile/support/world.ts';
import { notificationsClient } from '../../../test/notifications.ts';
import { INVALID_CURSOR_MESSAGE } from '../posts/post-view.ts';

/** Issue 25, 'API': the list's pages, the unread count and read marks. */
describe('the notification centre', () => {
  let t: TestApp;
  let api: ReturnType<typeof notificationsClient>;
  let owner: CreatedUser;
  let fan: CreatedUser;
  let postId: string;
  const TOTAL = 2 * NOTIFICATIONS_PAGE_SIZE + 5;

  beforeAll(async () => {
    t = await buildTestApp(NO_RATE_LIMITS);
    api = notificationsClient(t);
    owner = await createUser(t.db);
    fan = await createUser(t.db);
    postId = (await createPost(t.db, owner.id)).id;
    // 45 comments by one fan (the trigger writes an entry for each, as for comments sent to the API).
    await t.db.execute(sql`insert into comments (post_id, user_id, body, created_at)
      select ${postId}::uuid, ${fan.id}::uuid, 'comment ' || i, now() - interval '1 hour' + i * interval '1 second'
      from generate_series(1, ${TOTAL}) i`);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('GET /api/notifications', () => {
    it('pages newest first by cursor, each entry once, a new entry moving nothing on the next page', async () => {
      const first = await api.page(owner);
      expect(first.notifications).toHaveLength(NOTIFICATIONS_PAGE_SIZE);
      expect(first.unreadCount).toBe(TOTAL);
      expect(first.notifications[0]!.comment!.excerpt).toBe(`comment ${TOTAL}`);
      expect(first.info.nextCursor).toBe(String(first.notifications.at(-1)!.seq));

      // Something new arrives while the user reads page 1: page 2 still follows page 1 exactly.
      const newest = await api.comment(fan, postId, 'newest');
      const second = await api.page(owner, first.info.nextCursor!);
      const third = await api.page(owner, second.info.nextCursor!);
      expect(second.notifications).toHaveLength(NOTIFICATIONS_PAGE_SIZE);
      expect(third.notifications).toHaveLength(5);
      expect(third.info.nextCursor).toBeNull();
      const all: Notification[] = [...first.notifications, ...second.notifications, ...third.notifications];
      expect(all.map((n) => n.comment!.excerpt)).toEqual(
        Array.from({ length: TOTAL }, (_, i) => `comment ${TOTAL - i}`),
      );
      const seqs = all.map((n) => n.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
      expect(new Set(all.map((n) => n._id)).size).toBe(TOTAL);

      // From the top again, the new entry comes first.
      expect((await api.page(owner)).notifications[0]!.comment!.excerpt).toBe('newest');
      await api.deleteComment(fan, newest);
      expect(await api.unread(owner)).toBe(TOTAL);
    });

    it.each(['abc', '0', '-1', '1.5', '1e3', '12abc', '9'.repeat(16), ' 1'])(
      'refuses the cursor %j with 400 and a message',
      async (cursor) => {
        const res = await api.send(owner, 'GET', `/api/notifications?cursor=${encodeURIComponent(cursor)}`);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: INVALID_CURSOR_MESSAGE });
      },
    );

    it('refuses an overlong cursor with 400 and a message', async () => {
      const res = await api.send(owner, 'GET', `/api/notifications?cursor=${'1'.repeat(201)}`);
      expect(res.statusCode).toBe(400);
      expect(typeof (res.json() as { message: unknown }).message).toBe('string');
    });

    it('a cursor past the end gives an empty page', async () => {
      const body = await api.page(owner, '1');
      expect(body.notifications).toEqual([]);
      expect(body.info.nextCursor).toBeNull();
      expect(body.unreadCount).toBe(TOTAL);
    });

    it("shows nobody else's entries", async () => {
      expect(await api.all(await createUser(t.db))).toEqual([]);
      expect((await api.all(fan)).every((n) => n.type !== 'comment')).toBe(true);
    });
  });

  describe('POST /api/notifications/read', () => {
    it("marks the caller's entries with the ids given, and nothing of anyone else's", async () => {
      // The fan has an entry of their own: the owner answers in the thread.
      await api.comment(owner, postId, 'thanks!');
      const [fansEntry] = await api.all(fan);
      expect(fansEntry).toMatchObject({ type: 'reply', read: false });
      expect(await api.unread(fan)).toBe(1);

      const [a, b, c] = (await api.page(owner)).notifications;
      let res = await api.ok(owner, 'POST', '/api/notifications/read', { ids: [a!._id, b!._id] });
      expect(res.json()).toEqual({ count: TOTAL - 2 });
      expect((await api.page(owner)).notifications.slice(0, 3).map((n) => n.read)).toEqual([
        true,
        true,
        false,
      ]);

      // Someone else's id, a malformed one and an unknown one change nothing, for anyone.
      res = await api.ok(owner, 'POST', '/api/notifications/read', {
        ids: [fansEntry!._id, 'not-an-id', '00000000-0000-4000-8000-000000000000'],
      });
      expect(res.json()).toEqual({ count: TOTAL - 2 });
      expect(await api.unread(fan)).toBe(1);
      expect((await api.all(fan))[0]!.read).toBe(false);
      // Mixed with one of the caller's own: only that one is marked.
      res = await api.ok(owner, 'POST', '/api/notifications/read', {
        ids: [fansEntry!._id, c!._id.toUpperCase()],
      });
      expect(res.json()).toEqual({ count: TOTAL - 3 });
      expect(await api.unread(fan)).toBe(1);
    });

    it('marks all of the caller’s entries without ids, and keeps them in the list', async () => {
      const res = await api.ok(owner, 'POST', '/api/notifications/read');
      expect(res.json()).toEqual({ count: 0 });
      expect(await api.unread(owner)).toBe(0);
      const all = await api.all(owner);
      expect(all).toHaveLength(TOTAL);
      expect(all.every((n) => n.read)).toBe(true);
      expect(await api.unread(fan)).toBe(1);
    });

    it(`counts unread entries up to ${UNREAD_COUNT_CAP} (the bell shows 99+), the visible ones only`, async () => {
      const other = await createUser(t.db);
      await t.db.execute(sql`insert into comments (post_id, user_id, body)
        select ${postId}::uuid, case when i <= 5 then ${other.id}::uuid else ${fan.id}::uuid end, 'more ' || i
        from generate_series(1, ${UNREAD_COUNT_CAP + 5}) i`);
      expect(await api.unread(owner)).toBe(UNREAD_COUNT_CAP);
      expect((await api.page(owner)).unreadCount).toBe(UNREAD_COUNT_CAP);
      // Ten read: 95 left. The other commenter's five out of view (a block): 90.
      const ids = (await api.page(owner)).notifications.slice(0, 10).map((n) => n._id);
      const res = await api.ok(owner, 'POST', '/api/notifications/read', { ids });
      expect(res.json()).toEqual({ count: UNREAD_COUNT_CAP - 5 });
      await api.block(owner, other);
      expect(await api.unread(owner)).toBe(UNREAD_COUNT_CAP - 10);
    });

    it('refuses an empty list of ids with 400 and a message', async () => {
      const res = await api.send(owner, 'POST', '/api/notifications/read', { ids: [] });
      expect(res.statusCode).toBe(400);
      expect(typeof (res.json() as { message: unknown }).message).toBe('string');
    });
  });
});
