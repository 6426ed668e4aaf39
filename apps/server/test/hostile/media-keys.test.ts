import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../build-app.ts';
import { multipartBody } from '../fixtures/images.ts';
import { NO_RATE_LIMITS, actor, smallJpeg, uploadPost, type Actor } from './support/world.ts';

/**
 * Issue 23: a media key must not follow from the photo. With keys derived from the upload's hash,
 * anyone holding a photo could request /media/posts/<its hash>/800.webp and learn whether it was ever
 * posted. Nor may they follow from the re-encoded output: that is as deterministic as the input.
 */

let t: TestApp;
let a: Actor;
let b: Actor;
beforeAll(async () => {
  t = await buildTestApp(NO_RATE_LIMITS);
  [a, b] = [await actor(t.app, t), await actor(t.app, t)];
});
afterAll(async () => {
  await t?.close();
});

/** The hex part of a media URL: /media/posts/<hex>/800.webp. */
const keyOf = (url: string) => /^\/media\/(?:posts|avatars)\/([a-f0-9]+)\/\d+\.webp$/.exec(url)?.[1];

/** Every digest of the bytes anyone could compute, in hex. */
const digests = (bytes: Buffer) =>
  ['md5', 'sha1', 'sha256', 'sha384', 'sha512', 'sha3-256'].map((algorithm) =>
    createHash(algorithm).update(bytes).digest('hex'),
  );

async function bytesOf(url: string): Promise<Buffer> {
  const res = await t.app.inject({ url });
  expect(res.statusCode, url).toBe(200);
  return res.rawPayload;
}

/** No key shares 8 or more hex digits in a row with a digest of the upload or of what was stored. */
function expectUnrelated(keys: string[], inputs: Buffer[]) {
  for (const key of keys) {
    for (const digest of inputs.flatMap(digests)) {
      for (let at = 0; at + 8 <= key.length; at += 1) {
        expect(digest.includes(key.slice(at, at + 8)), `${key} ~ ${digest}`).toBe(false);
      }
    }
  }
}

describe('media keys', () => {
  it('differ for the same photo posted twice, and follow from neither the photo nor its variants', async () => {
    const photo = await smallJpeg(42, 240);
    const first = await uploadPost(t.app, a.headers, photo);
    const second = await uploadPost(t.app, b.headers, photo);
    const keys = [first.imageUrl, second.imageUrl].map((url) => keyOf(url)!);
    expect(
      keys.every((k) => k && k.length >= 32),
      String(keys),
    ).toBe(true);
    expect(keys[0]).not.toBe(keys[1]);
    const variants = await Promise.all(
      [...Object.values(first.image.variants), ...Object.values(second.image.variants)].map(bytesOf),
    );
    // The same re-encoded bytes under both keys: the key is all that differs.
    expect(variants[0]!.equals(variants[Object.keys(first.image.variants).length]!)).toBe(true);
    expectUnrelated(keys, [photo, ...variants]);
  });

  it('differ for the same profile picture uploaded by two users, and follow from neither', async () => {
    const picture = await smallJpeg(43, 240);
    const urls: string[] = [];
    for (const who of [a, b]) {
      const body = multipartBody({}, { name: 'me.jpg', type: 'image/jpeg', data: picture });
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/profile/updatePicture',
        headers: { ...who.headers, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode, res.body).toBe(200);
      urls.push((res.json() as { profilePicUrl: string }).profilePicUrl);
    }
    const keys = urls.map((url) => keyOf(url)!);
    expect(
      keys.every((k) => k && k.length >= 32),
      String(keys),
    ).toBe(true);
    expect(keys[0]).not.toBe(keys[1]);
    expectUnrelated(keys, [picture, ...(await Promise.all(urls.map(bytesOf)))]);
  });
});
