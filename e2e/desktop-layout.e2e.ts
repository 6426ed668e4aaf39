import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, DESKTOP, PHONE } from './support/browser.ts';
import { axeOn } from './support/screens.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { signInThroughApi } from './support/api.ts';
import { apiCall, apiCreatePost, apiUser, type SessionUser } from './support/posts.ts';
import { startTileServer, type TileServer } from './support/tiles.ts';

/** WCAG 2.0-2.2 A and AA, plus axe's best practices: the same tags as e2e/a11y.e2e.ts. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const LOADING = 'Tracking neighbourhood cats...';
const LIST = 'Cats on this part of the map';
const SIDE = 'Your groups and missing cats';
const GROUP = 'Desktop Street';

/** Three posts in the default view (southern Spain, zoom 8), far enough apart to stand alone; one far off. */
const SPOTS = [
  { catName: 'Miso', location: { latitude: 37.0, longitude: -4.5 } },
  { catName: 'Tigre', location: { latitude: 37.0, longitude: -3.3 } },
  { catName: 'Canela', location: { latitude: 36.4, longitude: -5.5 } },
  { catName: 'Faraway', location: { latitude: 43.3, longitude: -8.4 } },
];

/**
 * Issue 28, "Desktop uses its width": at 1280 px Explore lists the posts on screen beside the map and
 * hovering highlights their markers (and back); the feed has a side column with the reader's groups.
 * At 390 px neither appears. axe checks both screens in both colour schemes. An unseeded server, so
 * the map holds these posts only.
 */
describe('desktop layout', () => {
  let server: RunningServer;
  let tiles: TileServer;
  let browser: Browser;
  let member: SessionUser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    tiles = await startTileServer();
    [server, browser] = await Promise.all([
      startServer({ seed: false, env: { MAP_TILE_URL: tiles.template } }),
      launchBrowser(),
    ]);
    member = await apiUser(server.url, 'wide');
    await Promise.all([
      ...SPOTS.map((spot) => apiCreatePost(server.url, member.accessToken, spot)),
      apiCall(server.url, member.accessToken, '/api/groups/createGroup', {
        method: 'POST',
        body: JSON.stringify({ submitData: GROUP }),
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
    await browser?.close();
    await server?.dispose();
    await tiles?.close();
  });

  // One signed-in page per width and scheme, shared by the tests: logging in is most of a test's time.
  const pages = new Map<string, Promise<Page>>();
  function open(
    viewport: { width: number; height: number },
    colorScheme: 'light' | 'dark' = 'light',
  ): Promise<Page> {
    const key = `${viewport.width}-${colorScheme}`;
    let page = pages.get(key);
    if (!page) {
      page = (async () => {
        const context = await browser.newContext({ baseURL: server.url, viewport, colorScheme });
        contexts.push(context);
        const opened = await context.newPage();
        // Every test opens its screen itself.
        await signInThroughApi(opened, member, null);
        return opened;
      })();
      pages.set(key, page);
    }
    return page;
  }

  async function openExplore(page: Page) {
    await page.goto('/explore');
    await page.locator('.explore-marker').first().waitFor();
    await expect.poll(() => page.getByText(LOADING).count()).toBe(0);
  }

  async function violations(page: Page): Promise<string[]> {
    const result = await axeOn(page).withTags(AXE_TAGS).analyze();
    return result.violations.map(
      (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  }

  const marker = (page: Page, name: string) => page.locator(`.explore-marker[title="Photo of ${name}"]`);
  const highlighted = (page: Page, name: string) =>
    marker(page, name).evaluate((el) => el.classList.contains('explore-marker--highlighted'));

  it('Explore at 1280 px lists the posts on screen, and hovering an item or a marker highlights the other', async () => {
    const page = await open(DESKTOP);
    await openExplore(page);
    const list = page.getByRole('complementary', { name: LIST });
    const items = list.getByRole('button');
    await expect.poll(() => items.count()).toBe(3);
    const names = await list.locator('.explore-list__name').allTextContents();
    expect(names.sort()).toEqual(['Canela', 'Miso', 'Tigre']);
    expect(await list.getByText('3 cats are shown on the map.').isVisible()).toBe(true);

    // The list's item highlights its marker, and only while pointed at.
    const miso = items.filter({ hasText: 'Miso' });
    expect(await highlighted(page, 'Miso')).toBe(false);
    await miso.hover();
    await expect.poll(() => highlighted(page, 'Miso')).toBe(true);
    expect(await highlighted(page, 'Tigre')).toBe(false);
    // And the marker its item.
    await marker(page, 'Tigre').hover();
    await expect.poll(() => highlighted(page, 'Miso')).toBe(false);
    const tigre = items.filter({ hasText: 'Tigre' });
    await expect
      .poll(() => tigre.evaluate((el) => el.classList.contains('explore-list__item--highlighted')))
      .toBe(true);

    // The keyboard: focusing an item highlights its marker; Enter opens its card, as a marker click.
    await miso.focus();
    await expect.poll(() => highlighted(page, 'Miso')).toBe(true);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Miso').first().waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it("the feed at 1280 px has a side column with the reader's groups", async () => {
    const page = await open(DESKTOP);
    await page.goto('/feed');
    const side = page.getByRole('complementary', { name: SIDE });
    const link = side.getByRole('link', { name: GROUP });
    await link.waitFor();
    expect(await link.getAttribute('href')).toMatch(/^\/groups\/[0-9a-f-]+$/);
    // Beside the posts, which keep their width.
    const card = await page.locator('article').first().boundingBox();
    const column = await side.boundingBox();
    expect(card!.width).toBeGreaterThanOrEqual(600);
    expect(column!.x).toBeGreaterThan(card!.x + card!.width);
  });

  it('at 390 px neither the list nor the side column appears', async () => {
    const page = await open(PHONE);
    await openExplore(page);
    expect(await page.getByRole('complementary', { name: LIST }).count()).toBe(0);
    await page.goto('/feed');
    await page.locator('article').first().waitFor();
    expect(await page.getByRole('complementary', { name: SIDE }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Your groups' }).count()).toBe(0);
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`axe finds nothing on the desktop Explore and feed (${scheme})`, async () => {
      const page = await open(DESKTOP, scheme);
      await openExplore(page);
      await page.getByRole('complementary', { name: LIST }).getByRole('button').first().waitFor();
      const found = (await violations(page)).map((v) => `explore: ${v}`);
      await page.goto('/feed');
      await page.getByRole('complementary', { name: SIDE }).getByRole('link', { name: GROUP }).waitFor();
      await page.locator('article').first().waitFor();
      found.push(...(await violations(page)).map((v) => `feed: ${v}`));
      expect(found).toEqual([]);
    });
  }
});
