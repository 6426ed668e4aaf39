import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, hiddenPosts, users } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { approximateLocation } from '../location/location-grid.ts';
import { PREVIEW_DESCRIPTION_MAX } from './post-preview.ts';

/** The built index.html's shape: what the server adds its tags to. */
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Neighbourhood Cats</title>
    <script type="module" crossorigin src="/assets/index-abc123.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;

/** All the <meta property|name content> pairs of a page, as a crawler reads them (no JavaScript). */
function metaTags(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)" \/>/g)) {
    out[m[1]!] = m[2]!;
  }
  return out;
}

const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe('link preview tags of /posts/{postId} (issue 24)', () => {
  let distDir: string;
  let t: TestApp;
  let owner: CreatedUser;
  // An owner who chose exact public locations: a stranger's answers carry the exact spot, so any
  // leak into the page would show it.
  const spot = { latitude: 48.858371, longitude: 2.294481 };

  beforeAll(async () => {
    distDir = mkdtempSync(join(tmpdir(), 'cats-web-'));
    writeFileSync(join(distDir, 'index.html'), INDEX_HTML);
    t = await buildTestApp({ PUBLIC_URL: 'http://cats.test:8080' }, { webDistDir: distDir });
    owner = await createUser(t.db, { exactPublicLocation: true });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  const page = (postId: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/posts/${postId}`, headers });

  it('gives a located post its title, description, 800 px image, alt, URL and card; no location', async () => {
    const post = await createPost(t.db, owner.id, {
      ...spot,
      showLocation: true,
      catName: 'Minou',
      caption: 'Sleeping under the tower\nagain',
    });
    const res = await page(post.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    const tags = metaTags(res.body);
    expect(tags).toEqual({
      'og:type': 'article',
      'og:site_name': 'Neighbourhood Cats',
      'og:title': 'Minou',
      'og:description': 'Sleeping under the tower again',
      'og:image': `http://cats.test:8080/media/${post.mediaKey}/800.webp`,
      'og:image:alt': 'Photo of Minou',
      'og:url': `http://cats.test:8080/posts/${post.id}`,
      'twitter:card': 'summary_large_image',
    });
    // The tags sit in <head>, and the app's page is otherwise untouched.
    expect(res.body.indexOf('og:title')).toBeLessThan(res.body.indexOf('</head>'));
    expect(res.body.replace(/\s*<meta (property|name)="(og|twitter):[^>]*>/g, '')).toBe(
      INDEX_HTML.replace(/\s*<\/head>/, '\n  </head>'),
    );

    // No position of any precision, in any form.
    const cell = approximateLocation(spot.latitude, spot.longitude);
    for (const n of [spot.latitude, spot.longitude, cell.latitude, cell.longitude]) {
      expect(res.body).not.toContain(String(n));
      expect(res.body).not.toContain(n.toFixed(2));
    }
    expect(res.body).not.toMatch(/latitude|longitude|place:location|geo\.|ICBM/i);
  });

  it('escapes the caption and cat name: a tag in them comes out as text', async () => {
    const attack = `"><script>alert('x')</script><meta property="og:title" content="pwned`;
    const post = await createPost(t.db, owner.id, { catName: `Tom"><b>`, caption: attack });
    const res = await page(post.id);
    expect(res.body).not.toContain('<script>alert');
    expect(res.body).not.toContain('<b>');
    expect(res.body.match(/<script/g)).toHaveLength(1); // the app's own module script only
    const tags = metaTags(res.body);
    expect(res.body.match(/property="og:title"/g)).toHaveLength(1);
    expect(unescape(tags['og:title']!)).toBe('Tom"><b>');
    expect(unescape(tags['og:description']!)).toBe(attack);
    expect(tags['og:description']).toContain('&quot;&gt;&lt;script&gt;');
  });

  it('cuts a long caption at a word and names no one when the cat has no name', async () => {
    const caption = 'whiskers '.repeat(50).trim(); // 449 characters, under CAPTION_MAX
    const post = await createPost(t.db, owner.id, { caption, catName: null });
    const tags = metaTags((await page(post.id)).body);
    expect(tags['og:title']).toBe('A cat on Neighbourhood Cats');
    expect(tags['og:image:alt']).toBe('Photo of a cat');
    expect(tags['og:description']!.length).toBeLessThanOrEqual(PREVIEW_DESCRIPTION_MAX);
    expect(tags['og:description']).toMatch(/^(whiskers )+whiskers…$/);
    expect(Object.values(tags).join(' ')).not.toContain(owner.username);
  });

  it("uses the author's description of the photo as og:image:alt when there is one", async () => {
    const post = await createPost(t.db, owner.id, {
      catName: 'Minou',
      altText: 'A black cat asleep on a red "No parking" sign',
    });
    const tags = metaTags((await page(post.id)).body);
    expect(unescape(tags['og:image:alt']!)).toBe('A black cat asleep on a red "No parking" sign');
    expect(tags['og:image:alt']).toContain('&quot;No parking&quot;');
  });

  it('is the same for any post a stranger may see, whoever hid it or blocked its author', async () => {
    const post = await createPost(t.db, owner.id, { catName: 'Felix' });
    const other = await createUser(t.db);
    await t.db.insert(hiddenPosts).values({ userId: other.id, postId: post.id });
    await t.db.insert(blocks).values({ blockerId: other.id, blockedId: owner.id });
    expect(metaTags((await page(post.id)).body)['og:title']).toBe('Felix');
  });

  it.each([
    ['an unknown id', '0b5a3c1e-2f4d-4e6a-8b9c-0d1e2f3a4b5c'],
    ['a malformed id', `x"><script>alert(1)</script>`],
  ])('serves the plain app page for %s', async (_what, id) => {
    const res = await page(encodeURIComponent(id));
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(INDEX_HTML);
  });

  it('serves the plain app page for a post whose author is gone', async () => {
    const gone = await createUser(t.db);
    const post = await createPost(t.db, gone.id, { catName: 'Ghost' });
    await t.db.delete(users).where(eq(users.id, gone.id));
    expect((await page(post.id)).body).toBe(INDEX_HTML);
  });
});

describe('link preview tags behind PUBLIC_URL', () => {
  let distDir: string;
  let t: TestApp;

  beforeAll(async () => {
    distDir = mkdtempSync(join(tmpdir(), 'cats-web-'));
    writeFileSync(join(distDir, 'index.html'), INDEX_HTML);
    t = await buildTestApp(
      { PUBLIC_URL: 'https://cats.example', TRUST_PROXY: 'true' },
      { webDistDir: distDir },
    );
  });
  afterAll(async () => {
    await t?.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  it('builds absolute URLs from PUBLIC_URL, not from the Host the request names', async () => {
    const owner = await createUser(t.db);
    const post = await createPost(t.db, owner.id);
    const res = await t.app.inject({
      method: 'GET',
      url: `/posts/${post.id}`,
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil2.example', 'x-forwarded-proto': 'http' },
    });
    const tags = metaTags(res.body);
    expect(tags['og:image']).toBe(`https://cats.example/media/${post.mediaKey}/800.webp`);
    expect(tags['og:url']).toBe(`https://cats.example/posts/${post.id}`);
    expect(res.body).not.toContain('evil.example');
    expect(res.body).not.toContain('evil2.example');
  });
});

describe('link preview tags without PUBLIC_URL (issue 46)', () => {
  let distDir: string;
  const apps: TestApp[] = [];

  beforeAll(() => {
    distDir = mkdtempSync(join(tmpdir(), 'cats-web-'));
    writeFileSync(join(distDir, 'index.html'), INDEX_HTML);
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  // A forged Host (or, behind a trusted proxy, X-Forwarded-Host) must never reach the page: a cache
  // or a chat app keeping it would send everyone who follows the link to the attacker's site.
  it.each([
    ['a forged Host', 'false', { host: 'evil.example' }],
    [
      'a forged X-Forwarded-Host behind TRUST_PROXY',
      'true',
      { host: 'cats.test', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    ],
  ])('leaves out absolute URLs rather than build them from %s', async (_what, trustProxy, headers) => {
    const t = await buildTestApp({ TRUST_PROXY: trustProxy }, { webDistDir: distDir });
    apps.push(t);
    const owner = await createUser(t.db);
    const post = await createPost(t.db, owner.id, { catName: 'Minou' });
    const res = await t.app.inject({ method: 'GET', url: `/posts/${post.id}`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('evil.example');
    const tags = metaTags(res.body);
    expect(tags).toEqual({
      'og:type': 'article',
      'og:site_name': 'Neighbourhood Cats',
      'og:title': 'Minou',
      'og:description': expect.any(String),
      'twitter:card': 'summary',
    });
  });
});
