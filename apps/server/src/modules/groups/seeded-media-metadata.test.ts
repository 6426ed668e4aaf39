import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import sharp from 'sharp';
import { DEMO_USER_ID, IMAGE_WIDTHS, type PagedPostsResponse, type Post } from '@cats/contracts';
import { posts } from '../../db/schema/index.ts';
import { seed } from '../../seed/seed.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader } from '../../../test/factories.ts';

/**
 * Issue 7 point 8: served images never carry GPS or any other metadata. The seeded sample photos are
 * rendered as a phone would take them (JPEG with camera and GPS EXIF); this seeds them into the test
 * database and fetches every served variant of every post, and every avatar, through the app.
 */
describe('served images of the seeded content carry no metadata', () => {
  let t: TestApp;
  const seeded: Post[] = [];

  beforeAll(async () => {
    t = await buildTestApp();
    await seed({ db: t.db, storage: t.storage, log: t.app.log });
    const headers = await authHeader(t.app, DEMO_USER_ID);
    let url: string | null = '/api/feed/1';
    while (url) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode).toBe(200);
      const page = res.json() as PagedPostsResponse;
      seeded.push(...page.posts);
      url = page.info.nextCursor ? `/api/feed/1?cursor=${encodeURIComponent(page.info.nextCursor)}` : null;
    }
  }, 180_000);
  afterAll(async () => t?.close());

  async function assertClean(url: string) {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode, url).toBe(200);
    const bytes = res.rawPayload;
    const meta = await sharp(bytes).metadata();
    expect(meta.format, url).toBe('webp');
    expect(
      { exif: meta.exif, xmp: meta.xmp, iptc: meta.iptc, tifftagPhotoshop: meta.tifftagPhotoshop },
      url,
    ).toEqual({ exif: undefined, xmp: undefined, iptc: undefined, tifftagPhotoshop: undefined });
    // The RIFF container has no EXIF or XMP chunk, and no EXIF block or XMP packet hides elsewhere.
    const text = bytes.toString('latin1');
    for (const marker of ['EXIF', 'XMP ', 'Exif\0\0', 'http://ns.adobe.com/xap']) {
      expect(text.includes(marker), `${url} contains ${JSON.stringify(marker)}`).toBe(false);
    }
  }

  it('seeds posts whose photos carried GPS (so the check below means something)', async () => {
    const [row] = await t.db.select({ n: count() }).from(posts);
    expect(seeded.length).toBe(row!.n);
    expect(seeded.length).toBeGreaterThanOrEqual(30);
    // Coordinates only come from the photos' own EXIF GPS in the seed.
    const rows = await t.db.select({ lat: posts.latitude }).from(posts);
    expect(rows.filter((r) => r.lat !== null).length).toBeGreaterThan(seeded.length / 2);
  });

  it('every variant of every seeded post', async () => {
    let checked = 0;
    for (const post of seeded) {
      expect(Object.keys(post.image.variants).sort()).toEqual(IMAGE_WIDTHS.map(String).sort());
      for (const url of Object.values(post.image.variants)) {
        await assertClean(url);
        checked += 1;
      }
    }
    expect(checked).toBe(seeded.length * IMAGE_WIDTHS.length);
  }, 120_000);

  it("every seeded user's profile picture and avatar", async () => {
    const urls = new Set<string>();
    for (const post of seeded) {
      if (post.user.profilePicUrl) urls.add(post.user.profilePicUrl);
      if (post.user.avatarUrl) urls.add(post.user.avatarUrl);
    }
    expect(urls.size).toBeGreaterThan(0);
    for (const url of urls) await assertClean(url);
  }, 60_000);
});
