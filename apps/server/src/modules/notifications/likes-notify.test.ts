import type { NotificationsResponse } from '@cats/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';

/** Issue 25: likes make one entry per post per 12 h window, built from the likes themselves. */
describe('like notifications', () => {
  let t: TestApp;
  let owner: CreatedUser;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await createUser(t.db, { username: 'owner_likes' });
  });
  afterAll(async () => {
    await t.close();
  });

  const like = async (userId: string, postId: string) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/posts/likePost/${postId}`,
      headers: await authHeader(t.app, userId),
    });
    expect(res.statusCode).toBe(200);
  };
  const list = async (userId: string): Promise<NotificationsResponse> => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: await authHeader(t.app, userId),
    });
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  it('groups likes of one post, names the newest likers first, and drops an unliker', async () => {
    const post = await createPost(t.db, owner.id);
    const fans = [];
    for (let i = 0; i < 5; i += 1)
      fans.push(await createUser(t.db, { username: `fan_${i}_${post.id.slice(0, 6)}` }));
    for (const fan of fans) await like(fan.id, post.id);
    await like(owner.id, post.id); // the owner's own like tells nobody

    let body = await list(owner.id);
    const entries = body.notifications.filter((n) => n.post?._id === post.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ type: 'like', actorCount: 5, read: false, link: `/posts/${post.id}` });
    expect(entries[0]!.actors.map((a) => a.username)).toEqual(
      [fans[4], fans[3], fans[2]].map((f) => f!.username),
    );
    expect(body.unreadCount).toBe(1);

    await like(fans[4]!.id, post.id); // unlike
    body = await list(owner.id);
    expect(body.notifications.find((n) => n.post?._id === post.id)).toMatchObject({ actorCount: 4 });
    expect(body.notifications[0]!.actors[0]!.username).toBe(fans[3]!.username);

    // A block, either way, takes the user out of the entry as if they had never liked.
    await t.db.insert(blocks).values({ blockerId: fans[3]!.id, blockedId: owner.id });
    body = await list(owner.id);
    expect(body.notifications.find((n) => n.post?._id === post.id)).toMatchObject({ actorCount: 3 });
    expect(body.notifications[0]!.actors.map((a) => a._id)).not.toContain(fans[3]!.id);

    // When every liker is gone, so is the entry.
    for (const fan of fans.slice(0, 3)) await like(fan.id, post.id);
    body = await list(owner.id);
    expect(body.notifications.find((n) => n.post?._id === post.id)).toBeUndefined();
    expect(body.unreadCount).toBe(0);
  });

  it('makes a read entry unread again and moves it up when someone else likes', async () => {
    const first = await createPost(t.db, owner.id);
    const second = await createPost(t.db, owner.id);
    const a = await createUser(t.db);
    const b = await createUser(t.db);
    await like(a.id, first.id);
    await like(a.id, second.id);
    const read = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/read',
      headers: await authHeader(t.app, owner.id),
      payload: {},
    });
    expect(read.json()).toEqual({ count: 0 });
    expect((await list(owner.id)).notifications.slice(0, 2).map((n) => [n.post?._id, n.read])).toEqual([
      [second.id, true],
      [first.id, true],
    ]);
    await like(b.id, first.id);
    const body = await list(owner.id);
    expect(body.notifications.slice(0, 2).map((n) => [n.post?._id, n.read, n.actorCount])).toEqual([
      [first.id, false, 2],
      [second.id, true, 1],
    ]);
    expect(body.unreadCount).toBe(1);
  });
});
