import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Post, PostDetail } from '@cats/contracts';
import { PHONE, DESKTOP, screenshot } from './support/browser.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';
import { signInThroughApi } from './support/api.ts';
import {
  apiCall,
  apiCreatePost,
  apiUser,
  card,
  fixture,
  FIXTURE_GPS,
  type SessionUser,
} from './support/posts.ts';

/** Issue 24, "A page per post": the page, its link from the feed, sharing, full size and link previews. */
describe('post page', () => {
  let server: RunningServer;
  let browser: Browser;
  let author: SessionUser;
  let viewer: SessionUser;
  let post: Post;

  beforeAll(async () => {
    // The worker's server has PUBLIC_URL set to its own address, as link previews need.
    [server, browser] = await sharedServerAndBrowser();
    author = await apiUser(server.url, 'pageauthor');
    viewer = await apiUser(server.url, 'pageviewer');
    post = await apiCreatePost(server.url, author.accessToken, {
      image: fixture('photo-no-gps.jpg'),
      catName: 'Pepper',
      comment: 'Asleep on the bins again.\nSecond day running.',
      location: FIXTURE_GPS,
      showLocation: true,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  /** Signed in as the viewer; this browser has no share sheet (as desktop Linux), so Share copies. */
  async function viewerPage(
    viewport: { width: number; height: number },
    as: SessionUser = viewer,
  ): Promise<Page> {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport,
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    await context.addInitScript(() => {
      delete (Navigator.prototype as { share?: unknown }).share;
    });
    const page = await context.newPage();
    // Every test opens its screen itself.
    await signInThroughApi(page, as, null);
    return page;
  }

  it('opens from a feed card; like, share, full size and the approximate map work', async () => {
    const page = await viewerPage(DESKTOP);
    await page.goto('/feed');
    await card(page, post._id).getByRole('link', { name: 'View' }).click();
    await page.waitForURL(`**/posts/${post._id}`);

    const article = page.locator(`article.post-page[data-post-id="${post._id}"]`);
    await expect.poll(() => article.getByRole('heading', { name: 'Pepper' }).isVisible()).toBe(true);
    // The caption keeps its line break, as text.
    const caption = article.locator('.post-page__caption');
    expect(await caption.innerText()).toBe('Asleep on the bins again.\nSecond day running.');
    expect(await article.getByRole('link', { name: author.username }).getAttribute('href')).toBe(
      `/profile/${author.userId}`,
    );
    expect(await article.locator('time').getAttribute('datetime')).toBe(post.createdAt);

    // A stranger sees the ~500 m area, said in words, on a map with tiles.
    await article.getByText('Approximate location (about 500 m)').waitFor();
    await article.locator('.post-page__map .leaflet-tile-loaded').first().waitFor();

    // Like: the button and the server agree.
    const like = article.getByRole('button', { name: /^Like,/ });
    expect(await like.getAttribute('aria-pressed')).toBe('false');
    await like.click();
    await expect.poll(() => like.getAttribute('aria-pressed')).toBe('true');
    await expect
      .poll(async () => {
        const body = await apiCall<PostDetail>(server.url, viewer.accessToken, `/api/posts/${post._id}`);
        return body.greatCat;
      })
      .toContain(viewer.userId);
    expect(await like.getAttribute('aria-label')).toBe('Like, 1 like');

    // Share without a share sheet: the link goes to the clipboard, and the page says so.
    await article.getByRole('button', { name: 'Share' }).click();
    await page.getByRole('status').filter({ hasText: 'Link copied.' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${server.url}/posts/${post._id}`);

    await screenshot(page, 'post-page-1280');

    // Full size: the 1600 px variant in a dialog; Escape closes it and focus comes back.
    const open = article.getByRole('button', { name: 'View full size' });
    await open.click();
    const dialog = page.getByRole('dialog', { name: 'Photo of Pepper' });
    await dialog.waitFor();
    const img = dialog.getByRole('img', { name: 'Photo of Pepper' });
    expect(await img.getAttribute('src')).toMatch(/\/1600\.webp$/);
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await screenshot(page, 'post-page-full-size-1280');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await open.evaluate((el) => el === document.activeElement)).toBe(true);

    // Comments are the feed's own panel.
    await article.getByLabel('Add a comment').fill('What a spot');
    await article.getByRole('button', { name: 'Post', exact: true }).click();
    await article.getByText('What a spot').waitFor();
    await page.context().close();
  });

  it('fits a phone: photo first, full-size view zooms on a tap and closes with its button', async () => {
    const page = await viewerPage(PHONE);
    await page.goto(`/posts/${post._id}`);
    const article = page.locator('article.post-page');
    await article.getByText('Approximate location (about 500 m)').waitFor();
    await article.locator('.post-page__map .leaflet-tile-loaded').first().waitFor();
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'post-page-390');
    await article.locator('.post-page__details').scrollIntoViewIfNeeded();
    await screenshot(page, 'post-page-390-details');

    await article.getByRole('button', { name: 'View full size' }).click();
    const dialog = page.getByRole('dialog', { name: 'Photo of Pepper' });
    await dialog.waitFor();
    const stage = dialog.locator('.image-viewer__stage');
    // Pan and pinch zoom allowed ('manipulation' is pan-x pan-y pinch-zoom).
    expect(await stage.evaluate((el) => getComputedStyle(el).touchAction)).toBe('manipulation');
    await dialog.getByRole('button', { name: 'Zoom in' }).click();
    await dialog.getByRole('button', { name: 'Fit to screen' }).waitFor();
    expect(await stage.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await screenshot(page, 'post-page-390-zoomed');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.context().close();

    // The author's page has the 'On map' switch, whose tooltip (laid out even while transparent) once
    // ran past the screen: the page scrolled sideways by ~46 px. Nothing wider than the screen, with
    // the tooltip hidden or shown.
    const own = await viewerPage(PHONE, author);
    await own.goto(`/posts/${post._id}`);
    await own.locator('article.post-page .post-page__map .leaflet-tile-loaded').first().waitFor();
    const sideways = () => own.evaluate(() => document.documentElement.scrollWidth);
    expect(await sideways()).toBeLessThanOrEqual(PHONE.width);
    await own.getByRole('switch', { name: 'Location on map' }).focus();
    const tooltip = own.getByRole('tooltip');
    await expect.poll(() => tooltip.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    expect(await sideways()).toBeLessThanOrEqual(PHONE.width);
    const box = await tooltip.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(own, 'post-page-own-390-tooltip');
    await own.context().close();
  });

  it('says a picture one may not see is not available, with a way back to the feed', async () => {
    const page = await viewerPage(PHONE);
    await page.goto('/posts/0b5a3c1e-2f4d-4e6a-8b9c-0d1e2f3a4b5c');
    await page.getByRole('heading', { name: 'This picture is not available' }).waitFor();
    await screenshot(page, 'post-page-not-available-390');
    await page.getByRole('link', { name: 'Back to the feed' }).click();
    await page.waitForURL('**/feed');
    await page.context().close();
  });

  it('gives a link preview to a client without JavaScript, with an image that loads and no location', async () => {
    const res = await fetch(`${server.url}/posts/${post._id}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const tag = (key: string) =>
      new RegExp(`<meta (?:property|name)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)" />`).exec(
        html,
      )?.[1];
    expect(tag('og:title')).toBe('Pepper');
    expect(tag('og:description')).toBe('Asleep on the bins again. Second day running.');
    expect(tag('og:url')).toBe(`${server.url}/posts/${post._id}`);
    expect(tag('twitter:card')).toBe('summary_large_image');
    const image = await fetch(tag('og:image')!);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    expect(html).not.toContain(String(FIXTURE_GPS.latitude).slice(0, 5));
    expect(html).not.toContain(String(FIXTURE_GPS.longitude).slice(0, 5));
    // The app still boots from that page: its module script is there, and the one inline script (the
    // colour scheme before the first paint) is one the CSP allows by its hash; the build's JSON data
    // block is no script.
    expect(html).toMatch(/<script type="module"[^>]* src="\/assets\//);
    const inline = [
      ...html.matchAll(/<script(?![^>]*\b(src=|type="application\/json"))[^>]*>([\s\S]*?)<\/script>/g),
    ].map((m) => `'sha256-${createHash('sha256').update(m[2]!).digest('base64')}'`);
    expect(inline).toHaveLength(1);
    const scriptSrc = /script-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
    expect(scriptSrc?.split(' ')).toContain(inline[0]);
  });
});
