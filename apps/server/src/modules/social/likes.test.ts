import { randomUUID } from 'node:crypto';
import { DEMO_USER_ID } from '@cats/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, hiddenPosts, likes } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';

describe('PUT /api/posts/likePost/:postId', () => {
  let t: TestApp;
  let owner: CreatedUser;
  let fan: CreatedUser;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await createUser(t.db);
    fan = await createUser(t.db);
  });
  afterAll(async () => {
    await t.close();
  });

  const like = async (userId: string, postId: string, body: unknown = { currentUserId: userId }) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/posts/likePost/${postId}`,
      headers: await authHeader(t.app, userId),
      payload: body as object,
    });
  const likeCount = async (postId: string) =>
    (await t.db.select().from(likes).where(eq(likes.postId, postId))).length;

  it("toggles the caller's like and answers updatedPost {_id, greatCat}", async () => {
    const post = await createPost(t.db, owner.id);
    const first = await like(fan.id, post.id);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ updatedPost: { _id: post.id, greatCat: [fan.id] } });

    const ownLike = await like(owner.id, post.id);
    expect(ownLike.json().updatedPost.greatCat).toEqual([fan.id, owner.id]);

    const undo = await like(fan.id, post.id);
    expect(undo.statusCode).toBe(200);
    expect(undo.json()).toEqual({ updatedPost: { _id: post.id, greatCat: [owner.id] } });
    expect(await likeCount(post.id)).toBe(1);
  });

  it('takes the user from the token and ignores currentUserId in the body', async () => {
    const post = await createPost(t.db, owner.id);
    const res = await like(fan.id, post.id, { currentUserId: owner.id });
    expect(res.statusCode).toBe(200);
    expect(res.json().updatedPost.greatCat).toEqual([fan.id]);
    const rows = await t.db.select().from(likes).where(eq(likes.postId, post.id));
    expect(rows.map((r) => r.userId)).toEqual([fan.id]);
  });

  it('accepts a request without a body', async () => {
    const post = await createPost(t.db, owner.id);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/posts/likePost/${post.id}`,
      headers: await authHeader(t.app, fan.id),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().updatedPost.greatCat).toEqual([fan.id]);
  });

  it('lets the demo user like (the spec refuses only other actions)', async () => {
    const post = await createPost(t.db, owner.id);
    const res = await like(DEMO_USER_ID, post.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().updatedPost.greatCat).toEqual([DEMO_USER_ID]);
  });

  it('keeps an exact count under 100 concurrent toggles by 100 different users', async () => {
    const post = await createPost(t.db, owner.id);
    const users: CreatedUser[] = [];
    for (let i = 0; i < 100; i += 1) users.push(await createUser(t.db));
    const headers = await Promise.all(users.map((u) => authHeader(t.app, u.id)));
    const toggleAll = (subset: number[]) =>
      Promise.all(
        subset.map((i) =>
          t.app.inject({
            method: 'PUT',
            url: `/api/posts/likePost/${post.id}`,
            headers: headers[i],
            payload: {},
          }),
        ),
      );
    const all = users.map((_, i) => i);

    const liked = await toggleAll(all);
    expect(liked.every((r) => r.statusCode === 200)).toBe(true);
    expect(await likeCount(post.id)).toBe(100);
    // Every answer holds the caller's own like (each saw at least its own insert).
    liked.forEach((r, i) => expect(r.json().updatedPost.greatCat).toContain(users[i]!.id));

    // Half of them toggle again, concurrently: exactly 50 remain.
    const evens = all.filter((i) => i % 2 === 0);
    const unliked = await toggleAll(evens);
    expect(unliked.every((r) => r.statusCode === 200)).toBe(true);
    expect(await likeCount(post.id)).toBe(50);

    const final = await like(owner.id, post.id);
    const greatCat: string[] = final.json().updatedPost.greatCat;
    expect(greatCat).toHaveLength(51);
    expect(new Set(greatCat).size).toBe(51);
    expect(greatCat).toEqual(expect.arrayContaining(all.filter((i) => i % 2 === 1).map((i) => users[i]!.id)));
  });

  it('leaves no like when each of 20 users toggles twice at the same time', async () => {
    const post = await createPost(t.db, owner.id);
    const users: CreatedUser[] = [];
    for (let i = 0; i < 20; i += 1) users.push(await createUser(t.db));
    const results = await Promise.all(users.flatMap((u) => [like(u.id, post.id), like(u.id, post.id)]));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(await likeCount(post.id)).toBe(0);
  });

  it('enforces one like per user and post in the database', async () => {
    const post = await createPost(t.db, owner.id);
    await t.db.insert(likes).values({ postId: post.id, userId: fan.id });
    await expect(t.db.insert(likes).values({ postId: post.id, userId: fan.id })).rejects.toThrow();
    expect(await likeCount(post.id)).toBe(1);
  });

  it('answers 404 for unknown and malformed ids alike', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', '123', `${randomUUID()}x`]) {
      const res = await like(fan.id, id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ message: 'Post not found' });
    }
  });

  it('answers 404 for a post the caller hid or whose author shares a block with them', async () => {
    const hidden = await createPost(t.db, owner.id);
    await t.db.insert(hiddenPosts).values({ userId: fan.id, postId: hidden.id });
    expect((await like(fan.id, hidden.id)).statusCode).toBe(404);

    const blocker = await createUser(t.db);
    const blockersPost = await createPost(t.db, blocker.id);
    await t.db.insert(blocks).values({ blockerId: blocker.id, blockedId: fan.id });
    expect((await like(fan.id, blockersPost.id)).statusCode).toBe(404);
    expect(await likeCount(blockersPost.id)).toBe(0);
    // Others still can.
    expect((await like(owner.id, blockersPost.id)).statusCode).toBe(200);
  });

  it('needs a token', async () => {
    const post = await createPost(t.db, owner.id);
    const res = await t.app.inject({ method: 'PUT', url: `/api/posts/likePost/${post.id}`, payload: {} });
    expect(res.statusCode).toBe(401);
    expect(await likeCount(post.id)).toBe(0);
  });
});
