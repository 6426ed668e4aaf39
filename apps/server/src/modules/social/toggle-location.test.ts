import { randomUUID } from 'node:crypto';
import { DEMO_USER_ID } from '@cats/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, posts } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';

describe('PUT /api/posts/toggleLocation/:postId', () => {
  let t: TestApp;
  let owner: CreatedUser;
  let other: CreatedUser;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await createUser(t.db);
    other = await createUser(t.db);
  });
  afterAll(async () => {
    await t.close();
  });

  const toggle = async (userId: string, postId: string, payload: object = { currentUserId: userId }) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/posts/toggleLocation/${postId}`,
      headers: await authHeader(t.app, userId),
      payload,
    });
  const stored = async (postId: string) =>
    (await t.db.select({ showLocation: posts.showLocation }).from(posts).where(eq(posts.id, postId)))[0]
      ?.showLocation;

  it('flips showLocation for the owner and answers updatedPost {_id, showLocation}', async () => {
    const post = await createPost(t.db, owner.id, { latitude: 36.72, longitude: -4.42, showLocation: true });
    const off = await toggle(owner.id, post.id);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ updatedPost: { _id: post.id, showLocation: false } });
    expect(await stored(post.id)).toBe(false);
    const on = await toggle(owner.id, post.id);
    expect(on.json()).toEqual({ updatedPost: { _id: post.id, showLocation: true } });
    expect(await stored(post.id)).toBe(true);
  });

  it('works at the edges of the valid range (0, -90, 180)', async () => {
    for (const [latitude, longitude] of [
      [0, 0],
      [-90, 180],
    ] as const) {
      const post = await createPost(t.db, owner.id, { latitude, longitude });
      const res = await toggle(owner.id, post.id);
      expect(res.statusCode).toBe(200);
      expect(res.json().updatedPost.showLocation).toBe(true);
    }
  });

  it('refuses other users with a permission 403 (not a token problem) and changes nothing', async () => {
    const post = await createPost(t.db, owner.id, { latitude: 51.5, longitude: -0.12, showLocation: false });
    for (const userId of [other.id, DEMO_USER_ID]) {
      // Even when the body claims to be the owner.
      const res = await toggle(userId, post.id, { currentUserId: owner.id });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'You can only change the location of your own posts' });
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
    expect(await stored(post.id)).toBe(false);
  });

  it('refuses with 400 when the post has no coordinates', async () => {
    const post = await createPost(t.db, owner.id);
    const res = await toggle(owner.id, post.id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'No GPS data available' });
    expect(await stored(post.id)).toBe(false);
    // Not 400 for someone else: they are not allowed to know more than "not yours".
    expect((await toggle(other.id, post.id)).statusCode).toBe(403);
  });

  it('answers 404 for unknown and malformed ids, and for posts behind a block', async () => {
    for (const id of [randomUUID(), 'abc', 'null']) {
      const res = await toggle(owner.id, id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ message: 'Post not found' });
    }
    const post = await createPost(t.db, owner.id, { latitude: 1, longitude: 1 });
    const blocked = await createUser(t.db);
    await t.db.insert(blocks).values({ blockerId: owner.id, blockedId: blocked.id });
    expect((await toggle(blocked.id, post.id)).statusCode).toBe(404);
  });

  it('needs a token; a bad token is a 403 the client may refresh', async () => {
    const post = await createPost(t.db, owner.id, { latitude: 1, longitude: 1 });
    const none = await t.app.inject({
      method: 'PUT',
      url: `/api/posts/toggleLocation/${post.id}`,
      payload: {},
    });
    expect(none.statusCode).toBe(401);
    const bad = await t.app.inject({
      method: 'PUT',
      url: `/api/posts/toggleLocation/${post.id}`,
      headers: { authorization: 'Bearer nope' },
      payload: {},
    });
    expect(bad.statusCode).toBe(403);
    expect(bad.headers['www-authenticate']).toContain('invalid_token');
    expect(await stored(post.id)).toBe(false);
  });
});
