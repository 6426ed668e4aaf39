import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ANONYMISED_USERNAME, DEMO_EMAIL, DEMO_USER_ID, DEMO_USERNAME } from '@cats/contracts';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { blocks, hiddenPosts, users } from '../../db/schema/index.ts';
import { FILE_TOO_LARGE_MESSAGE } from '../../media/upload-spool.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';

/** A real photo-like image: a gradient with a coloured block, so distinct seeds give distinct bytes. */
async function makeImage(format: 'jpeg' | 'png', width: number, height: number, seed = 0): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * 3;
      raw[i] = (x * 255) / width;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = (seed * 40) % 256;
    }
  }
  const image = sharp(raw, { raw: { width, height, channels: 3 } });
  return format === 'jpeg'
    ? image
        .jpeg({ quality: 85 })
        .withExif({ IFD0: { Artist: 'Secret Person', Copyright: 'private' } })
        .toBuffer()
    : image.png().toBuffer();
}

function multipart(body: Buffer, opts: { field?: string; filename?: string; contentType?: string } = {}) {
  const boundary = `----cats${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${opts.field ?? 'file'}"; filename="${opts.filename ?? 'me.jpg'}"\r\n` +
      `Content-Type: ${opts.contentType ?? 'image/jpeg'}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, body, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

describe('profiles', () => {
  let t: TestApp;
  let alice: CreatedUser;
  let bob: CreatedUser;
  beforeAll(async () => {
    t = await buildTestApp();
    alice = await createUser(t.db);
    bob = await createUser(t.db);
  });
  afterAll(async () => {
    await t.close();
  });

  const get = async (userId: string, url: string) =>
    t.app.inject({ method: 'GET', url, headers: await authHeader(t.app, userId) });
  const upload = async (userId: string, body: Buffer, opts: Parameters<typeof multipart>[1] = {}) => {
    const form = multipart(body, opts);
    return t.app.inject({
      method: 'PUT',
      url: '/api/profile/updatePicture',
      headers: { ...(await authHeader(t.app, userId)), 'content-type': form.contentType },
      payload: form.payload,
    });
  };
  const picKey = async (userId: string) =>
    (await t.db.select({ key: users.profilePicKey }).from(users).where(eq(users.id, userId)))[0]?.key ?? null;
  const prefixExists = (prefix: string) => existsSync(join(t.mediaDir, prefix));
  const avatarDirs = () =>
    existsSync(join(t.mediaDir, 'avatars')) ? readdirSync(join(t.mediaDir, 'avatars')).sort() : [];
  const mediaFiles = (prefix: string) => [72, 300].map((w) => join(t.mediaDir, prefix, `${w}.webp`));

  describe('GET /api/profile/getMyProfile', () => {
    it("answers the caller's profile and settings", async () => {
      const res = await get(alice.id, '/api/profile/getMyProfile');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        _id: alice.id,
        username: alice.username,
        email: alice.email,
        exactPublicLocation: false,
        altTextReminder: true,
        homeArea: null,
        isDemo: false,
        role: 'member',
      });
    });

    it('shows the demo user its own name, not the anonymised one', async () => {
      const res = await get(DEMO_USER_ID, '/api/profile/getMyProfile');
      expect(res.json()).toEqual({
        _id: DEMO_USER_ID,
        username: DEMO_USERNAME,
        email: DEMO_EMAIL,
        exactPublicLocation: false,
        altTextReminder: true,
        homeArea: null,
        isDemo: true,
        role: 'member',
      });
    });

    it("refuses a deleted account's still-live token as invalid, and answers 401 without a token", async () => {
      const gone = await createUser(t.db);
      const headers = await authHeader(t.app, gone.id);
      await t.db.delete(users).where(eq(users.id, gone.id));
      const res = await t.app.inject({ method: 'GET', url: '/api/profile/getMyProfile', headers });
      expect(res.statusCode).toBe(403);
      expect(res.headers['www-authenticate']).toContain('invalid_token');
      expect((await t.app.inject({ method: 'GET', url: '/api/profile/getMyProfile' })).statusCode).toBe(401);
    });
  });

  describe('GET /api/profile/getUserProfile/:userid', () => {
    it("answers another user's public profile without private fields", async () => {
      const res = await get(alice.id, `/api/profile/getUserProfile/${bob.id}`);
      expect(res.statusCode).toBe(200);
      const memberSince = bob.createdAt.toISOString();
      expect(res.json()).toEqual({ _id: bob.id, username: bob.username, postCount: 0, memberSince });
      // Upper-case ids are the same UUID.
      const upper = await get(alice.id, `/api/profile/getUserProfile/${bob.id.toUpperCase()}`);
      expect(upper.json()).toEqual({ _id: bob.id, username: bob.username, postCount: 0, memberSince });
    });

    it("shows the demo viewer 'Anonymised for demo', with the count but not the sign-up date", async () => {
      const res = await get(DEMO_USER_ID, `/api/profile/getUserProfile/${bob.id}`);
      expect(res.json()).toEqual({ _id: bob.id, username: ANONYMISED_USERNAME, postCount: 0 });
      const own = await get(DEMO_USER_ID, `/api/profile/getUserProfile/${DEMO_USER_ID}`);
      expect(own.json()).toMatchObject({ _id: DEMO_USER_ID, username: DEMO_USERNAME });
      expect(own.json()).not.toHaveProperty('memberSince');
    });

    it('counts only the pictures the viewer can see on that profile, as the list shows them', async () => {
      const author = await createUser(t.db);
      const viewer = await createUser(t.db);
      const count = async (who: string) =>
        ((await get(who, `/api/profile/getUserProfile/${author.id}`)).json() as { postCount: number })
          .postCount;
      const listed = async (who: string) =>
        (
          (await get(who, `/api/profile/getPosts?user=${author.id}&pagenum=1`)).json() as {
            posts: unknown[];
          }
        ).posts.length;

      const hidden = await createPost(t.db, author.id);
      await createPost(t.db, author.id);
      await createPost(t.db, author.id, { deletedAt: new Date() });
      await createPost(t.db, author.id, { moderation: 'removed' });
      await createPost(t.db, author.id, { moderation: 'pending_review' });
      // Someone else's pictures are not theirs.
      await createPost(t.db, viewer.id);
      await t.db.insert(hiddenPosts).values({ userId: viewer.id, postId: hidden.id });

      // The viewer hid one: it is neither listed nor counted for them, and still is for others.
      expect(await count(viewer.id)).toBe(1);
      expect(await listed(viewer.id)).toBe(1);
      expect(await count(alice.id)).toBe(2);
      expect(await listed(alice.id)).toBe(2);
    });

    it('answers 404 for unknown, malformed and deleted users', async () => {
      const gone = await createUser(t.db);
      await t.db.delete(users).where(eq(users.id, gone.id));
      for (const id of [randomUUID(), 'bob', '42', gone.id]) {
        const res = await get(alice.id, `/api/profile/getUserProfile/${id}`);
        expect(res.statusCode, id).toBe(404);
        expect(res.json()).toEqual({ message: 'User not found' });
      }
    });

    it('answers 404 between users when either blocked the other', async () => {
      const blocker = await createUser(t.db);
      const blocked = await createUser(t.db);
      await t.db.insert(blocks).values({ blockerId: blocker.id, blockedId: blocked.id });
      expect((await get(blocker.id, `/api/profile/getUserProfile/${blocked.id}`)).statusCode).toBe(404);
      expect((await get(blocked.id, `/api/profile/getUserProfile/${blocker.id}`)).statusCode).toBe(404);
      expect((await get(alice.id, `/api/profile/getUserProfile/${blocked.id}`)).statusCode).toBe(200);
      expect((await get(alice.id, `/api/profile/getUserProfile/${blocker.id}`)).statusCode).toBe(200);
    });
  });

  describe('PUT /api/profile/updatePicture', () => {
    // Every picture is received into a temporary file; whatever the answer, none may be left behind.
    afterEach(() => {
      expect(readdirSync(t.app.uploads.dir)).toEqual([]);
    });
    it('stores square 72 and 300 px WebP variants without metadata and answers their URLs', async () => {
      const user = await createUser(t.db);
      const photo = await makeImage('jpeg', 640, 480, 1);
      expect((await sharp(photo).metadata()).exif).toBeDefined();
      const res = await upload(user.id, photo);
      expect(res.statusCode).toBe(200);
      const key = await picKey(user.id);
      expect(key).toMatch(/^avatars\/[a-f0-9]{32}$/);
      expect(res.json()).toEqual({
        profilePicUrl: `/media/${key}/300.webp`,
        avatarUrl: `/media/${key}/72.webp`,
      });

      const [small, large] = mediaFiles(key!);
      const smallMeta = await sharp(small).metadata();
      const largeMeta = await sharp(large).metadata();
      expect([smallMeta.format, smallMeta.width, smallMeta.height]).toEqual(['webp', 72, 72]);
      expect([largeMeta.format, largeMeta.width, largeMeta.height]).toEqual(['webp', 300, 300]);
      for (const meta of [smallMeta, largeMeta]) {
        expect(meta.exif).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
        expect(meta.iptc).toBeUndefined();
      }

      // The new picture shows in the profile and wherever the user appears.
      const mine = await get(user.id, '/api/profile/getMyProfile');
      expect(mine.json()).toMatchObject({
        profilePicUrl: `/media/${key}/300.webp`,
        avatarUrl: `/media/${key}/72.webp`,
      });
      const seen = await get(alice.id, `/api/profile/getUserProfile/${user.id}`);
      expect(seen.json().profilePicUrl).toBe(`/media/${key}/300.webp`);
    });

    it('accepts PNG and deletes the previous picture files after the change', async () => {
      const user = await createUser(t.db);
      await upload(user.id, await makeImage('jpeg', 400, 400, 2));
      const first = (await picKey(user.id))!;
      expect(mediaFiles(first).every((f) => existsSync(f))).toBe(true);

      const res = await upload(user.id, await makeImage('png', 300, 500, 3), {
        filename: 'me.png',
        contentType: 'image/png',
      });
      expect(res.statusCode).toBe(200);
      const second = (await picKey(user.id))!;
      expect(second).not.toBe(first);
      expect(mediaFiles(second).every((f) => existsSync(f))).toBe(true);
      expect(prefixExists(first)).toBe(false);
    });

    it('stores the same picture uploaded again under a new key, and removes the old files', async () => {
      const user = await createUser(t.db);
      const image = await makeImage('jpeg', 320, 320, 4);
      await upload(user.id, image);
      const key = (await picKey(user.id))!;
      expect((await upload(user.id, image)).statusCode).toBe(200);
      const again = (await picKey(user.id))!;
      expect(again).not.toBe(key);
      expect(mediaFiles(again).every((f) => existsSync(f))).toBe(true);
      expect(prefixExists(key)).toBe(false);
    });

    it('gives two users of the same picture files of their own', async () => {
      const one = await createUser(t.db);
      const two = await createUser(t.db);
      const same = await makeImage('jpeg', 256, 256, 5);
      await upload(one.id, same);
      await upload(two.id, same);
      const [oneKey, twoKey] = [(await picKey(one.id))!, (await picKey(two.id))!];
      expect(oneKey).not.toBe(twoKey);

      await upload(one.id, await makeImage('jpeg', 256, 256, 6));
      expect(prefixExists(oneKey)).toBe(false);
      expect(mediaFiles(twoKey).every((f) => existsSync(f))).toBe(true);
    });

    it('keeps an old picture another user still shows (keys were content-addressed before issue 23)', async () => {
      const one = await createUser(t.db);
      const two = await createUser(t.db);
      await upload(one.id, await makeImage('jpeg', 256, 256, 9));
      const sharedKey = (await picKey(one.id))!;
      await t.db.update(users).set({ profilePicKey: sharedKey }).where(eq(users.id, two.id));

      await upload(one.id, await makeImage('jpeg', 256, 256, 10));
      expect(mediaFiles(sharedKey).every((f) => existsSync(f))).toBe(true);
      // Once the last user moves on, the files go.
      await upload(two.id, await makeImage('jpeg', 256, 256, 7));
      expect(prefixExists(sharedKey)).toBe(false);
    });

    it('refuses the demo user with 403 and stores nothing', async () => {
      const before = avatarDirs();
      const res = await upload(DEMO_USER_ID, await makeImage('jpeg', 200, 200, 8));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'Feature disabled for demo user' });
      expect(await picKey(DEMO_USER_ID)).toBeNull();
      expect(avatarDirs()).toEqual(before);
    });

    it('refuses files that are not JPEG or PNG by their bytes, and broken images, keeping the old picture', async () => {
      const user = await createUser(t.db);
      await upload(user.id, await makeImage('jpeg', 200, 200, 9));
      const key = (await picKey(user.id))!;
      const before = avatarDirs();

      const text = await upload(user.id, Buffer.from('definitely not a cat'), { filename: 'cat.jpg' });
      expect(text.statusCode).toBe(415);
      expect(text.json()).toEqual({ message: 'Only JPEG and PNG images are accepted' });

      const webp = await sharp(await makeImage('png', 50, 50))
        .webp()
        .toBuffer();
      expect(
        (await upload(user.id, webp, { filename: 'cat.png', contentType: 'image/png' })).statusCode,
      ).toBe(415);

      const jpeg = await makeImage('jpeg', 200, 200, 10);
      const truncated = await upload(user.id, jpeg.subarray(0, Math.floor(jpeg.length / 2)));
      expect(truncated.statusCode).toBe(400);
      expect(truncated.json()).toEqual({ message: 'The image could not be read' });

      expect(await picKey(user.id)).toBe(key);
      expect(mediaFiles(key).every((f) => existsSync(f))).toBe(true);
      expect(avatarDirs()).toEqual(before);
    });

    it('answers 400 without a file and 413 for one over the size limit', async () => {
      const user = await createUser(t.db);
      const json = await t.app.inject({
        method: 'PUT',
        url: '/api/profile/updatePicture',
        headers: await authHeader(t.app, user.id),
        payload: { file: 'x' },
      });
      expect(json.statusCode).toBe(400);
      expect(json.json()).toEqual({ message: 'Please choose a picture to upload' });

      const boundary = `----cats${randomUUID()}`;
      const noFile = await t.app.inject({
        method: 'PUT',
        url: '/api/profile/updatePicture',
        headers: {
          ...(await authHeader(t.app, user.id)),
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="caption"\r\n\r\nhello\r\n--${boundary}--\r\n`,
      });
      expect(noFile.statusCode).toBe(400);

      const huge = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(16 * 1024 * 1024)]);
      const tooBig = await upload(user.id, huge);
      expect(tooBig.statusCode).toBe(413);
      expect(tooBig.json()).toEqual({ message: FILE_TOO_LARGE_MESSAGE });
      expect(await picKey(user.id)).toBeNull();
    });

    it('needs a token', async () => {
      const form = multipart(await makeImage('jpeg', 100, 100));
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/profile/updatePicture',
        headers: { 'content-type': form.contentType },
        payload: form.payload,
      });
      expect(res.statusCode).toBe(401);
    });
  });
});
