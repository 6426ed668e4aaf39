import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS, MAX_UPLOAD_BYTES, type Post } from '@cats/contracts';
import { postGroups } from '../../src/db/schema/index.ts';
import { buildTestApp, type TestApp } from '../build-app.ts';
import { fixture, multipartBody } from '../fixtures/images.ts';
import {
  TOO_LONG_SIDE_MESSAGE,
  TOO_MANY_PIXELS_MESSAGE,
  TOO_NARROW_MESSAGE,
} from '../../src/media/image-pipeline.ts';
import {
  greyPng,
  hugeExif,
  jpegClaiming,
  malformedExif,
  pngClaiming,
  sharpExifJpeg,
} from './support/images.ts';
import { Prober, Tally } from './support/probe.ts';
import { apiRoutes, type ApiRoute } from './support/routes.ts';
import { mediaFiles } from './support/snapshot.ts';
import { buildWorld, NO_RATE_LIMITS, smallJpeg, uploadPost, type World } from './support/world.ts';

/**
 * Every upload route (found by its multipart/form-data declaration) gets files that are empty, lie about
 * their type, are cut short, flood pixels or carry megabytes of EXIF, and hostile form fields. Refusals
 * are 4xx {message} and leave no row and no file; accepted files are served without any metadata.
 */

type Expect = 'ok' | number | 'any';

interface FileCase {
  label: string;
  name: string;
  type: string;
  data: () => Promise<Buffer> | Buffer;
  expect: Expect;
  /** The refusal's {message}, when the case is about one. */
  message?: string;
}

/** Issue 46's upload: a valid 76 KB PNG of 1 x 39,000,000, under the pixel limit, ~30 s to decode. */
let sliverPng: Buffer | undefined;
const sliver = () => (sliverPng ??= greyPng(1, 39_000_000));

const FILES: FileCase[] = [
  { label: 'empty file', name: 'cat.jpg', type: 'image/jpeg', data: () => Buffer.alloc(0), expect: 400 },
  {
    label: 'text named .jpg',
    name: 'text.jpg',
    type: 'image/jpeg',
    data: () => fixture('text.jpg'),
    expect: 415,
  },
  { label: 'WebP', name: 'cat.webp', type: 'image/webp', data: () => fixture('cat.webp'), expect: 415 },
  {
    label: 'GIF named .png',
    name: 'cat.png',
    type: 'image/png',
    data: () => Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
    expect: 415,
  },
  {
    label: 'SVG with script named .png',
    name: 'cat.png',
    type: 'image/png',
    data: () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    expect: 415,
  },
  {
    label: 'HTML named .jpg',
    name: 'x.jpg',
    type: 'image/jpeg',
    data: () => Buffer.from('<html><script>alert(1)</script></html>'),
    expect: 415,
  },
  {
    label: 'truncated JPEG',
    name: 'cut.jpg',
    type: 'image/jpeg',
    data: () => fixture('truncated.jpg'),
    expect: 400,
  },
  {
    label: 'JPEG signature then garbage',
    name: 'bad.jpg',
    type: 'image/jpeg',
    data: () => fixture('corrupt.jpg'),
    expect: 400,
  },
  {
    label: 'JPEG signature only',
    name: 'soi.jpg',
    type: 'image/jpeg',
    data: () => Buffer.from([0xff, 0xd8, 0xff]),
    expect: 400,
  },
  {
    label: 'polyglot JPEG header + HTML',
    name: 'p.jpg',
    type: 'image/jpeg',
    data: () =>
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<script>alert(1)</script>')]),
    expect: 400,
  },
  {
    label: 'PNG pixel flood (100 MP in KB)',
    name: 'flood.png',
    type: 'image/png',
    data: () => fixture('pixel-flood.png'),
    expect: 413,
    message: TOO_MANY_PIXELS_MESSAGE,
  },
  {
    label: 'PNG 1 x 39,000,000 (76 KB, under the pixel limit)',
    name: 'sliver.png',
    type: 'image/png',
    data: sliver,
    expect: 422,
    message: TOO_LONG_SIDE_MESSAGE,
  },
  {
    label: 'PNG 100 x 1001 made by sharp (narrower than 1:10)',
    name: 'narrow.png',
    type: 'image/png',
    data: () =>
      sharp({ create: { width: 100, height: 1001, channels: 3, background: '#808080' } })
        .png()
        .toBuffer(),
    expect: 422,
    message: TOO_NARROW_MESSAGE,
  },
  {
    label: 'JPEG 4000 x 500 panorama made by sharp (8:1)',
    name: 'panorama.jpg',
    type: 'image/jpeg',
    data: () =>
      sharp({ create: { width: 4000, height: 500, channels: 3, background: '#6080a0' } })
        .jpeg()
        .toBuffer(),
    expect: 'ok',
  },
  {
    label: 'PNG header claiming 100000x1000',
    name: 'wide.png',
    type: 'image/png',
    data: () => pngClaiming(100_000, 1000),
    expect: 413,
  },
  {
    label: 'PNG header 64x64 over a wrong IDAT',
    name: 'liar.png',
    type: 'image/png',
    data: () => pngClaiming(64, 64),
    expect: 400,
  },
  {
    label: 'JPEG pixel flood (65500x65500 frame)',
    name: 'flood.jpg',
    type: 'image/jpeg',
    data: async () => jpegClaiming(await smallJpeg(7), 65_500, 65_500),
    expect: 413,
  },
  {
    label: '5 MB of EXIF (80 APP1 segments)',
    name: 'exif.jpg',
    type: 'image/jpeg',
    data: async () => hugeExif(await smallJpeg(8), 5),
    expect: 'ok',
  },
  {
    label: 'malformed EXIF IFD',
    name: 'ifd.jpg',
    type: 'image/jpeg',
    data: async () => malformedExif(await smallJpeg(9)),
    expect: 'any',
  },
  {
    label: 'sharp-made 60 KB EXIF, absurd GPS',
    name: 'gps.jpg',
    type: 'image/jpeg',
    data: sharpExifJpeg,
    expect: 'ok',
  },
  {
    label: 'JPEG declared as PNG',
    name: 'cat.png',
    type: 'image/png',
    data: () => smallJpeg(10),
    expect: 'ok',
  },
  {
    label: 'PNG declared as JPEG',
    name: 'cat.jpg',
    type: 'image/jpeg',
    data: () => fixture('png-as.jpg'),
    expect: 'ok',
  },
  {
    label: 'one byte over 15 MB',
    name: 'big.jpg',
    type: 'image/jpeg',
    data: () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), randomBytes(MAX_UPLOAD_BYTES - 2)]),
    expect: 413,
  },
];

describe('hostile uploads', () => {
  let t: TestApp;
  let w: World;
  let routes: ApiRoute[];
  const tally = new Tally();
  let probe: Prober;

  beforeAll(async () => {
    t = await buildTestApp(NO_RATE_LIMITS);
    w = await buildWorld(t);
    routes = apiRoutes(t.app).filter((r) => r.multipart);
    probe = new Prober(t, tally);
  });
  const sliverBody = () => multipartBody({}, { name: 'sliver.png', type: 'image/png', data: sliver() });
  afterAll(async () => {
    console.log(tally.summary('hostile uploads'));
    await t?.close();
  });

  const send = (route: ApiRoute, label: string, body: { payload: Buffer; headers: Record<string, string> }) =>
    probe.send(route.key, label, {
      method: route.method,
      url: route.path,
      headers: { ...w.a.headers, ...body.headers },
      payload: body.payload,
    });

  function check(route: ApiRoute, label: string, status: number, expected: Expect) {
    if (expected === 'ok') expect(status, `${route.key} ${label}`).toBeLessThan(300);
    else if (expected === 'any') expect(status, `${route.key} ${label}`).toBeLessThan(500);
    else expect(status, `${route.key} ${label}`).toBe(expected);
  }

  /** Every variant an accepted upload answers with is WebP without EXIF, XMP, IPTC or ICC. */
  async function expectCleanMedia(body: string) {
    const urls = [...body.matchAll(/"(\/media\/[^"]+\.webp)"/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of new Set(urls)) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.format, meta.exif, meta.xmp, meta.iptc, meta.icc]).toEqual([
        'webp',
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
      expect(res.rawPayload.includes(Buffer.from('<script>'))).toBe(false);
    }
  }

  it('finds the upload routes in the OpenAPI document', () => {
    expect(routes.map((r) => r.key).sort()).toEqual([
      'POST /api/posts/createPost',
      'PUT /api/profile/updatePicture',
    ]);
  });

  it('refuses bad files by their bytes with 4xx {message}, leaving no row and no file', async () => {
    for (const route of routes) {
      for (const file of FILES) {
        const started = Date.now();
        const res = await send(
          route,
          file.label,
          multipartBody({ comment: 'x' }, { name: file.name, type: file.type, data: await file.data() }),
        );
        check(route, file.label, res.statusCode, file.expect);
        if (file.message) expect((res.json() as { message: string }).message, file.label).toBe(file.message);
        if (res.statusCode < 300) await expectCleanMedia(res.body);
        // Floods and slivers are refused from the header, before any pixel is decoded.
        if (file.expect === 413 || file.expect === 422) {
          expect(Date.now() - started, file.label).toBeLessThan(5000);
        }
      }
      const jpeg = await smallJpeg(11);
      const noFile = await send(route, 'no file part', multipartBody({ comment: 'no photo' }));
      check(route, 'no file part', noFile.statusCode, 400);
      const wrongField = await send(
        route,
        'file in another field',
        multipartBody({}, { name: 'c.jpg', type: 'image/jpeg', data: jpeg, field: 'image' }),
      );
      // The profile picture takes the first file whatever its field name; a post needs the 'file' field.
      check(
        route,
        'file in another field',
        wrongField.statusCode,
        route.key.includes('createPost') ? 400 : 'any',
      );

      const two = multipartBody({}, { name: 'a.jpg', type: 'image/jpeg', data: jpeg });
      const second = multipartBody({}, { name: 'b.jpg', type: 'image/jpeg', data: await smallJpeg(12) });
      const boundaryOf = (b: { headers: Record<string, string> }) =>
        b.headers['content-type']!.split('boundary=')[1]!;
      const twoFiles = Buffer.concat([
        two.payload.subarray(0, two.payload.lastIndexOf(`--${boundaryOf(two)}--`)),
        Buffer.from(
          second.payload.toString('latin1').replaceAll(boundaryOf(second), boundaryOf(two)),
          'latin1',
        ),
      ]);
      const res2 = await send(route, 'two files', { payload: twoFiles, headers: two.headers });
      check(route, 'two files', res2.statusCode, 'any');
      if (res2.statusCode < 300) await expectCleanMedia(res2.body);

      const cut = multipartBody({ comment: 'cut' }, { name: 'c.jpg', type: 'image/jpeg', data: jpeg });
      const truncatedBody = await send(route, 'multipart cut short', {
        payload: cut.payload.subarray(0, cut.payload.length - 60),
        headers: cut.headers,
      });
      check(route, 'multipart cut short', truncatedBody.statusCode, 400);
      const wrongBoundary = await send(route, 'boundary mismatch', {
        payload: cut.payload,
        headers: { 'content-type': 'multipart/form-data; boundary=nope' },
      });
      expect(wrongBoundary.statusCode).toBeGreaterThanOrEqual(400);
      const noBoundary = await send(route, 'no boundary', {
        payload: cut.payload,
        headers: { 'content-type': 'multipart/form-data' },
      });
      expect(noBoundary.statusCode).toBeGreaterThanOrEqual(400);
      const manyFields = multipartBody(
        Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, 'x'])),
        { name: 'c.jpg', type: 'image/jpeg', data: await smallJpeg(13) },
      );
      await send(route, '40 fields', manyFields);
    }
    expect(tally.problems).toEqual([]);
  }, 300_000);

  it('refuses hostile post fields, and never shares with a group the author is not in', async () => {
    const route = routes.find((r) => r.key === 'POST /api/posts/createPost')!;
    let seed = 100;
    const upload = async (label: string, fields: Record<string, string>) =>
      send(
        route,
        label,
        multipartBody(fields, { name: 'c.jpg', type: 'image/jpeg', data: await smallJpeg((seed += 1)) }),
      );

    const cases: [string, Record<string, string>, Expect][] = [
      ['cat name of 41 characters', { catName: 'x'.repeat(41) }, 400],
      ['comment of 501 characters', { comment: 'x'.repeat(501) }, 400],
      ['comment with NUL', { comment: 'cat\u0000cat' }, 400],
      ['comment with HTML', { comment: '<img src=x onerror=alert(1)>' }, 'ok'],
      ['comment with SQL', { comment: "'; DROP TABLE posts; --" }, 'ok'],
      ['cat name RTL and emoji', { catName: '\u202E🐱قطة\u200B' }, 'ok'],
      ['latitude NaN', { latitude: 'NaN', longitude: '0', showLocation: 'true' }, 'ok'],
      ['latitude 1e309', { latitude: '1e309', longitude: '1e309', showLocation: 'true' }, 'ok'],
      ['latitude -91', { latitude: '-91', longitude: '10', showLocation: 'true' }, 'ok'],
      ['latitude as HTML', { latitude: '<script>', longitude: '0x10', showLocation: 'true' }, 'ok'],
      ['latitude 41 characters', { latitude: '1'.repeat(41) }, 400],
      ['showLocation junk', { showLocation: 'maybe'.repeat(3) }, 400],
      ['exifData not JSON', { exifData: '{not json' }, 'ok'],
      ['exifData 70 KB', { exifData: JSON.stringify({ x: 'y'.repeat(70 * 1024) }) }, 'any'],
      ['groupIds not JSON', { groupIds: 'not json' }, 400],
      ['groupIds numbers', { groupIds: '[1,2,3]' }, 400],
      ['groupIds object', { groupIds: '{"a":1}' }, 400],
      ['groupIds traversal', { groupIds: '["../../etc/passwd"]' }, 'ok'],
      ['groupIds 5000 characters', { groupIds: JSON.stringify(['a'.repeat(5000)]) }, 400],
      ['field named constructor', { constructor: 'z' }, 400],
      ['field named __proto__', { ['__proto__']: 'z' }, 'any'],
    ];
    for (const [label, fields, expected] of cases) {
      const res = await upload(label, fields);
      check(route, label, res.statusCode, expected);
      if (res.statusCode < 300) {
        const post = (res.json() as { post: Post }).post;
        expect(post.latitude === null || Math.abs(post.latitude) <= 90, label).toBe(true);
        expect(post.longitude === null || Math.abs(post.longitude) <= 180, label).toBe(true);
      }
    }
    // Someone else's group: the post is created but shared with nothing.
    const res = await upload("someone else's group", { groupIds: JSON.stringify([w.bGroup._id]) });
    expect(res.statusCode).toBe(201);
    const post = (res.json() as { post: Post }).post;
    expect(await t.db.select().from(postGroups).where(eq(postGroups.postId, post._id))).toEqual([]);
    expect(tally.problems).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  }, 300_000);

  it("answers another user's upload within seconds while slivers hold the image slots", async () => {
    const post = routes.find((r) => r.key === 'POST /api/posts/createPost')!;
    const picture = routes.find((r) => r.key === 'PUT /api/profile/updatePicture')!;
    const files = () => mediaFiles(t.mediaDir).length;
    const before = files();
    // Issue 46: four of these held the image slots ~97 s, and someone else's small upload waited 95 s.
    const attack = [post, picture, post, picture].map((route) => {
      const body = sliverBody();
      return t.app.inject({
        method: route.method,
        url: route.path,
        headers: { ...w.a.headers, 'accept-language': 'es', ...body.headers },
        payload: body.payload,
      });
    });
    const started = Date.now();
    const normal = await uploadPost(t.app, w.b.headers, await smallJpeg(500));
    // Generous: timed assertions are for the bench; before the fix this took 20-100 s.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(normal.image).toBeTruthy();
    for (const res of await Promise.all(attack)) {
      expect(res.statusCode).toBe(422);
      // Translated like every refusal (decision 017).
      expect((res.json() as { message: string }).message).toBe(
        'La imagen es demasiado grande (como máximo 20000 píxeles en su lado más largo)',
      );
    }
    // The normal upload's variants only: the slivers stored nothing and left no orphan.
    expect(files() - before).toBe(IMAGE_WIDTHS.length);
  }, 120_000);
});
