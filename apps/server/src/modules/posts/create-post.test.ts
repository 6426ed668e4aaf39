import { readdirSync, existsSync } from 'node:fs';
import { once } from 'node:events';
import { connect } from 'node:net';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_DISABLED_MESSAGE, DEMO_USER_ID, IMAGE_WIDTHS, type Post } from '@cats/contracts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createUser } from '../../../test/factories.ts';
import { fixture, multipartBody, type FixtureName } from '../../../test/fixtures/images.ts';
import { groupMembers, groups, postGroups, posts } from '../../db/schema/index.ts';
import {
  TOO_MANY_PIXELS_MESSAGE,
  UNREADABLE_IMAGE_MESSAGE,
  UNSUPPORTED_IMAGE_MESSAGE,
} from '../../media/image-pipeline.ts';
import { FILE_TOO_LARGE_MESSAGE } from '../../media/upload-spool.ts';
import { FILE_REQUIRED_MESSAGE } from './posts.service.ts';

let t: TestApp;
let owner: { authorization: string };
let ownerId: string;

beforeAll(async () => {
  t = await buildTestApp();
  const user = await createUser(t.db);
  ownerId = user.id;
  owner = await authHeader(t.app, user.id);
});
afterAll(async () => {
  await t.close();
});
// Every upload is received into a temporary file; whatever the answer, none may be left behind.
afterEach(() => {
  expect(readdirSync(t.app.uploads.dir)).toEqual([]);
});

const typeOf = (name: string) =>
  name.endsWith('.png') ? 'image/png' : name.endsWith('.webp') ? 'image/webp' : 'image/jpeg';

async function upload(
  name: FixtureName | { name: string; data: Buffer },
  fields: Record<string, string> = {},
  headers: Record<string, string> = owner,
  field = 'file',
) {
  const file = typeof name === 'string' ? { name, data: fixture(name) } : name;
  const body = multipartBody(fields, { name: file.name, type: typeOf(file.name), data: file.data, field });
  return t.app.inject({
    method: 'POST',
    url: '/api/posts/createPost',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

function mediaFiles(): string[] {
  const root = t.mediaDir;
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

async function postCount(): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(posts);
  return row!.n;
}

/** Fetches every variant through GET /media and checks it is clean WebP of the right size. */
async function expectCleanVariants(post: Post) {
  expect(Object.keys(post.image.variants).sort()).toEqual(IMAGE_WIDTHS.map(String).sort());
  for (const width of IMAGE_WIDTHS) {
    const url = post.image.variants[String(width)]!;
    expect(url).toMatch(new RegExp(`^/media/posts/[a-f0-9]{32}/${width}\\.webp$`));
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.iptc).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(width);
    // No GPS or camera strings survive anywhere in the bytes.
    expect(res.rawPayload.includes(Buffer.from('Exif'))).toBe(false);
    expect(res.rawPayload.includes(Buffer.from('Sketchbook Phone'))).toBe(false);
  }
}

describe('POST /api/posts/createPost: accepted photos', () => {
  it('stores a GPS-tagged JPEG as clean WebP variants and reads its location from the bytes', async () => {
    const res = await upload('photo-gps.jpg', {
      comment: 'A ginger on the wall',
      catName: 'Luna',
      showLocation: 'true',
    });
    expect(res.statusCode).toBe(201);
    const { message, post } = res.json() as { message: string; post: Post };
    expect(message).toBe('Post created');
    expect(post.caption).toBe('A ginger on the wall');
    expect(post.catName).toBe('Luna');
    expect(post.user._id).toBe(ownerId);
    expect(post.latitude).toBeCloseTo(36.7213, 6);
    expect(post.longitude).toBeCloseTo(-4.4214, 6);
    expect(post.showLocation).toBe(true);
    expect(post.locationPrecision).toBe('exact');
    expect(post.greatCat).toEqual([]);
    expect(post.commentCount).toBe(0);
    expect(post.groupIds).toEqual([]);
    expect(post.image.width).toBe(1600);
    expect(post.image.height).toBe(1200);
    expect(Buffer.from(post.image.placeholder, 'base64').length).toBeGreaterThan(5);
    expect(post.imageUrl).toBe(post.image.variants['800']);
    await expectCleanVariants(post);
    // Sizes: 800 wide variant of a 4:3 photo is 800x600.
    const meta = await sharp((await t.app.inject({ url: post.imageUrl })).rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([800, 600]);
    // The original upload is never stored.
    expect(mediaFiles().every((f) => f.endsWith('.webp'))).toBe(true);
  });

  it('prefers the coordinates the client read over the photo GPS', async () => {
    const res = await upload('photo-gps.jpg', { latitude: '37.5', longitude: '-4.25', showLocation: 'true' });
    expect(res.statusCode).toBe(201);
    const { post } = res.json() as { post: Post };
    expect([post.latitude, post.longitude]).toEqual([37.5, -4.25]);
    expect(post.showLocation).toBe(true);
  });

  it('stores out-of-range coordinates as no location at all', async () => {
    const res = await upload('photo-gps.jpg', { latitude: '95', longitude: '-4.2', showLocation: 'true' });
    expect(res.statusCode).toBe(201);
    const { post } = res.json() as { post: Post };
    expect(post.latitude).toBeNull();
    expect(post.longitude).toBeNull();
    expect(post.showLocation).toBe(false);
    expect(post.locationPrecision).toBeNull();
    const [row] = await t.db.select().from(posts).where(eq(posts.id, post._id));
    expect([row!.latitude, row!.longitude, row!.showLocation]).toEqual([null, null, false]);
  });

  it('reads coordinates as plain decimals only: 0x10 is no 16, the photo GPS counts instead', async () => {
    for (const [latitude, longitude] of [
      ['0x10', '0x10'],
      ['0b1', '0o7'],
      ['1e1', '2e1'],
      ['Infinity', '-Infinity'],
      ['  ', '  '],
    ] as const) {
      const withGps = await upload('photo-gps.jpg', { latitude, longitude, showLocation: 'true' });
      expect(withGps.statusCode).toBe(201);
      const { post } = withGps.json() as { post: Post };
      // The photo's own GPS (Málaga), not the fields.
      expect([post.latitude, post.longitude], latitude).toEqual([
        expect.closeTo(36.7213, 6),
        expect.closeTo(-4.4214, 4),
      ]);
    }
    const noGps = await upload('photo-no-gps.jpg', {
      latitude: '0x10',
      longitude: '0x10',
      showLocation: 'true',
    });
    const { post } = noGps.json() as { post: Post };
    expect([post.latitude, post.longitude, post.showLocation]).toEqual([null, null, false]);
    // Plain decimals still count, signs and a bare fraction included.
    const typed = await upload('photo-gps.jpg', {
      latitude: '-12.345',
      longitude: '+.5',
      showLocation: 'true',
    });
    expect(typed.json()).toMatchObject({ post: { latitude: -12.345, longitude: 0.5 } });
  });

  it('keeps showLocation off without coordinates, and off when the switch is off', async () => {
    const none = (
      await upload('photo-no-gps.jpg', { showLocation: 'true', latitude: 'undefined' })
    ).json() as { post: Post };
    expect([none.post.latitude, none.post.showLocation]).toEqual([null, false]);
    const hidden = (await upload('photo-gps.jpg', { showLocation: 'false' })).json() as { post: Post };
    // The owner still sees the coordinates (the profile toggle needs them), with the switch off.
    expect(hidden.post.latitude).toBeCloseTo(36.7213, 6);
    expect(hidden.post.showLocation).toBe(false);
  });

  it('turns a rotated photo upright (EXIF orientation 6) and strips its metadata', async () => {
    const res = await upload('rotated-6.jpg', { showLocation: 'true' });
    expect(res.statusCode).toBe(201);
    const { post } = res.json() as { post: Post };
    expect([post.image.width, post.image.height]).toEqual([400, 600]);
    expect(post.latitude).toBeCloseTo(37.1773, 4);
    const variant = await t.app.inject({ url: post.image.variants['1600']! });
    const { data, info } = await sharp(variant.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([400, 600]);
    const pixel = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3),
    ];
    // The red band along the stored top edge is now along the right edge.
    const [rr, rg] = pixel(info.width - 10, 300);
    expect(rr).toBeGreaterThan(200);
    expect(rg).toBeLessThan(60);
    expect(pixel(10, 300).every((c) => c > 220)).toBe(true);
    await expectCleanVariants(post);
  });

  it('accepts a PNG, and a PNG named .jpg (the bytes decide)', async () => {
    for (const name of ['cat.png', 'png-as.jpg'] as const) {
      const res = await upload(name, {});
      expect(res.statusCode, name).toBe(201);
      const { post } = res.json() as { post: Post };
      expect([post.image.width, post.image.height]).toEqual([900, 900]);
      await expectCleanVariants(post);
    }
  });

  it('shares the new post only with groups the author belongs to', async () => {
    const other = await createUser(t.db);
    const [mine] = await t.db
      .insert(groups)
      .values({ name: 'Calle Larios', code: `Larios#${Date.now() % 10000}`, ownerId })
      .returning();
    const [theirs] = await t.db
      .insert(groups)
      .values({ name: 'Elsewhere', code: `Else#${Date.now() % 10000}`, ownerId: other.id })
      .returning();
    await t.db.insert(groupMembers).values([
      { groupId: mine!.id, userId: ownerId, role: 'owner' },
      { groupId: theirs!.id, userId: other.id, role: 'owner' },
    ]);
    const res = await upload('photo-gps.jpg', {
      groupIds: JSON.stringify([mine!.id, theirs!.id, 'not-a-uuid']),
    });
    expect(res.statusCode).toBe(201);
    const { post } = res.json() as { post: Post };
    expect(post.groupIds).toEqual([mine!.id]);
    const rows = await t.db.select().from(postGroups).where(eq(postGroups.postId, post._id));
    expect(rows.map((r) => r.groupId)).toEqual([mine!.id]);

    const bad = await upload('photo-gps.jpg', { groupIds: '{not json' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('POST /api/posts/createPost: refusals store nothing', () => {
  const cases: [FixtureName | { name: string; data: Buffer }, number, string][] = [
    ['text.jpg', 415, UNSUPPORTED_IMAGE_MESSAGE],
    ['cat.webp', 415, UNSUPPORTED_IMAGE_MESSAGE],
    ['truncated.jpg', 400, UNREADABLE_IMAGE_MESSAGE],
    ['corrupt.jpg', 400, UNREADABLE_IMAGE_MESSAGE],
    ['pixel-flood.png', 413, TOO_MANY_PIXELS_MESSAGE],
  ];
  for (const [file, status, message] of cases) {
    const label = typeof file === 'string' ? file : file.name;
    it(`${label}: ${status} '${message}'`, async () => {
      const before = { rows: await postCount(), files: mediaFiles().length };
      const res = await upload(file, { comment: 'should not exist', showLocation: 'true' });
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ message });
      expect(await postCount()).toBe(before.rows);
      expect(mediaFiles().length).toBe(before.files);
    });
  }

  it('refuses a file over 15 MB with 413', async () => {
    const before = { rows: await postCount(), files: mediaFiles().length };
    const big = Buffer.concat([fixture('photo-gps.jpg'), Buffer.alloc(15 * 1024 * 1024)]);
    const res = await upload({ name: 'huge.jpg', data: big });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: FILE_TOO_LARGE_MESSAGE });
    expect(await postCount()).toBe(before.rows);
    expect(mediaFiles().length).toBe(before.files);
  });

  it('refuses the demo user with 403 and stores nothing', async () => {
    const before = { rows: await postCount(), files: mediaFiles().length };
    const res = await upload('photo-gps.jpg', {}, await authHeader(t.app, DEMO_USER_ID));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: DEMO_DISABLED_MESSAGE });
    expect(await postCount()).toBe(before.rows);
    expect(mediaFiles().length).toBe(before.files);
  });

  it('requires a token (401) and a file (400), and validates fields (400)', async () => {
    expect((await upload('photo-gps.jpg', {}, {})).statusCode).toBe(401);
    const body = multipartBody({ comment: 'no photo' });
    const noFile = await t.app.inject({
      method: 'POST',
      url: '/api/posts/createPost',
      headers: { ...owner, ...body.headers },
      payload: body.payload,
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toEqual({ message: FILE_REQUIRED_MESSAGE });
    const longName = await upload('photo-gps.jpg', { catName: 'x'.repeat(41) });
    expect(longName.statusCode).toBe(400);
    expect(longName.json()).toEqual({ message: 'Cat name is at most 40 characters' });
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/posts/createPost',
      headers: owner,
      payload: { comment: 'hi' },
    });
    expect(json.statusCode).toBe(400);
  });

  it('keeps the line breaks of a caption and refuses other control characters', async () => {
    // As a browser sends a textarea in a multipart form: CRLF.
    const res = await upload('photo-no-gps.jpg', { comment: 'Mittens\r\non the wall\n\nagain ' });
    expect(res.statusCode, res.body).toBe(201);
    const post = (res.json() as { post: Post }).post;
    expect(post.caption).toBe('Mittens\non the wall\n\nagain');
    const [row] = await t.db.select({ caption: posts.caption }).from(posts).where(eq(posts.id, post._id));
    expect(row?.caption).toBe('Mittens\non the wall\n\nagain');

    const before = { rows: await postCount(), files: mediaFiles().length };
    for (const control of ['\u0000', '\u0007', '\u001b[2J']) {
      const refused = await upload('photo-no-gps.jpg', { comment: `a${control}b` });
      expect(refused.statusCode, JSON.stringify(control)).toBe(400);
      expect(refused.json()).toEqual({ message: 'Caption contains invalid characters' });
    }
    expect(await postCount()).toBe(before.rows);
    expect(mediaFiles().length).toBe(before.files);
  });

  it('reads past a file under another name and asks for the photo', async () => {
    const before = { rows: await postCount(), files: mediaFiles().length };
    const res = await upload({ name: 'other.jpg', data: fixture('photo-gps.jpg') }, {}, owner, 'photo');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: FILE_REQUIRED_MESSAGE });
    expect(await postCount()).toBe(before.rows);
    expect(mediaFiles().length).toBe(before.files);
  });

  it('removes the temporary file of an upload the client abandons half way', async () => {
    const before = { rows: await postCount(), files: mediaFiles().length };
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = new URL(address);
    const body = multipartBody(
      { comment: 'cut off' },
      {
        name: 'big.jpg',
        type: 'image/jpeg',
        data: Buffer.concat([fixture('photo-gps.jpg'), Buffer.alloc(4e6)]),
      },
    );
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      `POST /api/posts/createPost HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${owner.authorization}\r\n` +
        `Content-Type: ${body.headers['content-type']}\r\nContent-Length: ${body.payload.length}\r\n\r\n`,
    );
    socket.write(body.payload.subarray(0, 2e6));
    await vi.waitFor(() => expect(readdirSync(t.app.uploads.dir).length).toBe(1), { timeout: 5000 });
    socket.destroy();
    await vi.waitFor(() => expect(readdirSync(t.app.uploads.dir)).toEqual([]), { timeout: 5000 });
    expect(await postCount()).toBe(before.rows);
    expect(mediaFiles().length).toBe(before.files);
  });

  it('removes the stored variants when the row cannot be written', async () => {
    const before = { rows: await postCount(), files: mediaFiles().length };
    // The files are written, then the database refuses the row: the files must go again.
    const spy = vi.spyOn(t.db, 'transaction').mockRejectedValueOnce(new Error('database went away'));
    const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const res = await upload({ name: 'unique.png', data: image });
    spy.mockRestore();
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Internal Server Error' });
    expect(await postCount()).toBe(before.rows);
    expect(mediaFiles().length).toBe(before.files);
  });
});

describe('GET /media/*', () => {
  it('answers 404 JSON for missing, malformed and traversal keys', async () => {
    const urls = [
      `/media/posts/${'a'.repeat(64)}/800.webp`,
      '/media/posts/abc/800.webp',
      '/media/posts/..%2F..%2F..%2Fetc%2Fpasswd',
      `/media/posts/${'a'.repeat(64)}/..%2F..%2Fsecret.webp`,
      '/media/',
    ];
    for (const url of urls) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ message: 'Not found' });
    }
    // Dot segments are resolved before routing: such URLs never reach the media route or the disk.
    for (const url of ['/media/../../etc/passwd', '/media/posts/%2e%2e/%2e%2e/etc/passwd']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).not.toBe(200);
      expect(res.body).not.toContain('root:');
    }
  });
});
