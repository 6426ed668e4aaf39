import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALT_TEXT_MAX,
  CAPTION_MAX,
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  type EditPostResponse,
  type MyProfileResponse,
  type PagedPostsResponse,
  type Post,
  type PostDetail,
  type PostHistoryResponse,
} from '@cats/contracts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createUser, type CreatedUser } from '../../../test/factories.ts';
import { multipartBody } from '../../../test/fixtures/images.ts';
import { call, smallJpeg, uploadPost } from '../../../test/hostile/support/world.ts';
import { postVersions, posts } from '../../db/schema/index.ts';

/** Edits, their history and alt text (issue 24, "Own posts" and "Alt text"). */
let t: TestApp;
let seed = 9100;
let owner: CreatedUser;
let stranger: CreatedUser;
type Headers = Record<string, string>;
let own: Headers;
let strangers: Headers;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await createUser(t.db);
  stranger = await createUser(t.db);
  own = await authHeader(t.app, owner.id);
  strangers = await authHeader(t.app, stranger.id);
});
afterAll(async () => {
  await t.close();
});

async function spot(fields: Record<string, string> = {}): Promise<Post> {
  return uploadPost(t.app, own, await smallJpeg((seed += 1)), {
    comment: 'First words',
    catName: 'Mog',
    ...fields,
  });
}
const edit = (headers: Headers, postId: string, body: unknown) =>
  call(t.app, headers, 'PATCH', `/api/posts/${postId}`, body);
const history = (headers: Headers, postId: string) =>
  call(t.app, headers, 'GET', `/api/posts/${postId}/history`);

/** The post's row and its stored versions, to check that a refusal changed nothing. */
async function stored(postId: string) {
  const [row] = await t.db
    .select({
      caption: posts.caption,
      catName: posts.catName,
      altText: posts.altText,
      editedAt: posts.editedAt,
    })
    .from(posts)
    .where(eq(posts.id, postId));
  const versions = await t.db.select().from(postVersions).where(eq(postVersions.postId, postId));
  return { row, versions: versions.length };
}

describe('alt text at creation', () => {
  it('keeps the description sent with the photo, and null when none was sent', async () => {
    const described = await spot({ altText: '  A ginger cat\r\nasleep on a red car  ' });
    expect(described.altText).toBe('A ginger cat\nasleep on a red car');
    expect(described.editedAt).toBeNull();
    const plain = await spot();
    expect(plain.altText).toBeNull();
    // Others see it too: the feed carries it for the image's alt.
    const feed = (await call(t.app, strangers, 'GET', '/api/feed/1')).json() as PagedPostsResponse;
    expect(feed.posts.find((p) => p._id === described._id)?.altText).toBe(
      'A ginger cat\nasleep on a red car',
    );
  });

  it('refuses a description over 1,500 characters and stores no post', async () => {
    const before = (await t.db.select({ id: posts.id }).from(posts)).length;
    const body = multipartBody(
      { altText: 'a'.repeat(ALT_TEXT_MAX + 1) },
      { name: 'cat.jpg', type: 'image/jpeg', data: await smallJpeg((seed += 1)) },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/posts/createPost',
      headers: { ...own, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Description is at most 1500 characters' });
    expect((await t.db.select({ id: posts.id }).from(posts)).length).toBe(before);
  });
});

describe('PATCH /api/posts/{postId}', () => {
  it('lets the owner change the caption (line breaks kept), answering the post marked edited', async () => {
    const post = await spot();
    const res = await edit(own, post._id, { caption: 'Line one\r\nLine two' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as EditPostResponse;
    expect(body.message).toBe('Picture updated');
    expect(body.post).toMatchObject({
      _id: post._id,
      caption: 'Line one\nLine two',
      catName: 'Mog',
      altText: null,
    });
    expect(body.post.editedAt).not.toBeNull();
    expect(Date.parse(body.post.editedAt!)).toBeGreaterThanOrEqual(Date.parse(post.createdAt));
    // The owner's own fields stay in the answer (it replaces the card in the feed's caches).
    expect(body.post.groupIds).toEqual([]);
    const page = (await call(t.app, strangers, 'GET', `/api/posts/${post._id}`)).json() as PostDetail;
    expect(page).toMatchObject({ caption: 'Line one\nLine two', editedAt: body.post.editedAt });
  });

  it('changes the cat name and the description, and clears them when sent empty', async () => {
    const post = await spot();
    const named = (await edit(own, post._id, { catName: ' Tiddles ' })).json() as EditPostResponse;
    expect(named.post).toMatchObject({ catName: 'Tiddles', caption: 'First words', altText: null });
    const described = (
      await edit(own, post._id, { altText: 'A tabby on a wall' })
    ).json() as EditPostResponse;
    expect(described.post).toMatchObject({ catName: 'Tiddles', altText: 'A tabby on a wall' });
    const cleared = await edit(own, post._id, { catName: '', altText: '' });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect((cleared.json() as EditPostResponse).post).toMatchObject({ catName: null, altText: null });
    expect((await stored(post._id)).versions).toBe(3);
  });

  it('stores no version and leaves the post unmarked when nothing changes', async () => {
    const post = await spot();
    const res = await edit(own, post._id, { caption: 'First words', catName: 'Mog' });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as EditPostResponse).post.editedAt).toBeNull();
    expect(await stored(post._id)).toMatchObject({ versions: 0, row: { editedAt: null } });
  });

  it('refuses captions and descriptions over their limits, and an empty edit, changing nothing', async () => {
    const post = await spot();
    const before = await stored(post._id);
    const refusals = [
      [{ caption: 'a'.repeat(CAPTION_MAX + 1) }, 'Caption is at most 500 characters'],
      [{ altText: 'a'.repeat(ALT_TEXT_MAX + 1), caption: 'Fine' }, 'Description is at most 1500 characters'],
      [{ catName: 'a'.repeat(41) }, 'Cat name is at most 40 characters'],
      [{ caption: 'Bell\u0007' }, 'Caption contains invalid characters'],
      [{}, 'Send a caption, a cat name, a description or a location to change'],
    ] as const;
    for (const [body, message] of refusals) {
      const res = await edit(own, post._id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect((res.json() as { message: string }).message).toContain(message);
    }
    expect(await stored(post._id)).toEqual(before);
  });

  it('refuses others who can see the post (403), the demo user (403) and unknown ids (404)', async () => {
    const post = await spot();
    const before = await stored(post._id);
    const other = await edit(strangers, post._id, { caption: 'Mine now' });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ message: 'You can only edit your own pictures' });
    const demo = await edit(await authHeader(t.app, DEMO_USER_ID), post._id, { caption: 'Demo' });
    expect(demo.statusCode).toBe(403);
    expect(demo.json()).toEqual({ message: DEMO_DISABLED_MESSAGE });
    for (const id of [randomUUID(), 'not-an-id']) {
      const res = await edit(own, id, { caption: 'Nobody' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Post not found' });
    }
    expect(await stored(post._id)).toEqual(before);
  });

  it('answers 404 for a trashed post, to its owner too, and for a post behind a block', async () => {
    const trashed = await spot();
    expect((await call(t.app, own, 'DELETE', `/api/posts/${trashed._id}`)).statusCode).toBe(200);
    const res = await edit(own, trashed._id, { caption: 'From the trash' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Post not found' });
    expect((await history(own, trashed._id)).statusCode).toBe(404);

    const blocker = await createUser(t.db);
    const blockers = await authHeader(t.app, blocker.id);
    const post = await spot();
    const block = await call(t.app, blockers, 'PUT', '/api/profile/blockUser/', {
      blockedUser: { _id: owner.id },
    });
    expect(block.statusCode, block.body).toBe(200);
    const blocked = await edit(blockers, post._id, { caption: 'Hidden from me' });
    expect(blocked.statusCode).toBe(404);
    expect(blocked.json()).toEqual({ message: 'Post not found' });
    expect((await stored(post._id)).row?.caption).toBe('First words');
  });
});

describe('GET /api/posts/{postId}/history', () => {
  it('lists every version newest first, the current one included, to the owner and to strangers', async () => {
    const post = await spot({ altText: 'Asleep' });
    await edit(own, post._id, { caption: 'Second words' });
    const last = (await edit(own, post._id, { catName: 'Tiddles', altText: '' })).json() as EditPostResponse;
    for (const headers of [own, strangers]) {
      const res = await history(headers, post._id);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as PostHistoryResponse;
      expect(body.postId).toBe(post._id);
      expect(
        body.versions.map(({ version, caption, catName, altText, current }) => ({
          version,
          caption,
          catName,
          altText,
          current,
        })),
      ).toEqual([
        { version: 3, caption: 'Second words', catName: 'Tiddles', altText: null, current: true },
        { version: 2, caption: 'Second words', catName: 'Mog', altText: 'Asleep', current: false },
        { version: 1, caption: 'First words', catName: 'Mog', altText: 'Asleep', current: false },
      ]);
      expect(body.versions[0]!.createdAt).toBe(last.post.editedAt);
      expect(body.versions[2]!.createdAt).toBe(post.createdAt);
    }
  });

  it('lists a post never edited as its one version', async () => {
    const post = await spot();
    const body = (await history(strangers, post._id)).json() as PostHistoryResponse;
    expect(body.versions).toEqual([
      {
        version: 1,
        caption: 'First words',
        catName: 'Mog',
        altText: null,
        createdAt: post.createdAt,
        current: true,
      },
    ]);
  });

  it('answers 404 to a user blocked by the owner, and for unknown ids', async () => {
    const post = await spot();
    await edit(own, post._id, { caption: 'Edited' });
    const blocked = await createUser(t.db);
    const block = await call(t.app, own, 'PUT', '/api/profile/blockUser/', {
      blockedUser: { _id: blocked.id },
    });
    expect(block.statusCode, block.body).toBe(200);
    const res = await history(await authHeader(t.app, blocked.id), post._id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Post not found' });
    for (const id of [randomUUID(), 'nope']) expect((await history(own, id)).statusCode).toBe(404);
  });

  it('goes with the post when the post is purged', async () => {
    const post = await spot();
    await edit(own, post._id, { caption: 'Edited once' });
    expect((await stored(post._id)).versions).toBe(1);
    await t.db.delete(posts).where(eq(posts.id, post._id));
    expect((await t.db.select().from(postVersions).where(eq(postVersions.postId, post._id))).length).toBe(0);
  });
});

describe('PUT /api/profile/settings/alt-text-reminder', () => {
  it('is on by default and is turned off and on again by the user', async () => {
    const user = await createUser(t.db);
    const headers = await authHeader(t.app, user.id);
    const me = async () =>
      ((await call(t.app, headers, 'GET', '/api/profile/getMyProfile')).json() as MyProfileResponse)
        .altTextReminder;
    expect(await me()).toBe(true);
    const off = await call(t.app, headers, 'PUT', '/api/profile/settings/alt-text-reminder', {
      altTextReminder: false,
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((off.json() as MyProfileResponse).altTextReminder).toBe(false);
    expect(await me()).toBe(false);
    await call(t.app, headers, 'PUT', '/api/profile/settings/alt-text-reminder', { altTextReminder: true });
    expect(await me()).toBe(true);
  });

  it('refuses a body without the boolean, and the demo user', async () => {
    const bad = await call(t.app, own, 'PUT', '/api/profile/settings/alt-text-reminder', {
      altTextReminder: 'no',
    });
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as { message: string }).message).toBeTruthy();
    const demo = await call(
      t.app,
      await authHeader(t.app, DEMO_USER_ID),
      'PUT',
      '/api/profile/settings/alt-text-reminder',
      {
        altTextReminder: false,
      },
    );
    expect(demo.statusCode).toBe(403);
    expect(demo.json()).toEqual({ message: DEMO_DISABLED_MESSAGE });
  });
});
