import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP, PHONE } from './support/browser.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';
import { signInThroughApi } from './support/api.ts';
import type { SessionUser } from './support/posts.ts';
import { axeViolations, DARK_BG, LIGHT_BG, rootBackground, seedNeighbourhood } from './support/screens.ts';

/**
 * Issue 28: dark mode follows prefers-color-scheme, Settings' 'Appearance' overrides it on this device
 * (applied before the first paint, so a reload stays dark), and the map's tiles are dimmed but not its
 * markers. Contrast in the dark palette on every screen is a11y.e2e.ts's dark sweep.
 */

describe('dark mode', () => {
  let server: RunningServer;
  let browser: Browser;
  let member: SessionUser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [server, browser] = await sharedServerAndBrowser();
    // The map needs located posts for its markers; the feed, a card.
    ({ member } = await seedNeighbourhood(server.url));
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await server?.dispose();
  });

  /** A new browser at this size and system colour scheme, signed in as the member. */
  async function openPage(
    viewport: { width: number; height: number },
    colorScheme: 'light' | 'dark',
  ): Promise<Page> {
    const context = await browser.newContext({ baseURL: server.url, viewport, colorScheme });
    contexts.push(context);
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    // Every test opens its screen itself.
    await signInThroughApi(page, member, null);
    return page;
  }

  /** The 'Appearance' radio button of Settings with this name. */
  const appearance = (page: Page, name: 'System' | 'Light' | 'Dark') =>
    page.getByRole('radiogroup', { name: 'Appearance' }).getByRole('radio', { name, exact: true });

  it('keeps Dark chosen in Settings across a reload while the system is light, and System goes back', async () => {
    const page = await openPage(DESKTOP, 'light');
    const blocked: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
    });
    await page.goto('/profile/settings');
    expect(await appearance(page, 'System').isChecked()).toBe(true);
    expect(await rootBackground(page)).toBe(LIGHT_BG);

    await appearance(page, 'Dark').check();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await rootBackground(page)).toBe(DARK_BG);

    // After a reload only index.html's inline script sets data-theme (the app's code sets it only when
    // the choice changes): dark here means that script ran, allowed by the CSP's hash, before the paint.
    await page.reload();
    await page.getByRole('button', { name: 'Delete account' }).waitFor();
    expect(await appearance(page, 'Dark').isChecked()).toBe(true);
    expect(await rootBackground(page)).toBe(DARK_BG);
    expect(
      await page
        .locator('meta[name="theme-color"]')
        .evaluateAll((metas) => metas.map((m) => `${m.getAttribute('media')} ${m.getAttribute('content')}`)),
    ).toEqual(['all #231f36', 'all #231f36']);
    expect(await axeViolations(page)).toEqual([]);

    // Other screens follow the choice too.
    await page.goto('/feed');
    await page.locator('article[data-post-id]').first().waitFor();
    expect(await rootBackground(page)).toBe(DARK_BG);

    await page.goto('/profile/settings');
    await appearance(page, 'System').check();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
    expect(await rootBackground(page)).toBe(LIGHT_BG);
    await page.reload();
    await page.getByRole('button', { name: 'Delete account' }).waitFor();
    expect(await rootBackground(page)).toBe(LIGHT_BG);
    expect(blocked).toEqual([]);
  });

  it('keeps Light chosen in Settings while the system is dark', async () => {
    const page = await openPage(PHONE, 'dark');
    await page.goto('/profile/settings');
    expect(await rootBackground(page)).toBe(DARK_BG);
    await appearance(page, 'Light').check();
    expect(await rootBackground(page)).toBe(LIGHT_BG);
    await page.reload();
    await page.getByRole('button', { name: 'Delete account' }).waitFor();
    expect(await appearance(page, 'Light').isChecked()).toBe(true);
    expect(await rootBackground(page)).toBe(LIGHT_BG);
  });

  it("dims the map's tiles in dark mode, never its markers", async () => {
    const filters = async (colorScheme: 'light' | 'dark') => {
      const page = await openPage(DESKTOP, colorScheme);
      await page.goto('/explore');
      await page.locator('.leaflet-tile-loaded').first().waitFor();
      await page.locator('.leaflet-marker-icon').first().waitFor();
      return page.evaluate(() => ({
        tiles: getComputedStyle(document.querySelector('.leaflet-tile-pane')!).filter,
        markers: getComputedStyle(document.querySelector('.leaflet-marker-pane')!).filter,
        marker: getComputedStyle(document.querySelector('.leaflet-marker-icon')!).filter,
      }));
    };
    const dark = await filters('dark');
    expect(dark.tiles).toContain('invert(1)');
    expect(dark.markers).toBe('none');
    expect(dark.marker).not.toContain('invert');
    const light = await filters('light');
    expect(light.tiles).toBe('none');
  });
});
