import { DEMO_USER_ID, type PagedPostsResponse, type PostDetail } from '@cats/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { approximateLocation } from '../location/location-grid.ts';

/** GET /api/posts/{postId}: the post page's one post (issue 24, "A page per post"). */
describe('GET /api/posts/{postId}', () => {
  let t: TestApp;
  let owner: CreatedUser;
  let stranger: CreatedUser;
  const spot = { latitude: 51.501234, longitude: -0.141567 };

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await createUser(t.db);
    stranger = await createUser(t.db);
  });
  afterAll(async () => {
    await t.close();
  });

  const get = async (userId: string | null, postId: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/posts/${postId}`,
      headers: userId ? await authHeader(t.app, userId) : {},
    });

  it('shows the owner the exact spot and their own controls', async () => {
    const post = await createPost(t.db, owner.id, { ...spot, showLocation: true, catName: 'Mog' });
    const res = await get(owner.id, post.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as PostDetail;
    expect(body).toMatchObject({
      _id: post.id,
      catName: 'Mog',
      caption: 'A cat on a wall',
      ...spot,
      locationPrecision: 'exact',
      showLocation: true,
      groupIds: [],
      isOwn: true,
      canDelete: true,
      canComment: true,
      canHide: false,
    });
    expect(body.user).toMatchObject({ _id: owner.id, username: owner.username });
  });

  it("answers a stranger the feed's own card plus their permissions, with the ~500 m cell only", async () => {
    const post = await createPost(t.db, owner.id, { ...spot, showLocation: true });
    const res = await get(stranger.id, post.id);
    expect(res.statusCode, res.body).toBe(200);
    const { isOwn, canDelete, canComment, canHide, ...card } = res.json() as PostDetail;
    expect({ isOwn, canDelete, canComment, canHide }).toEqual({
      isOwn: false,
      canDelete: false,
      canComment: true,
      canHide: true,
    });
    expect(card).toMatchObject({ ...approximateLocation(spot.latitude, spot.longitude) });
    expect(card.locationPrecision).toBe('approximate');
    expect(card.latitude).not.toBe(spot.latitude);
    expect(card).not.toHaveProperty('groupIds');

    const feed = await t.app.inject({
      method: 'GET',
      url: '/api/feed/1',
      headers: await authHeader(t.app, stranger.id),
    });
    const inFeed = (feed.json() as PagedPostsResponse).posts.find((p) => p._id === post.id);
    expect(card).toEqual(inFeed);
  });

  it('shows a switched-off location to nobody but the owner', async () => {
    const post = await createPost(t.db, owner.id, { ...spot, showLocation: false });
    const other = (await get(stranger.id, post.id)).json() as PostDetail;
    expect(other).toMatchObject({
      latitude: null,
      longitude: null,
      locationPrecision: null,
      showLocation: false,
    });
    const own = (await get(owner.id, post.id)).json() as PostDetail;
    expect(own).toMatchObject({ ...spot, locationPrecision: 'exact', showLocation: false });
  });

  it('lets the demo account look but offers it nothing to write, and no more precision than a stranger', async () => {
    const post = await createPost(t.db, owner.id, { ...spot, showLocation: true });
    const res = await get(DEMO_USER_ID, post.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      locationPrecision: 'approximate',
      isOwn: false,
      canDelete: false,
      canComment: false,
      canHide: false,
    });
  });

  it('answers 404 for a post the viewer hid, and only for them', async () => {
    const post = await createPost(t.db, owner.id);
    const hide = await t.app.inject({
      method: 'PUT',
      url: `/api/posts/hidePost/${post.id}`,
      headers: await authHeader(t.app, stranger.id),
      payload: {},
    });
    expect(hide.statusCode, hide.body).toBe(200);
    const res = await get(stranger.id, post.id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Post not found' });
    expect((await get(owner.id, post.id)).statusCode).toBe(200);
  });

  it('answers 404 both ways across a block, as for an unknown post', async () => {
    const blocker = await createUser(t.db);
    const blocked = await createUser(t.db);
    const blockersPost = await createPost(t.db, blocker.id);
    const blockedsPost = await createPost(t.db, blocked.id);
    const block = await t.app.inject({
      method: 'PUT',
      url: '/api/profile/blockUser/',
      headers: await authHeader(t.app, blocker.id),
      payload: { blockedUser: { _id: blocked.id } },
    });
    expect(block.statusCode, block.body).toBe(200);
    for (const [viewer, post] of [
      [blocker.id, blockedsPost.id],
      [blocked.id, blockersPost.id],
    ] as const) {
      const res = await get(viewer, post);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Post not found' });
    }
    expect((await get(stranger.id, blockedsPost.id)).statusCode).toBe(200);
  });

  it.each([
    ['an unknown id', '0b5a3c1e-2f4d-4e6a-8b9c-0d1e2f3a4b5c'],
    ['a malformed id', 'not-a-post'],
    ['a static name of another route', 'createPost'],
    ['a long id', 'a'.repeat(150)],
  ])('answers 404 Post not found for %s', async (_what, id) => {
    const res = await get(stranger.id, id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Post not found' });
  });

  it('accepts an upper-case id as the same post', async () => {
    const post = await createPost(t.db, owner.id);
    const res = await get(stranger.id, post.id.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: post.id });
  });

  it('asks for a sign-in', async () => {
    const post = await createPost(t.db, owner.id);
    const res = await get(null, post.id);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toHaveProperty('message');
  });

  it("leaves the neighbouring routes theirs: a post's comments still come from getComments", async () => {
    const post = await createPost(t.db, owner.id);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/posts/getComments/${post.id}`,
      headers: await authHeader(t.app, stranger.id),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ postId: post.id, comments: [], commentCount: 0, info: { before: null } });
  });
});
