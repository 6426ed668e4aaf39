import { randomUUID } from 'node:crypto';
import { DEMO_USER_ID } from '@cats/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, hiddenPosts } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';

describe('hiding posts and blocking users', () => {
  let t: TestApp;
  let owner: CreatedUser;
  let viewer: CreatedUser;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await createUser(t.db);
    viewer = await createUser(t.db);
  });
  afterAll(async () => {
    await t.close();
  });

  const hide = async (userId: string, postId: string, payload: object = { currentUserId: userId }) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/posts/hidePost/${postId}`,
      headers: await authHeader(t.app, userId),
      payload,
    });
  const block = async (userId: string, payload: unknown, url = '/api/profile/blockUser/') =>
    t.app.inject({
      method: 'PUT',
      url,
      headers: await authHeader(t.app, userId),
      payload: payload as object,
    });
  const blockedList = async (userId: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/profile/blockedUsers',
      headers: await authHeader(t.app, userId),
    });
  const unblock = async (userId: string, blockedId: string) =>
    t.app.inject({
      method: 'DELETE',
      url: `/api/profile/blockUser/${blockedId}`,
      headers: await authHeader(t.app, userId),
    });
  const hiddenRows = (userId: string, postId: string) =>
    t.db
      .select()
      .from(hiddenPosts)
      .where(and(eq(hiddenPosts.userId, userId), eq(hiddenPosts.postId, postId)));
  const blockRows = (blockerId: string) => t.db.select().from(blocks).where(eq(blocks.blockerId, blockerId));
  const canSee = async (userId: string, postId: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/api/posts/getComments/${postId}`,
        headers: await authHeader(t.app, userId),
      })
    ).statusCode === 200;

  describe('PUT /api/posts/hidePost/:postId', () => {
    it('hides the post for the caller only, idempotently', async () => {
      const post = await createPost(t.db, owner.id);
      const first = await hide(viewer.id, post.id);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ message: 'Post hidden' });
      const again = await hide(viewer.id, post.id);
      expect(again.statusCode).toBe(200);
      expect(await hiddenRows(viewer.id, post.id)).toHaveLength(1);
      expect(await canSee(viewer.id, post.id)).toBe(false);
      expect(await canSee(owner.id, post.id)).toBe(true);
    });

    it('takes the user from the token, not from currentUserId', async () => {
      const post = await createPost(t.db, owner.id);
      const other = await createUser(t.db);
      expect((await hide(viewer.id, post.id, { currentUserId: other.id })).statusCode).toBe(200);
      expect(await hiddenRows(other.id, post.id)).toHaveLength(0);
      expect(await hiddenRows(viewer.id, post.id)).toHaveLength(1);
    });

    it("refuses to hide one's own post with 400", async () => {
      const post = await createPost(t.db, owner.id);
      const res = await hide(owner.id, post.id);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'You cannot hide your own post' });
      expect(await hiddenRows(owner.id, post.id)).toHaveLength(0);
    });

    it('refuses the demo user with 403', async () => {
      const post = await createPost(t.db, owner.id);
      const res = await hide(DEMO_USER_ID, post.id);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'Feature disabled for demo user' });
      expect(await hiddenRows(DEMO_USER_ID, post.id)).toHaveLength(0);
    });

    it('answers 404 for unknown, malformed and blocked-away posts', async () => {
      for (const id of [randomUUID(), 'xyz', '00000000-0000-0000-0000-00000000000g']) {
        const res = await hide(viewer.id, id);
        expect(res.statusCode, id).toBe(404);
        expect(res.json()).toEqual({ message: 'Post not found' });
      }
      const blocker = await createUser(t.db);
      const post = await createPost(t.db, blocker.id);
      await t.db.insert(blocks).values({ blockerId: blocker.id, blockedId: viewer.id });
      expect((await hide(viewer.id, post.id)).statusCode).toBe(404);
    });
  });

  describe('PUT /api/profile/blockUser/', () => {
    it('blocks both ways: neither sees the other any more', async () => {
      const author = await createUser(t.db);
      const blocker = await createUser(t.db);
      const authorsPost = await createPost(t.db, author.id);
      const blockersPost = await createPost(t.db, blocker.id);
      const res = await block(blocker.id, {
        currentUserId: blocker.id,
        blockedUser: { _id: author.id, username: author.username, profilePicUrl: '/x.webp' },
        postId: authorsPost.id,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'User blocked' });
      expect((await blockRows(blocker.id)).map((r) => r.blockedId)).toEqual([author.id]);

      expect(await canSee(blocker.id, authorsPost.id)).toBe(false);
      expect(await canSee(author.id, blockersPost.id)).toBe(false);
      expect(await canSee(viewer.id, authorsPost.id)).toBe(true);
      expect(await canSee(viewer.id, blockersPost.id)).toBe(true);
      const profile = await t.app.inject({
        method: 'GET',
        url: `/api/profile/getUserProfile/${blocker.id}`,
        headers: await authHeader(t.app, author.id),
      });
      expect(profile.statusCode).toBe(404);
    });

    it('is idempotent and accepts the path without the trailing slash', async () => {
      const blocker = await createUser(t.db);
      const target = await createUser(t.db);
      expect((await block(blocker.id, { blockedUser: { _id: target.id } })).statusCode).toBe(200);
      expect(
        (await block(blocker.id, { blockedUser: { _id: target.id } }, '/api/profile/blockUser')).statusCode,
      ).toBe(200);
      expect(await blockRows(blocker.id)).toHaveLength(1);
    });

    it('takes the blocker from the token, not from currentUserId', async () => {
      const blocker = await createUser(t.db);
      const victim = await createUser(t.db);
      const target = await createUser(t.db);
      await block(blocker.id, { currentUserId: victim.id, blockedUser: { _id: target.id } });
      expect(await blockRows(victim.id)).toHaveLength(0);
      expect(await blockRows(blocker.id)).toHaveLength(1);
    });

    it('refuses blocking oneself with 400', async () => {
      const res = await block(viewer.id, { blockedUser: { _id: viewer.id } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'You cannot block yourself' });
      expect(await blockRows(viewer.id)).toHaveLength(0);
    });

    it('answers 404 for unknown and malformed user ids', async () => {
      for (const id of [randomUUID(), 'someone', '']) {
        const res = await block(viewer.id, { blockedUser: { _id: id } });
        expect(res.statusCode, id).toBe(404);
        expect(res.json()).toEqual({ message: 'User not found' });
      }
      expect(await blockRows(viewer.id)).toHaveLength(0);
    });

    it('answers 400 without a blockedUser', async () => {
      for (const payload of [{}, { blockedUser: 'abc' }, { blockedUser: {} }]) {
        const res = await block(viewer.id, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().message).toEqual(expect.any(String));
      }
    });

    it('refuses the demo user with 403', async () => {
      const res = await block(DEMO_USER_ID, { blockedUser: { _id: owner.id } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'Feature disabled for demo user' });
      expect(await blockRows(DEMO_USER_ID)).toHaveLength(0);
    });
  });

  describe('effects on the listings (feed and profile posts)', () => {
    const feedIds = async (userId: string) =>
      (await t.app.inject({ method: 'GET', url: '/api/feed/1', headers: await authHeader(t.app, userId) }))
        .json()
        .posts.map((p: { _id: string }) => p._id) as string[];
    const profileIds = async (userId: string, authorId: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/profile/getPosts/?user=${authorId}&pagenum=1`,
        headers: await authHeader(t.app, userId),
      });
      if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
      return res.json().posts.map((p: { _id: string }) => p._id) as string[];
    };

    it("removes a hidden post from the hider's feed and profile list only", async () => {
      const author = await createUser(t.db);
      const me = await createUser(t.db);
      const kept = await createPost(t.db, author.id);
      const hidden = await createPost(t.db, author.id);
      expect(await feedIds(me.id)).toEqual(expect.arrayContaining([kept.id, hidden.id]));
      await hide(me.id, hidden.id);
      expect(await feedIds(me.id)).toContain(kept.id);
      expect(await feedIds(me.id)).not.toContain(hidden.id);
      expect(await profileIds(me.id, author.id)).toEqual([kept.id]);
      expect(await feedIds(viewer.id)).toContain(hidden.id);
    });

    it("removes every post of a blocked user from the blocker's lists, and the blocker's from theirs", async () => {
      const author = await createUser(t.db);
      const me = await createUser(t.db);
      const a1 = await createPost(t.db, author.id);
      const a2 = await createPost(t.db, author.id);
      const mine = await createPost(t.db, me.id);
      await block(me.id, { blockedUser: { _id: author.id }, postId: a1.id });
      const myFeed = await feedIds(me.id);
      expect(myFeed).not.toContain(a1.id);
      expect(myFeed).not.toContain(a2.id);
      expect(myFeed).toContain(mine.id);
      // Each one's posts list answers the other as an unknown user's would (issue 23), not an empty page.
      await expect(profileIds(me.id, author.id)).rejects.toThrow('404 {"message":"User not found"}');
      expect(await feedIds(author.id)).not.toContain(mine.id);
      await expect(profileIds(author.id, me.id)).rejects.toThrow('404 {"message":"User not found"}');
      // Unblocking brings them back.
      await unblock(me.id, author.id);
      expect(await feedIds(me.id)).toEqual(expect.arrayContaining([a1.id, a2.id, mine.id]));
    });
  });

  describe('blocked users list and unblocking', () => {
    it('lists the users the caller blocked and unblocks them', async () => {
      const me = await createUser(t.db);
      const first = await createUser(t.db, { profilePicKey: `avatars/${'cd'.repeat(32)}` });
      const second = await createUser(t.db);
      const empty = await blockedList(me.id);
      expect(empty.statusCode).toBe(200);
      expect(empty.json()).toEqual({ blockedUsers: [] });

      await block(me.id, { blockedUser: { _id: first.id } });
      await block(me.id, { blockedUser: { _id: second.id } });
      const listed = await blockedList(me.id);
      const ids = listed.json().blockedUsers.map((u: { _id: string }) => u._id);
      expect(ids.sort()).toEqual([first.id, second.id].sort());
      expect(listed.json().blockedUsers).toContainEqual({
        _id: first.id,
        username: first.username,
        profilePicUrl: `/media/avatars/${'cd'.repeat(32)}/300.webp`,
        avatarUrl: `/media/avatars/${'cd'.repeat(32)}/72.webp`,
      });
      // The blocked user's own list is unaffected.
      expect((await blockedList(first.id)).json()).toEqual({ blockedUsers: [] });

      const post = await createPost(t.db, first.id);
      expect(await canSee(me.id, post.id)).toBe(false);
      const res = await unblock(me.id, first.id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ blockedUsers: [{ _id: second.id, username: second.username }] });
      expect(await canSee(me.id, post.id)).toBe(true);
      // Unblocking again is harmless.
      expect((await unblock(me.id, first.id)).json()).toEqual({
        blockedUsers: [{ _id: second.id, username: second.username }],
      });
    });

    it('never removes a block someone else made', async () => {
      const blocker = await createUser(t.db);
      const target = await createUser(t.db);
      await block(blocker.id, { blockedUser: { _id: target.id } });
      // The blocked user cannot lift it by "unblocking" the blocker.
      const res = await unblock(target.id, blocker.id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ blockedUsers: [] });
      expect(await blockRows(blocker.id)).toHaveLength(1);
    });

    it('answers 404 for unknown and malformed ids, and refuses the demo user', async () => {
      for (const id of [randomUUID(), 'not-a-user']) {
        const res = await unblock(viewer.id, id);
        expect(res.statusCode, id).toBe(404);
        expect(res.json()).toEqual({ message: 'User not found' });
      }
      const demo = await unblock(DEMO_USER_ID, owner.id);
      expect(demo.statusCode).toBe(403);
      expect(demo.json()).toEqual({ message: 'Feature disabled for demo user' });
      // Reading the (empty) list is fine for the demo user.
      expect((await blockedList(DEMO_USER_ID)).json()).toEqual({ blockedUsers: [] });
    });

    it('needs a token', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/profile/blockedUsers' })).statusCode).toBe(401);
    });
  });
});
