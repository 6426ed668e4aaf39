import { randomUUID } from 'node:crypto';
import { ANONYMISED_USERNAME, DEMO_USER_ID, type LikersResponse } from '@cats/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, hiddenPosts, likes, posts } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';

/** Issue 24, 'Liked by': GET /api/posts/{postId}/likes, newest like first, 20 a page. */
describe('GET /api/posts/:postId/likes', () => {
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

  const likers = async (userId: string, postId: string, cursor?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/posts/${postId}/likes`,
      query: cursor === undefined ? {} : { cursor },
      headers: await authHeader(t.app, userId),
    });

  /** `count` new users who like the post a minute apart, oldest like first; pairs share an instant. */
  async function seedLikers(postId: string, count: number): Promise<CreatedUser[]> {
    const fans: CreatedUser[] = [];
    const start = Date.UTC(2025, 0, 1);
    for (let i = 0; i < count; i += 1) fans.push(await createUser(t.db));
    await t.db.insert(likes).values(
      fans.map((fan, i) => ({
        postId,
        userId: fan.id,
        createdAt: new Date(start + (i - (i % 2)) * 60_000),
      })),
    );
    return fans;
  }
  /** The order the API must list them in: newest like first, then the greater user id. */
  const newestFirst = (fans: CreatedUser[]) =>
    fans
      .map((fan, i) => ({ fan, at: i - (i % 2) }))
      .sort((a, b) => b.at - a.at || (a.fan.id < b.fan.id ? 1 : -1))
      .map((x) => x.fan.id);

  async function walk(userId: string, postId: string) {
    const pages: LikersResponse[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await likers(userId, postId, cursor);
      expect(res.statusCode).toBe(200);
      const body: LikersResponse = res.json();
      pages.push(body);
      if (body.info.nextCursor === null) return pages;
      cursor = body.info.nextCursor;
      expect(pages.length).toBeLessThan(10);
    }
  }

  it('lists who liked, newest like first, 20 a page, each once across the pages', async () => {
    const post = await createPost(t.db, owner.id);
    const fans = await seedLikers(post.id, 45);
    const pages = await walk(viewer.id, post.id);
    expect(pages.map((p) => p.users.length)).toEqual([20, 20, 5]);
    expect(pages.flatMap((p) => p.users.map((u) => u._id))).toEqual(newestFirst(fans));
    const first = pages[0]!.users[0]!;
    const fan = fans.find((f) => f.id === first._id)!;
    expect(first).toEqual({ _id: fan.id, username: fan.username });
    expect(pages[0]!.postId).toBe(post.id);
  });

  it('answers an empty list for a post nobody liked, and a like just given first', async () => {
    const post = await createPost(t.db, owner.id);
    expect((await likers(viewer.id, post.id)).json()).toEqual({
      postId: post.id,
      users: [],
      info: { nextCursor: null },
    });
    await seedLikers(post.id, 3);
    const toggled = await t.app.inject({
      method: 'PUT',
      url: `/api/posts/likePost/${post.id}`,
      headers: await authHeader(t.app, viewer.id),
    });
    expect(toggled.statusCode).toBe(200);
    const body: LikersResponse = (await likers(owner.id, post.id)).json();
    expect(body.users).toHaveLength(4);
    expect(body.users[0]).toEqual({ _id: viewer.id, username: viewer.username });
  });

  it('leaves out users the viewer shares a block with, either way', async () => {
    const post = await createPost(t.db, owner.id);
    const fans = await seedLikers(post.id, 24);
    const blockedByViewer = fans.filter((_, i) => i % 4 === 0);
    const blockingViewer = fans.filter((_, i) => i % 4 === 1);
    await t.db
      .insert(blocks)
      .values([
        ...blockedByViewer.map((f) => ({ blockerId: viewer.id, blockedId: f.id })),
        ...blockingViewer.map((f) => ({ blockerId: f.id, blockedId: viewer.id })),
      ]);
    const gone = new Set([...blockedByViewer, ...blockingViewer].map((f) => f.id));
    const pages = await walk(viewer.id, post.id);
    expect(pages.map((p) => p.users.length)).toEqual([12]);
    expect(pages[0]!.users.map((u) => u._id)).toEqual(newestFirst(fans).filter((id) => !gone.has(id)));
    // The owner, outside those blocks, sees all 24 over two pages.
    expect((await walk(owner.id, post.id)).flatMap((p) => p.users)).toHaveLength(24);
  });

  it('shows the demo account every other liker as Anonymised for demo', async () => {
    const post = await createPost(t.db, owner.id);
    const fans = await seedLikers(post.id, 2);
    await t.app.inject({
      method: 'PUT',
      url: `/api/posts/likePost/${post.id}`,
      headers: await authHeader(t.app, DEMO_USER_ID),
    });
    const body: LikersResponse = (await likers(DEMO_USER_ID, post.id)).json();
    expect(body.users).toHaveLength(3);
    expect(body.users[0]!._id).toBe(DEMO_USER_ID);
    expect(body.users[0]!.username).not.toBe(ANONYMISED_USERNAME);
    expect(body.users.slice(1).map((u) => u.username)).toEqual([ANONYMISED_USERNAME, ANONYMISED_USERNAME]);
    expect(
      body.users
        .slice(1)
        .map((u) => u._id)
        .sort(),
    ).toEqual(fans.map((f) => f.id).sort());
  });

  it('answers 404 Post not found for posts the viewer may not see', async () => {
    const hidden = await createPost(t.db, owner.id);
    await seedLikers(hidden.id, 1);
    await t.db.insert(hiddenPosts).values({ userId: viewer.id, postId: hidden.id });
    const blocker = await createUser(t.db);
    const behindBlock = await createPost(t.db, blocker.id);
    await t.db.insert(blocks).values({ blockerId: blocker.id, blockedId: viewer.id });
    const trashed = await createPost(t.db, owner.id);
    await t.db.update(posts).set({ deletedAt: new Date() }).where(eq(posts.id, trashed.id));

    for (const id of [hidden.id, behindBlock.id, trashed.id, randomUUID(), 'not-a-post']) {
      const res = await likers(viewer.id, id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ message: 'Post not found' });
    }
    // Others still see the hidden post's likers.
    expect((await likers(owner.id, hidden.id)).statusCode).toBe(200);
  });

  it('refuses a cursor it did not make with 400 Invalid cursor', async () => {
    const post = await createPost(t.db, owner.id);
    for (const cursor of ['garbage', Buffer.from('2025-01-01|x').toString('base64url')]) {
      const res = await likers(viewer.id, post.id, cursor);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Invalid cursor' });
    }
  });
});
