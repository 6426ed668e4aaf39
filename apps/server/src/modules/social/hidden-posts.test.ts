import { randomUUID } from 'node:crypto';
import { DEMO_USER_ID, type PagedPostsResponse, type Post } from '@cats/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, hiddenPosts } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';

const PAGE = 2;

/** Issue 24: the 'Hidden pictures' list of Settings and the undo of a hide. */
describe('hidden posts: listing and unhiding', () => {
  let t: TestApp;
  let author: CreatedUser;
  beforeAll(async () => {
    t = await buildTestApp({ FEED_PAGE_SIZE: String(PAGE) });
    author = await createUser(t.db);
  });
  afterAll(async () => {
    await t.close();
  });

  const get = async (userId: string, url: string) =>
    t.app.inject({ method: 'GET', url, headers: await authHeader(t.app, userId) });
  const hide = async (userId: string, postId: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/posts/hidePost/${postId}`,
      headers: await authHeader(t.app, userId),
      payload: {},
    });
  const unhide = async (userId: string, postId: string) =>
    t.app.inject({
      method: 'DELETE',
      url: `/api/posts/hidePost/${postId}`,
      headers: await authHeader(t.app, userId),
    });
  const hiddenList = async (userId: string, query = '') => {
    const res = await get(userId, `/api/profile/hiddenPosts${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as PagedPostsResponse;
  };
  /** Every page of the list, followed by cursor (pages hold PAGE posts). */
  const hiddenIds = async (userId: string) => {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const list: PagedPostsResponse = await hiddenList(
        userId,
        cursor ? `?cursor=${encodeURIComponent(cursor)}` : '',
      );
      ids.push(...list.posts.map((p) => p._id));
      cursor = list.info.nextCursor;
    } while (cursor);
    return ids;
  };
  const hiddenRows = (userId: string) =>
    t.db.select().from(hiddenPosts).where(eq(hiddenPosts.userId, userId));
  /** Hides directly with a chosen time, so that the order does not depend on the clock's resolution. */
  const hideAt = (userId: string, postId: string, at: string) =>
    t.db.insert(hiddenPosts).values({ userId, postId, createdAt: new Date(at) });
  const feedIds = async (userId: string) =>
    (
      (await get(userId, `/api/profile/getPosts?user=${author.id}&pagenum=1`)).json() as PagedPostsResponse
    ).posts.map((p) => p._id);

  describe('GET /api/profile/hiddenPosts', () => {
    it("lists the caller's hidden posts, newest hide first, in the feed's shape", async () => {
      const viewer = await createUser(t.db);
      const older = await createPost(t.db, author.id, { caption: 'hidden first' });
      const newer = await createPost(t.db, author.id, { caption: 'hidden second' });
      const kept = await createPost(t.db, author.id, { caption: 'never hidden' });
      // Hidden in the opposite order of posting: the list follows the hides.
      await hideAt(viewer.id, newer.id, '2026-01-01T10:00:00Z');
      await hideAt(viewer.id, older.id, '2026-01-02T10:00:00Z');

      const list = await hiddenList(viewer.id);
      expect(list.posts.map((p) => p._id)).toEqual([older.id, newer.id]);
      expect(list.info).toEqual({ next: null, nextCursor: null });
      const first = list.posts[0]!;
      expect(first.caption).toBe('hidden first');
      expect(first.user).toMatchObject({ _id: author.id, username: author.username });
      expect(first.imageUrl).toMatch(/800/);
      expect(first.createdAt).toBe(older.createdAt.toISOString());
      expect(list.posts.map((p) => p._id)).not.toContain(kept.id);
      // Someone else's hides are theirs.
      expect(await hiddenIds(author.id)).toEqual([]);
    });

    it('pages by number and by cursor, the same posts either way', async () => {
      const viewer = await createUser(t.db);
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        const post = await createPost(t.db, author.id);
        await hideAt(viewer.id, post.id, `2026-02-0${i + 1}T08:00:00Z`);
        made.unshift(post.id); // newest hide first
      }
      const pages: string[][] = [];
      for (let page = 1; page <= 3; page++) {
        const list = await hiddenList(viewer.id, `?page=${page}`);
        pages.push(list.posts.map((p) => p._id));
        expect(list.info.next).toBe(page < 3 ? page + 1 : null);
      }
      expect(pages.flat()).toEqual(made);

      expect(await hiddenIds(viewer.id)).toEqual(made);
    });

    it('answers 400 with a message for a bad page or cursor', async () => {
      const viewer = await createUser(t.db);
      for (const query of ['?page=0', '?page=abc', '?cursor=not-a-cursor', `?cursor=${'x'.repeat(300)}`]) {
        const res = await get(viewer.id, `/api/profile/hiddenPosts${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json(), query).toEqual({ message: expect.any(String) });
      }
    });

    it('leaves out the posts of users the caller shares a block with, either way', async () => {
      const viewer = await createUser(t.db);
      const blockedAuthor = await createUser(t.db);
      const blockingAuthor = await createUser(t.db);
      const a = await createPost(t.db, blockedAuthor.id);
      const b = await createPost(t.db, blockingAuthor.id);
      const c = await createPost(t.db, author.id);
      for (const post of [a, b, c]) expect((await hide(viewer.id, post.id)).statusCode).toBe(200);
      expect(new Set(await hiddenIds(viewer.id))).toEqual(new Set([a.id, b.id, c.id]));

      await t.db.insert(blocks).values([
        { blockerId: viewer.id, blockedId: blockedAuthor.id },
        { blockerId: blockingAuthor.id, blockedId: viewer.id },
      ]);
      expect(await hiddenIds(viewer.id)).toEqual([c.id]);
      // The hides themselves are kept: when the block goes, the post is still hidden, and listed.
      await t.db
        .delete(blocks)
        .where(and(eq(blocks.blockerId, viewer.id), eq(blocks.blockedId, blockedAuthor.id)));
      expect(new Set(await hiddenIds(viewer.id))).toEqual(new Set([a.id, c.id]));
    });

    it('gives positions as the location rule says: approximate to others, none when switched off', async () => {
      const viewer = await createUser(t.db);
      const spot = { latitude: 51.501_234_56, longitude: -0.141_234_56 };
      const on = await createPost(t.db, author.id, { ...spot, showLocation: true });
      const off = await createPost(t.db, author.id, { ...spot, showLocation: false });
      // What the same viewer saw on the author's profile before hiding: the list must say no more.
      const before = new Map(
        (
          (
            await get(viewer.id, `/api/profile/getPosts?user=${author.id}&pagenum=1`)
          ).json() as PagedPostsResponse
        ).posts
          .filter((p) => p._id === on.id || p._id === off.id)
          .map((p) => [p._id, p]),
      );
      expect(before.size).toBe(2);
      await hide(viewer.id, on.id);
      await hide(viewer.id, off.id);
      const res = await get(viewer.id, '/api/profile/hiddenPosts');
      const listed = new Map((res.json() as PagedPostsResponse).posts.map((p) => [p._id, p]));
      const position = (p: Post | undefined) => [p?.latitude, p?.longitude, p?.locationPrecision];
      expect(position(listed.get(on.id))).toEqual(position(before.get(on.id)));
      expect(listed.get(on.id)?.locationPrecision).toBe('approximate');
      expect(position(listed.get(off.id))).toEqual([null, null, null]);
      expect(res.body).not.toContain(String(spot.latitude));
      expect(res.body).not.toContain(String(spot.longitude));
    });

    it('answers the demo account its empty list', async () => {
      expect(await hiddenList(DEMO_USER_ID)).toEqual({ posts: [], info: { next: null, nextCursor: null } });
    });

    it('refuses the anonymous caller with 401', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/profile/hiddenPosts' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: expect.any(String) });
    });
  });

  describe('DELETE /api/posts/hidePost/:postId', () => {
    it('unhides: the post is back in the lists and off the hidden list; again is fine', async () => {
      const viewer = await createUser(t.db);
      const post = await createPost(t.db, author.id);
      await hide(viewer.id, post.id);
      expect(await feedIds(viewer.id)).not.toContain(post.id);

      const res = await unhide(viewer.id, post.id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Post unhidden' });
      expect(await hiddenRows(viewer.id)).toEqual([]);
      expect(await hiddenIds(viewer.id)).toEqual([]);
      expect(await feedIds(viewer.id)).toContain(post.id);

      const again = await unhide(viewer.id, post.id);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ message: 'Post unhidden' });
    });

    it("touches only the caller's own hide", async () => {
      const viewer = await createUser(t.db);
      const other = await createUser(t.db);
      const post = await createPost(t.db, author.id);
      await hide(viewer.id, post.id);
      await hide(other.id, post.id);
      expect((await unhide(viewer.id, post.id)).statusCode).toBe(200);
      expect(await hiddenRows(viewer.id)).toEqual([]);
      expect((await hiddenRows(other.id)).map((r) => r.postId)).toEqual([post.id]);
    });

    it('answers 404 for unknown and malformed ids, and for a post behind a block', async () => {
      const viewer = await createUser(t.db);
      for (const id of [randomUUID(), 'xyz', '00000000-0000-0000-0000-00000000000g']) {
        const res = await unhide(viewer.id, id);
        expect(res.statusCode, id).toBe(404);
        expect(res.json()).toEqual({ message: 'Post not found' });
      }
      const blocker = await createUser(t.db);
      const post = await createPost(t.db, blocker.id);
      await hide(viewer.id, post.id);
      await t.db.insert(blocks).values({ blockerId: blocker.id, blockedId: viewer.id });
      const res = await unhide(viewer.id, post.id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Post not found' });
      // Nothing changed: the hide is still there for when the block goes.
      expect((await hiddenRows(viewer.id)).map((r) => r.postId)).toEqual([post.id]);
    });

    it('refuses the demo user with 403, as hiding', async () => {
      const post = await createPost(t.db, author.id);
      await t.db.insert(hiddenPosts).values({ userId: DEMO_USER_ID, postId: post.id });
      const res = await unhide(DEMO_USER_ID, post.id);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'Feature disabled for demo user' });
      expect((await hiddenRows(DEMO_USER_ID)).map((r) => r.postId)).toEqual([post.id]);
      await t.db.delete(hiddenPosts).where(eq(hiddenPosts.userId, DEMO_USER_ID));
    });
  });
});
