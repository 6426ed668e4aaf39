import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { CreateCatResponse, CreateGroupResponse, Post } from '@cats/contracts';
import { launchBrowser, DESKTOP, PHONE } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { loginThroughUi } from './support/api.ts';
import { apiCall, apiCreatePost, apiUser, type SessionUser } from './support/posts.ts';
import { startTileServer, type TileServer } from './support/tiles.ts';

/**
 * Issue 28: dark mode follows prefers-color-scheme, Settings' 'Appearance' overrides it on this device
 * (applied before the first paint, so a reload stays dark), the map's tiles are dimmed but not its
 * markers, and contrast stays AA on every screen in the dark palette.
 */

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** styles/global.css: --color-bg in each scheme, as getComputedStyle reports it. */
const LIGHT_BG = 'rgb(251, 247, 242)';
const DARK_BG = 'rgb(22, 20, 31)';

interface Screen {
  name: string;
  path: () => string;
  member: boolean;
  ready: (page: Page) => Promise<unknown>;
}

describe('dark mode', () => {
  let server: RunningServer;
  let tiles: TileServer;
  let browser: Browser;
  let member: SessionUser;
  let neighbourId: string;
  let neighbourPost: Post;
  let catId: string;
  let groupId: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    tiles = await startTileServer();
    [server, browser] = await Promise.all([
      startServer({ env: { MAP_TILE_URL: tiles.template } }),
      launchBrowser(),
    ]);
    member = await apiUser(server.url, 'dark');
    const neighbour = await apiUser(server.url, 'night');
    neighbourId = neighbour.userId;
    neighbourPost = await apiCreatePost(server.url, neighbour.accessToken, {
      catName: 'Shadow',
      comment: 'Asleep on the warm bonnet',
      location: { latitude: 37.01, longitude: -4.52 },
    });
    const created = await apiCall<CreateCatResponse>(server.url, neighbour.accessToken, '/api/cats', {
      method: 'POST',
      body: JSON.stringify({ name: 'Shadow', postId: neighbourPost._id }),
    });
    catId = created.cat._id;
    // An unread notification for the member: the highlighted row of /notifications.
    const own = await apiCreatePost(server.url, member.accessToken, {
      comment: 'On the wall again',
      location: { latitude: 37.02, longitude: -4.51 },
    });
    await apiCall(server.url, neighbour.accessToken, `/api/posts/likePost/${own._id}`, {
      method: 'PUT',
      body: '{}',
    });
    const group = await apiCall<CreateGroupResponse>(
      server.url,
      member.accessToken,
      '/api/groups/createGroup',
      {
        method: 'POST',
        body: JSON.stringify({ submitData: 'Night Street' }),
      },
    );
    groupId = group.ownedGroups[0]!._id;
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await server?.dispose();
    await tiles?.close();
  });

  async function openPage(
    viewport: { width: number; height: number },
    colorScheme: 'light' | 'dark',
    signedIn: boolean,
  ): Promise<Page> {
    const context = await browser.newContext({ baseURL: server.url, viewport, colorScheme });
    contexts.push(context);
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    if (signedIn) await loginThroughUi(page, member.email, member.password, { remember: true });
    return page;
  }

  const heading = (page: Page, name: string | RegExp) =>
    page.getByRole('heading', { name }).first().waitFor();
  const rootBackground = (page: Page) =>
    page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

  const screens: Screen[] = [
    { name: 'landing', path: () => '/', member: false, ready: (p) => heading(p, /Neighbourhood Cats/i) },
    { name: 'login', path: () => '/login', member: false, ready: (p) => p.getByLabel('Email').waitFor() },
    {
      name: 'feed',
      path: () => '/feed',
      member: true,
      ready: (p) => p.locator('article[data-post-id]').first().waitFor(),
    },
    {
      name: 'explore',
      path: () => '/explore',
      member: true,
      ready: async (p) => {
        await p.locator('.leaflet-container').waitFor();
        await p.getByText('Tracking neighbourhood cats...').waitFor({ state: 'hidden' });
      },
    },
    {
      name: 'spot',
      path: () => '/spot',
      member: true,
      ready: (p) => p.getByRole('button', { name: 'Add a photo' }).waitFor(),
    },
    {
      name: 'post page',
      path: () => `/posts/${neighbourPost._id}`,
      member: true,
      ready: async (p) => {
        await p.getByText('Asleep on the warm bonnet').first().waitFor();
        await p.locator('.leaflet-tile-loaded').first().waitFor();
      },
    },
    {
      name: 'other profile',
      path: () => `/profile/${neighbourId}`,
      member: true,
      ready: (p) => p.locator('article[data-post-id]').first().waitFor(),
    },
    {
      name: 'my profile',
      path: () => '/profile/me',
      member: true,
      ready: (p) => heading(p, member.username),
    },
    {
      name: 'groups',
      path: () => '/groups',
      member: true,
      ready: (p) => p.getByText('Join or create a group').first().waitFor(),
    },
    {
      name: 'group page',
      path: () => `/groups/${groupId}`,
      member: true,
      ready: (p) => heading(p, 'Night Street'),
    },
    {
      name: 'settings',
      path: () => '/profile/settings',
      member: true,
      ready: (p) => p.getByRole('button', { name: 'Delete account' }).waitFor(),
    },
    {
      name: 'notifications',
      path: () => '/notifications',
      member: true,
      ready: (p) => p.locator('.notification--unread').first().waitFor(),
    },
    {
      name: 'cat page',
      path: () => `/cats/${catId}`,
      member: true,
      ready: (p) => heading(p, 'Shadow'),
    },
  ];

  async function violations(page: Page): Promise<string[]> {
    const result = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
    return result.violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n` +
        v.nodes
          .slice(0, 5)
          .map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ').trim()}`)
          .join('\n'),
    );
  }

  for (const [viewportName, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(
      `axe finds no contrast or other AA problem on any screen in dark mode (${viewportName})`,
      { timeout: 300_000 },
      async () => {
        const visitor = await openPage(viewport, 'dark', false);
        const signedIn = await openPage(viewport, 'dark', true);
        const found: string[] = [];
        for (const screen of screens) {
          const page = screen.member ? signedIn : visitor;
          await page.goto(screen.path());
          await screen.ready(page);
          // The dark palette is really on (not a light page that happens to pass).
          expect(await rootBackground(page), screen.name).toBe(DARK_BG);
          for (const v of await violations(page)) found.push(`${screen.name} ${screen.path()}: ${v}`);
        }
        expect(found, found.join('\n')).toEqual([]);
      },
    );
  }

  /** The 'Appearance' radio button of Settings with this name. */
  const appearance = (page: Page, name: 'System' | 'Light' | 'Dark') =>
    page.getByRole('radiogroup', { name: 'Appearance' }).getByRole('radio', { name, exact: true });

  it('keeps Dark chosen in Settings across a reload while the system is light, and System goes back', async () => {
    const page = await openPage(DESKTOP, 'light', true);
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
    expect(await violations(page)).toEqual([]);

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
    const page = await openPage(PHONE, 'dark', true);
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
      const page = await openPage(DESKTOP, colorScheme, true);
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
