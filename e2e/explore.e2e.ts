import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP, PHONE, screenshot } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { sharedBrowser } from './support/shared.ts';
import { signInThroughApi } from './support/api.ts';

/** A seeded sample user (apps/server/src/seed/sample-content.ts; password documented in the README). */
const SEEDED = { email: 'mariposa@example.com', password: 'Neighbour1Cats' };
const LOADING = 'Tracking neighbourhood cats...';
const POST_MARKER = /^(Photo of|Cat photo by) /;

/** Issue 6: the Explore map over a real server with the seeded posts around southern Spain. */
describe('explore', () => {
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  // A server of its own, with no tile server (the checks of tiles that cannot load) and the seed's
  // clusters as the seed left them; the worker's browser.
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), sharedBrowser()]);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.dispose();
  });

  async function signedIn(viewport: {
    width: number;
    height: number;
  }): Promise<{ page: Page; context: BrowserContext }> {
    const context = await browser.newContext({ baseURL: server.url, viewport });
    contexts.push(context);
    const page = await context.newPage();
    // Every test opens its screen itself.
    await signInThroughApi(page, SEEDED, null);
    return { page, context };
  }

  const postMarkers = (page: Page) => page.locator('.explore-marker[role="button"]');
  const clusters = (page: Page) => page.locator('.explore-cluster[role="button"]');
  const anyMarker = (page: Page) => page.locator('.explore-marker, .explore-cluster').first();

  /** Zooms into clusters (as a person would, by clicking them) until single posts show. */
  async function findPostMarker(page: Page) {
    for (let i = 0; i < 10 && (await postMarkers(page).count()) === 0; i += 1) {
      const cluster = page.locator('.explore-cluster:not(.explore-cluster--stack)').first();
      await Promise.all([page.waitForResponse((r) => r.url().includes('/api/explore?')), cluster.click()]);
      await page.waitForTimeout(500);
    }
    const marker = postMarkers(page).first();
    await marker.waitFor();
    return marker;
  }

  /** Tiles cannot load here (no network): wait until Chromium has given up on them. */
  async function tilesSettled(page: Page) {
    await expect
      .poll(
        () =>
          page.evaluate(() => {
            const tiles = Array.from(document.querySelectorAll<HTMLImageElement>('img.leaflet-tile'));
            return tiles.length > 0 && tiles.every((t) => t.complete);
          }),
        { timeout: 30_000 },
      )
      .toBe(true);
  }

  async function openExplore(page: Page) {
    await page.goto('/explore');
    await anyMarker(page).waitFor();
    await expect.poll(() => page.getByText(LOADING).count()).toBe(0);
  }

  it('downloads the map only on the Explore screen', async () => {
    const { page } = await signedIn(DESKTOP);
    const mapAssets: string[] = [];
    page.on('request', (r) => {
      if (/leaflet|TileLayer|explore-map/i.test(r.url())) mapAssets.push(r.url());
    });
    await page.goto('/feed');
    await page.locator('article[data-post-id]').first().waitFor();
    expect(mapAssets).toEqual([]);

    // While the first viewport loads, the spec's text shows.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/explore?**', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('link', { name: 'Explore' }).first().click();
    await page.getByText(LOADING).waitFor();
    release();
    await anyMarker(page).waitFor();
    expect(await page.getByText(LOADING).count()).toBe(0);
    expect(mapAssets.some((u) => /\.js$/.test(u))).toBe(true);
    expect(mapAssets.some((u) => /\.css$/.test(u))).toBe(true);
  });

  it('shows the seeded cats as round 64 px pictures over a plain background, clusters zoom in', async () => {
    const { page } = await signedIn(DESKTOP);
    const requests: URL[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/explore?')) requests.push(new URL(r.url()));
    });
    await openExplore(page);
    await tilesSettled(page);

    // Default view: southern Spain at zoom 8.
    const first = requests[0]!;
    expect(first.searchParams.get('zoom')).toBe('8');
    const lat = (Number(first.searchParams.get('south')) + Number(first.searchParams.get('north'))) / 2;
    const lng = (Number(first.searchParams.get('west')) + Number(first.searchParams.get('east'))) / 2;
    expect(lat).toBeCloseTo(37, 0);
    expect(lng).toBeCloseTo(-4.5, 0);

    // Zoomed out, the seeded towns are clusters: a picture, a count, keyboard-focusable.
    expect((await postMarkers(page).count()) + (await clusters(page).count())).toBeGreaterThan(3);
    const counts = await clusters(page).evaluateAll((els) =>
      els.map((el) => Number(el.querySelector('.explore-cluster__count')!.textContent)),
    );
    expect(counts.every((n) => n >= 2)).toBe(true);
    expect(await clusters(page).first().getAttribute('tabindex')).toBe('0');
    expect(await clusters(page).first().getAttribute('title')).toMatch(/^\d+ cats spotted/);

    // No broken-image grid: every tile that failed is hidden, and the map's own background shows.
    const tiles = await page.evaluate(() => {
      const all = Array.from(document.querySelectorAll<HTMLImageElement>('img.leaflet-tile'));
      return {
        total: all.length,
        brokenVisible: all.filter((t) => t.naturalWidth === 0 && getComputedStyle(t).visibility !== 'hidden')
          .length,
        background: getComputedStyle(document.querySelector('.leaflet-container')!).backgroundColor,
      };
    });
    expect(tiles.total).toBeGreaterThan(0);
    expect(tiles.brokenVisible).toBe(0);
    expect(tiles.background).toBe('rgb(232, 226, 214)');
    await expect
      .poll(() => page.locator('.leaflet-control-attribution').textContent())
      .toContain('OpenStreetMap');
    await screenshot(page, 'explore-default-1280');

    // A cluster zooms in on click, until single posts stand alone.
    const before = requests.length;
    const marker = await findPostMarker(page);
    expect(requests.length).toBeGreaterThan(before);
    expect(Number(requests.at(-1)!.searchParams.get('zoom'))).toBeGreaterThan(8);
    const look = await marker.evaluate((el) => {
      const img = el.querySelector('img')!;
      const style = getComputedStyle(el);
      return {
        width: el.getBoundingClientRect().width,
        radius: style.borderRadius,
        tabIndex: el.tabIndex,
        src: img.currentSrc || img.src,
        loaded: img.complete && img.naturalWidth > 0,
      };
    });
    expect(look).toMatchObject({ width: 64, radius: '50%', tabIndex: 0, loaded: true });
    expect(look.src).toMatch(/\/64\.webp$/);
    await tilesSettled(page);
    await screenshot(page, 'explore-markers-1280');

    // Panning a little reloads the viewport (debounced) and keeps the markers still in view.
    await marker.evaluate((el) => {
      (window as unknown as { keptMarker: Element }).keptMarker = el;
    });
    const reloads = requests.length;
    const map = page.locator('.leaflet-container');
    const box = (await map.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 20, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => requests.length).toBeGreaterThan(reloads);
    await page.waitForTimeout(500);
    // The same element: it was neither removed nor re-created.
    expect(
      await page.evaluate(() => (window as unknown as { keptMarker: Element }).keptMarker.isConnected),
    ).toBe(true);
  });

  it('opens a detail card, likes, comments and closes back to the same view', async () => {
    const { page } = await signedIn(DESKTOP);
    await openExplore(page);
    const marker = await findPostMarker(page);
    const name = (await marker.getAttribute('title'))!;
    expect(name).toMatch(POST_MARKER);
    const box = await marker.boundingBox();
    // The viewport answer carries markers only; the card's post loads when the pointer comes over it,
    // and the click that follows finds it loaded.
    const cardRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/explore/posts?')) cardRequests.push(r.url());
    });
    await marker.hover();
    await expect.poll(() => cardRequests.length).toBe(1);
    await marker.click();

    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(cardRequests).toHaveLength(1);
    const picture = dialog.getByRole('img', { name });
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    expect(await picture.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/\/400\.webp$/);
    expect(await dialog.locator('.post-author__name').textContent()).toBeTruthy();

    const like = dialog.getByRole('button', { name: /^Like,/ });
    // The count is the button beside the heart (it opens 'Liked by').
    const likeCount = dialog.locator('.post-like__count');
    const count = Number(await likeCount.textContent());
    const wasLiked = (await like.getAttribute('aria-pressed')) === 'true';
    await like.click();
    await expect.poll(() => like.getAttribute('aria-pressed')).toBe(wasLiked ? 'false' : 'true');
    await expect.poll(async () => Number(await likeCount.textContent())).toBe(count + (wasLiked ? -1 : 1));

    await dialog.getByRole('button', { name: /comments?$/ }).click();
    const text = `Spotted from the map ${Date.now()}`;
    await dialog.getByLabel('Add a comment').fill(text);
    await dialog.getByRole('button', { name: 'Post', exact: true }).click();
    await dialog.getByText(text).waitFor();
    await screenshot(page, 'explore-detail-1280');

    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // Same map view: the marker did not move, and focus is back on it.
    expect(await marker.boundingBox()).toEqual(box);
    expect(await marker.evaluate((el) => el === document.activeElement)).toBe(true);

    // Reopening shows the like and the comment (served again by the server).
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await expect
      .poll(() => dialog.getByRole('button', { name: /^Like,/ }).getAttribute('aria-pressed'))
      .toBe(wasLiked ? 'false' : 'true');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  });

  it('works on a phone, with the card fitting the screen', async () => {
    const { page } = await signedIn(PHONE);
    await openExplore(page);
    await tilesSettled(page);
    await screenshot(page, 'explore-default-390');
    await (await findPostMarker(page)).click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await tilesSettled(page);
    await screenshot(page, 'explore-markers-390');
    await postMarkers(page).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog
      .locator('img.post-image__img')
      .evaluate((img: HTMLImageElement) =>
        img.complete ? null : new Promise((resolve) => img.addEventListener('load', resolve, { once: true })),
      );
    const width = await dialog.evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'explore-detail-390');
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('centres on the browser position with Locate me', async () => {
    const { page, context } = await signedIn(DESKTOP);
    await context.grantPermissions(['geolocation'], { origin: server.url });
    await context.setGeolocation({ latitude: 36.7213, longitude: -4.4214 });
    await openExplore(page);
    const next = page.waitForRequest((r) => {
      if (!r.url().includes('/api/explore?')) return false;
      const q = new URL(r.url()).searchParams;
      return (
        Number(q.get('zoom')) >= 13 && Number(q.get('west')) < -4.4214 && Number(q.get('east')) > -4.4214
      );
    });
    await page.getByRole('button', { name: 'Locate me' }).click();
    await next;
  });
});
