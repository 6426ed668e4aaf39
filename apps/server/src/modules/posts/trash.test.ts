import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  type DeletePostResponse,
  type ExploreResponse,
  type PagedPostsResponse,
  type Post,
  type TrashResponse,
} from '@cats/contracts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createUser, type CreatedUser } from '../../../test/factories.ts';
import { addComment, call, createGroup, smallJpeg, uploadPost } from '../../../test/hostile/support/world.ts';
import { blocks, comments, likes, postGroups, posts, users } from '../../db/schema/index.ts';
import { sweepTrash } from './trash.service.ts';

const DAY = 24 * 60 * 60 * 1000;
let t: TestApp;
let seed = 7000;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type Headers = Record<string, string>;
const headersOf = async (user: { id: string }): Promise<Headers> => authHeader(t.app, user.id);

/** A real upload (files on disk) at a spot of its own, location shown. */
async function spot(headers: Headers, caption = 'A cat on a wall', groupIds: string[] = []): Promise<Post> {
  return uploadPost(t.app, headers, await smallJpeg((seed += 1)), {
    comment: caption,
    showLocation: 'true',
    latitude: '36.72123',
    longitude: '-4.42137',
    ...(groupIds.length ? { groupIds: JSON.stringify(groupIds) } : {}),
  });
}

const remove = (headers: Headers, postId: string) => call(t.app, headers, 'DELETE', `/api/posts/${postId}`);
const restore = (headers: Headers, postId: string) =>
  call(t.app, headers, 'POST', `/api/posts/${postId}/restore`);
async function trashOf(headers: Headers): Promise<TrashResponse['posts']> {
  const res = await call(t.app, headers, 'GET', '/api/posts/trash');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as TrashResponse).posts;
}
const deletedAtOf = async (postId: string) =>
  (await t.db.select({ deletedAt: posts.deletedAt }).from(posts).where(eq(posts.id, postId)))[0]?.deletedAt;

async function listed(headers: Headers, url: string): Promise<string[]> {
  const res = await call(t.app, headers, 'GET', url);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as PagedPostsResponse).posts.map((p) => p._id);
}
async function onMap(headers: Headers): Promise<string[]> {
  // Without a viewport, explore answers every post on the map (the spec's form), from the map index.
  const res = await call(t.app, headers, 'GET', '/api/explore');
  expect(res.statusCode, res.body).toBe(200);
  return ((res.json() as ExploreResponse).posts ?? []).map((p) => p._id);
}

describe('DELETE /api/posts/:postId', () => {
  let owner: CreatedUser;
  let other: CreatedUser;
  let own: Headers;
  let others: Headers;
  beforeAll(async () => {
    owner = await createUser(t.db);
    other = await createUser(t.db);
    own = await headersOf(owner);
    others = await headersOf(other);
  });

  it('moves the owner’s post to the trash, gone at once from every listing, the map and the social routes', async () => {
    const group = await createGroup(t.app, own, 'Garden cats');
    const post = await spot(own, 'Soon in the trash', [group._id]);
    const kept = await spot(own, 'Stays');
    const feed = `/api/feed/1`;
    const profile = `/api/profile/getPosts?user=${owner.id}`;
    const groupPosts = `/api/groups/${group._id}/posts`;
    for (const url of [feed, profile]) expect(await listed(others, url)).toContain(post._id);
    expect(await listed(own, groupPosts)).toContain(post._id);
    expect(await onMap(others)).toContain(post._id);
    const comment = await addComment(t.app, others, post._id, 'Lovely');

    const before = Date.now();
    const res = await remove(own, post._id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as DeletePostResponse;
    expect(body.message).toBe('Moved to the trash');
    expect(body._id).toBe(post._id);
    const deletedAt = Date.parse(body.deletedAt);
    expect(deletedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(body.purgeAt) - deletedAt).toBe(30 * DAY);
    expect((await deletedAtOf(post._id))?.toISOString()).toBe(body.deletedAt);

    for (const headers of [own, others]) {
      // The group's listing is for its members (the owner here).
      for (const url of headers === own ? [feed, profile, groupPosts] : [feed, profile]) {
        const ids = await listed(headers, url);
        expect(ids, url).not.toContain(post._id);
        if (url !== groupPosts) expect(ids, url).toContain(kept._id);
      }
      expect(await onMap(headers)).not.toContain(post._id);
      expect(await onMap(headers)).toContain(kept._id);
      const answers = [
        await call(t.app, headers, 'PUT', `/api/posts/likePost/${post._id}`, {}),
        await call(t.app, headers, 'GET', `/api/posts/getComments/${post._id}`),
        await call(t.app, headers, 'POST', `/api/posts/createComment/${post._id}`, { newComment: 'Hi' }),
        await call(t.app, headers, 'DELETE', `/api/posts/comments/${comment}`),
        await call(t.app, headers, 'PUT', `/api/posts/toggleLocation/${post._id}`, {}),
        await call(t.app, headers, 'GET', `/api/explore/posts?ids=${post._id}`),
      ];
      for (const answer of answers.slice(0, 5)) {
        expect(answer.statusCode, answer.body).toBe(404);
        expect(answer.json().message).toMatch(/not found/);
      }
      expect(answers[5]!.json().posts).toEqual([]);
    }
    const hide = await call(t.app, others, 'PUT', `/api/posts/hidePost/${post._id}`, {});
    expect(hide.statusCode).toBe(404);
    const share = await call(t.app, own, 'PUT', `/api/posts/${post._id}/groups`, { groupIds: [] });
    expect(share.statusCode).toBe(404);
    // Nothing was written behind the 404s, and the share waits in the trash with the post.
    expect(await t.db.$count(likes, eq(likes.postId, post._id))).toBe(0);
    expect(await t.db.$count(comments, eq(comments.postId, post._id))).toBe(1);
    expect(await t.db.$count(postGroups, eq(postGroups.postId, post._id))).toBe(1);

    // Deleting it again: it is no longer there to delete.
    const again = await remove(own, post._id);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'Post not found' });
  });

  it('refuses others who see the post with 403, and changes nothing', async () => {
    const post = await spot(own);
    const res = await remove(others, post._id);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'You can only delete your own pictures' });
    expect(await deletedAtOf(post._id)).toBeNull();
  });

  it('refuses the demo user with the demo message', async () => {
    const res = await remove(await headersOf({ id: DEMO_USER_ID }), randomUUID());
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: DEMO_DISABLED_MESSAGE });
  });

  it('answers 404 for unknown and malformed ids, hidden posts and posts behind a block', async () => {
    for (const id of [randomUUID(), 'abc', 'null', '1'.repeat(100)]) {
      const res = await remove(own, id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ message: 'Post not found' });
    }
    const hidden = await spot(own);
    expect((await call(t.app, others, 'PUT', `/api/posts/hidePost/${hidden._id}`, {})).statusCode).toBe(200);
    expect((await remove(others, hidden._id)).statusCode).toBe(404);

    const stranger = await createUser(t.db);
    const post = await spot(own);
    await t.db.insert(blocks).values({ blockerId: owner.id, blockedId: stranger.id });
    const res = await remove(await headersOf(stranger), post._id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Post not found' });
    for (const id of [hidden._id, post._id]) expect(await deletedAtOf(id)).toBeNull();
  });
});

describe('GET /api/posts/trash and POST /api/posts/:postId/restore', () => {
  it('lists the caller’s own trash, newest deletion first, with exact locations and purge dates', async () => {
    const owner = await createUser(t.db, { exactPublicLocation: false });
    const own = await headersOf(owner);
    const first = await spot(own, 'First');
    const second = await spot(own, 'Second');
    const live = await spot(own, 'Live');
    expect(await trashOf(own)).toEqual([]);
    expect((await remove(own, second._id)).statusCode).toBe(200);
    expect((await remove(own, first._id)).statusCode).toBe(200);

    const trash = await trashOf(own);
    expect(trash.map((p) => p._id)).toEqual([first._id, second._id]);
    for (const entry of trash) {
      // The owner sees the exact spot, as everywhere else.
      expect(entry.latitude).toBe(36.72123);
      expect(entry.longitude).toBe(-4.42137);
      expect(entry.locationPrecision).toBe('exact');
      expect(Date.parse(entry.purgeAt) - Date.parse(entry.deletedAt)).toBe(30 * DAY);
    }
    expect(trash[0]!.caption).toBe('First');
    expect(trash.map((p) => p._id)).not.toContain(live._id);
    // Nobody else sees it.
    expect(await trashOf(await headersOf(await createUser(t.db)))).toEqual([]);
  });

  it('restores the post where it was: same id, likes, comments and group shares', async () => {
    const owner = await createUser(t.db);
    const fan = await createUser(t.db);
    const own = await headersOf(owner);
    const fans = await headersOf(fan);
    const group = await createGroup(t.app, own, 'Street cats');
    const post = await spot(own, 'Back soon', [group._id]);
    expect((await call(t.app, fans, 'PUT', `/api/posts/likePost/${post._id}`, {})).statusCode).toBe(200);
    await addComment(t.app, fans, post._id, 'Purr');
    expect((await remove(own, post._id)).statusCode).toBe(200);

    // Not in their trash: someone else, the demo user, unknown and malformed ids, a live post.
    const live = await spot(own);
    const refusals = [
      [fans, post._id, 404],
      [await headersOf({ id: DEMO_USER_ID }), post._id, 403],
      [own, randomUUID(), 404],
      [own, 'not-an-id', 404],
      [own, live._id, 404],
    ] as const;
    for (const [headers, id, status] of refusals) {
      const res = await restore(headers, id);
      expect(res.statusCode, id).toBe(status);
      expect(res.json()).toEqual({
        message: status === 403 ? DEMO_DISABLED_MESSAGE : 'This picture is not in your trash',
      });
    }
    expect(await deletedAtOf(post._id)).not.toBeNull();
    expect(await deletedAtOf(live._id)).toBeNull();

    const res = await restore(own, post._id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { message: string; post: Post };
    expect(body.message).toBe('Picture restored');
    expect(body.post._id).toBe(post._id);
    expect(body.post.greatCat).toEqual([fan.id]);
    expect(body.post.commentCount).toBe(1);
    expect(body.post.groupIds).toEqual([group._id]);
    expect(body.post.createdAt).toBe(post.createdAt);
    expect(await deletedAtOf(post._id)).toBeNull();
    expect(await trashOf(own)).toEqual([]);
    expect(await listed(fans, '/api/feed/1')).toContain(post._id);
    expect(await listed(own, `/api/groups/${group._id}/posts`)).toContain(post._id);
    expect(await onMap(fans)).toContain(post._id);
    // Restored once; a second time it is no longer in the trash.
    expect((await restore(own, post._id)).statusCode).toBe(404);
  });
});

describe('the trash sweep', () => {
  it('purges posts trashed over 30 days ago with their likes, comments and files, keeping the rest', async () => {
    const owner = await createUser(t.db);
    const fan = await createUser(t.db);
    const own = await headersOf(owner);
    const old = await spot(own, 'Old');
    const recent = await spot(own, 'Recent');
    const live = await spot(own, 'Live');
    await call(t.app, await headersOf(fan), 'PUT', `/api/posts/likePost/${old._id}`, {});
    await addComment(t.app, await headersOf(fan), old._id, 'Bye');
    for (const p of [old, recent]) expect((await remove(own, p._id)).statusCode).toBe(200);
    const keyOf = async (id: string) =>
      (await t.db.select({ key: posts.mediaKey }).from(posts).where(eq(posts.id, id)))[0]!.key;
    const [oldKey, recentKey, liveKey] = [
      await keyOf(old._id),
      await keyOf(recent._id),
      await keyOf(live._id),
    ];
    const now = Date.now();
    await t.db
      .update(posts)
      .set({ deletedAt: new Date(now - 30 * DAY - 60_000) })
      .where(eq(posts.id, old._id));
    await t.db
      .update(posts)
      .set({ deletedAt: new Date(now - 29 * DAY) })
      .where(eq(posts.id, recent._id));

    expect(await sweepTrash({ db: t.db, storage: t.storage }, new Date(now))).toBe(1);
    expect(await t.db.$count(posts, eq(posts.id, old._id))).toBe(0);
    expect(await t.db.$count(likes, eq(likes.postId, old._id))).toBe(0);
    expect(await t.db.$count(comments, eq(comments.postId, old._id))).toBe(0);
    expect(existsSync(join(t.mediaDir, oldKey))).toBe(false);
    for (const key of [recentKey, liveKey]) expect(await t.storage.exists(`${key}/64.webp`), key).toBe(true);
    expect((await trashOf(own)).map((p) => p._id)).toEqual([recent._id]);

    // Two days later the other one's 30 days are over too; the live post never goes.
    expect(await sweepTrash({ db: t.db, storage: t.storage }, new Date(now + 2 * DAY))).toBe(1);
    expect(await t.storage.exists(`${recentKey}/64.webp`)).toBe(false);
    expect(await t.db.$count(posts, eq(posts.id, live._id))).toBe(1);
    expect(await t.storage.exists(`${liveKey}/64.webp`)).toBe(true);
  });

  it('keeps files another post or a profile picture still points at', async () => {
    const owner = await createUser(t.db);
    const own = await headersOf(owner);
    const [a, b, c] = [await spot(own), await spot(own), await spot(own)];
    const keyOf = async (id: string) =>
      (await t.db.select({ key: posts.mediaKey }).from(posts).where(eq(posts.id, id)))[0]!.key;
    const [aKey, cKey] = [await keyOf(a._id), await keyOf(c._id)];
    // Before issue 23 prefixes were content-addressed: two posts of one image shared theirs.
    await t.db.update(posts).set({ mediaKey: aKey }).where(eq(posts.id, b._id));
    await t.db.update(users).set({ profilePicKey: cKey }).where(eq(users.id, owner.id));
    const long = new Date(Date.now() - 31 * DAY);
    for (const p of [a, c]) expect((await remove(own, p._id)).statusCode).toBe(200);
    await t.db
      .update(posts)
      .set({ deletedAt: long })
      .where(inArray(posts.id, [a._id, c._id]));

    expect(await sweepTrash({ db: t.db, storage: t.storage })).toBe(2);
    expect(await t.storage.exists(`${aKey}/64.webp`)).toBe(true);
    expect(await t.storage.exists(`${cKey}/64.webp`)).toBe(true);
    expect(await t.db.$count(posts, eq(posts.id, b._id))).toBe(1);
  });

  it("purges a reported post's files too: its picture stays for the moderators only (issue 46)", async () => {
    const owner = await createUser(t.db);
    const reporter = await createUser(t.db);
    const own = await headersOf(owner);
    const post = await spot(own);
    const reported = await call(t.app, await headersOf(reporter), 'POST', '/api/reports', {
      targetType: 'post',
      targetId: post._id,
      reason: 'spam',
    });
    expect(reported.statusCode, reported.body).toBe(201);
    const key = (await t.db.select({ key: posts.mediaKey }).from(posts).where(eq(posts.id, post._id)))[0]!
      .key;
    expect((await remove(own, post._id)).statusCode).toBe(200);
    await t.db
      .update(posts)
      .set({ deletedAt: new Date(Date.now() - 31 * DAY) })
      .where(eq(posts.id, post._id));

    expect(await sweepTrash({ db: t.db, storage: t.storage })).toBe(1);
    expect(await t.db.$count(posts, eq(posts.id, post._id))).toBe(0);
    // Public, immutable and signed-out before issue 46; now gone like any unknown key.
    const url = `/media/${key}/800.webp`;
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect(await t.storage.exists(`${key}/64.webp`)).toBe(false);
    // The moderators' own copy (report-pictures.test.ts follows it further).
    const { reportId } = reported.json() as { reportId: string };
    const moderator = await createUser(t.db, { role: 'moderator' });
    const picture = await call(
      t.app,
      await headersOf(moderator),
      'GET',
      `/api/moderation/reports/${reportId}/picture`,
    );
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/webp');
  });

  it('is safe with several instances sweeping at once: each post is purged once', async () => {
    const owner = await createUser(t.db);
    const own = await headersOf(owner);
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push((await spot(own))._id);
    for (const id of ids) expect((await remove(own, id)).statusCode).toBe(200);
    await t.db
      .update(posts)
      .set({ deletedAt: new Date(Date.now() - 40 * DAY) })
      .where(inArray(posts.id, ids));
    const counts = await Promise.all([
      sweepTrash({ db: t.db, storage: t.storage }),
      sweepTrash({ db: t.db, storage: t.storage }),
      sweepTrash({ db: t.db, storage: t.storage }),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(4);
    expect(await t.db.$count(posts, inArray(posts.id, ids))).toBe(0);
  });

  it('deleting the account purges trashed posts and their files at once', async () => {
    const owner = await createUser(t.db);
    const own = await headersOf(owner);
    const post = await spot(own);
    const key = (await t.db.select({ key: posts.mediaKey }).from(posts).where(eq(posts.id, post._id)))[0]!
      .key;
    expect((await remove(own, post._id)).statusCode).toBe(200);
    const res = await call(t.app, own, 'DELETE', `/api/profile/deleteUser/${owner.id}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(await t.db.$count(posts, eq(posts.id, post._id))).toBe(0);
    expect(existsSync(join(t.mediaDir, key))).toBe(false);
  });
});
