import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { signInThroughApi } from './support/api.ts';
import { DESKTOP, PHONE } from './support/browser.ts';
import { apiCreatePost, apiUser, fixture } from './support/posts.ts';
import { installability, swControls } from './support/installability.ts';
import { serverAndBrowser } from './support/suite.ts';

/**
 * Issue 28, the installable and offline app: the manifest and service worker pass Chromium's
 * installability checks, a visited feed reloads offline with its photos (and the person stays signed
 * in), and a photo shared to the app opens Spot ready to crop.
 */

/** Every photo of the cards on screen has loaded with real pixels (not a broken image). */
async function cardImagesLoaded(page: Page): Promise<number> {
  return page.evaluate(() => {
    const images = Array.from(
      document.querySelectorAll<HTMLImageElement>('article[data-post-id] img'),
    ).filter((img) => img.getBoundingClientRect().top < window.innerHeight);
    return images.every((img) => img.complete && img.naturalWidth > 0) ? images.length : 0;
  });
}

const offlineBar = (page: Page) => page.getByRole('status').filter({ hasText: 'You are offline' });

describe('installable and offline app', () => {
  const suite = serverAndBrowser();

  async function signedIn(viewport: {
    width: number;
    height: number;
  }): Promise<{ context: BrowserContext; page: Page }> {
    const user = await apiUser(suite.server.url, 'pocket');
    await apiCreatePost(suite.server.url, user.accessToken, {
      image: fixture('photo-no-gps.jpg'),
      comment: 'Offline cat',
    });
    const context = await suite.browser.newContext({
      baseURL: suite.server.url,
      viewport,
      serviceWorkers: 'allow',
    });
    const page = await context.newPage();
    // Each test opens the feed itself, under the service worker it checks.
    await signInThroughApi(page, user, null);
    return { context, page };
  }

  it('has a manifest and a service worker that Chromium finds installable', async () => {
    const report = await installability(suite.server.url);
    expect(report.manifestErrors).toEqual([]);
    expect(report.manifestUrl).toBe(`${suite.server.url}/manifest.webmanifest`);
    expect(report.manifest).toMatchObject({
      name: 'Neighbourhood Cats',
      display: 'standalone',
      start_url: '/feed',
      theme_color: '#2f2a4a',
    });
    expect(report.manifest.shortcuts).toEqual([
      expect.objectContaining({ url: '/spot' }),
      expect.objectContaining({ url: '/explore' }),
    ]);
    const purposes = (report.manifest.icons as { sizes: string; purpose: string }[]).map(
      (i) => `${i.sizes} ${i.purpose}`,
    );
    expect(purposes).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    expect(report.installabilityErrors).toEqual([]);

    // The server's side: the manifest's type, and a worker script the browser revalidates every time.
    const manifestResponse = await fetch(`${suite.server.url}/manifest.webmanifest`);
    expect(manifestResponse.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const sw = await fetch(`${suite.server.url}/sw.js`);
    expect(sw.headers.get('cache-control')).toMatch(/no-cache|max-age=0/);
  });

  for (const [name, viewport] of [
    ['390', PHONE],
    ['1280', DESKTOP],
  ] as const) {
    it(`reloads a visited feed offline, signed in, with its photos (${name} px)`, async () => {
      const { context, page } = await signedIn(viewport);
      await page.goto('/feed');
      await swControls(page);
      // A reload under the worker's control, so that its answers are what the offline reload finds.
      await page.reload();
      await page.locator('article[data-post-id]').first().waitFor();
      await expect.poll(() => cardImagesLoaded(page)).toBeGreaterThan(0);
      // The first cards render first, the rest of the page right after (components/post/infinite-list.tsx).
      await expect.poll(() => page.locator('article[data-post-id]').count()).toBe(20);
      expect(await offlineBar(page).count()).toBe(0);

      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      await context.setOffline(true);
      await page.reload();
      await page.locator('article[data-post-id]').first().waitFor();
      expect(new URL(page.url()).pathname).toBe('/feed');
      await expect.poll(() => page.locator('article[data-post-id]').count()).toBe(20);
      await expect.poll(() => cardImagesLoaded(page)).toBeGreaterThan(0);
      await offlineBar(page).waitFor();
      expect(await offlineBar(page).textContent()).toContain('You are offline.');
      // The member's navigation is there: the person is still signed in.
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: /Spot/ })
        .first()
        .waitFor();
      await page.screenshot({ path: `/work/shots/pwa-offline-feed-${name}.png` });
      // The refresh that could not reach the server is handled, not an uncaught 'Failed to fetch'.
      expect(errors).toEqual([]);

      // A like cannot reach the server: it says so instead of failing silently.
      await page
        .locator('article[data-post-id]')
        .first()
        .getByRole('button', { name: /^Like,/ })
        .click();
      await page
        .getByText('You are offline, so this was not saved. Try again when you are back online.')
        .waitFor();

      // Spot's screen opens offline too (the app shell).
      await page.goto('/spot');
      await page.getByRole('heading', { name: 'Snap a cat' }).waitFor();

      await context.setOffline(false);
      await expect.poll(() => offlineBar(page).count()).toBe(0);
      // Back online, the session is restored: a fresh feed loads from the server.
      await page.goto('/feed');
      await page.locator('article[data-post-id]').first().waitFor();
      expect(new URL(page.url()).pathname).toBe('/feed');
      await context.close();
    });
  }

  it('forgets the offline copies of a person at logout', async () => {
    const { context, page } = await signedIn(DESKTOP);
    await page.goto('/feed');
    await swControls(page);
    await page.reload();
    await page.locator('article[data-post-id]').first().waitFor();
    await expect.poll(() => page.evaluate(() => caches.has('cats-api-v1'))).toBe(true);
    await page.getByRole('button', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.evaluate(() => caches.has('cats-api-v1'))).toBe(false);
    await context.close();
  });

  it('opens Spot with a photo shared from another app, ready to crop', async () => {
    const { context, page } = await signedIn(PHONE);
    await page.goto('/feed');
    await swControls(page);
    const photo = fixture('photo-gps.jpg').toString('base64');
    // What Android's share sheet sends: a multipart POST to the manifest's share_target action, as a
    // navigation. A form submitted by the page is that same request.
    await page.evaluate((base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const form = document.createElement('form');
      form.method = 'POST';
      form.action = '/share-target';
      form.enctype = 'multipart/form-data';
      const input = document.createElement('input');
      input.type = 'file';
      input.name = 'photo';
      const files = new DataTransfer();
      files.items.add(new File([bytes], 'shared-cat.jpg', { type: 'image/jpeg' }));
      input.files = files.files;
      form.append(input);
      document.body.append(form);
      form.submit();
    }, photo);
    await page.waitForURL((url) => url.pathname === '/spot' && url.searchParams.get('shared') === '1');
    const dialog = page.getByRole('dialog', { name: 'Crop your picture' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Crop' }).click();
    await page.getByRole('img', { name: 'Your cropped picture' }).waitFor();
    // Taken once: a reload of the address does not bring it back.
    await page.reload();
    await page.getByRole('heading', { name: 'Snap a cat' }).waitFor();
    await page.waitForTimeout(500);
    expect(await dialog.count()).toBe(0);
    await context.close();
  });
});
