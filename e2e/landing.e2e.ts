import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, newContext, PHONE, screenshot } from './support/browser.ts';
import { axeOn } from './support/screens.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';

/** Issue 2, point 11: the public pages of the app shell (spec sections 1 and 2). */
describe('landing page and public screens', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await sharedServerAndBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  async function open(path: string, viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
    const context = await newContext(browser, server.url, viewport);
    const page = await context.newPage();
    await page.goto(path);
    return page;
  }

  /** WCAG 2.1 AA rules of axe-core; returns the violations as 'rule: target' lines for a readable failure. */
  async function axeViolations(page: Page): Promise<string[]> {
    const result = await axeOn(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  }

  it.each([
    ['landing-390', PHONE],
    ['landing-1280', DESKTOP],
  ] as const)('shows the hero, features, description, stack and footer (%s)', async (name, viewport) => {
    const page = await open('/', viewport);
    const h1 = page.getByRole('heading', { level: 1 });
    await h1.waitFor();
    expect(await h1.textContent()).toBe('Neighbourhood Cats');
    const main = page.getByRole('main');

    // Three feature cards: take pictures, share, explore.
    for (const title of ['Take pictures', 'Share', 'Explore']) {
      expect(await main.getByRole('heading', { level: 3, name: title, exact: true }).count()).toBe(1);
    }
    expect(await main.getByText('Connect with people and discover cats worldwide.').count()).toBe(1);
    expect(await main.getByText('Track the cats of your friend groups on a map.').count()).toBe(1);

    // Description with a 'Sign up' link to /signup.
    const signUp = main.getByRole('link', { name: 'Sign up', exact: true });
    expect(await signUp.getAttribute('href')).toBe('/signup');

    // 'Made using': the kinds of technology and what we really use.
    await main.getByRole('heading', { name: 'Made using' }).waitFor();
    const stack = await main.locator('.landing-stack__item').allTextContents();
    expect(stack).toEqual([
      'DatabasePostgreSQL',
      'Server frameworkFastify',
      'UI libraryReact',
      'Server runtimeNode.js',
    ]);

    // Footer: current year and the author's link.
    const footer = page.getByRole('contentinfo');
    expect(await footer.textContent()).toContain(String(new Date().getFullYear()));
    expect(await footer.getByRole('link').getAttribute('href')).toMatch(/^https?:\/\//);

    // The screenshots are our own illustrations, served by the app, and they load.
    const shots = main.locator('#screenshots img');
    expect(await shots.count()).toBe(3);
    for (const img of await shots.all()) {
      expect(await img.getAttribute('alt')).toBeTruthy();
      await img.scrollIntoViewIfNeeded();
      await expect
        .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth))
        .toBeGreaterThan(0);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, name);

    // Nothing is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('scrolls down to the screenshots with the scroll-down button', async () => {
    const page = await open('/', PHONE);
    const section = page.locator('#screenshots');
    await section.waitFor();
    const top = () => section.evaluate((el) => Math.round(el.getBoundingClientRect().top));
    // Below the hero, at the bottom edge of the first screen at most.
    expect(await top()).toBeGreaterThan(PHONE.height * 0.75);
    await page.getByRole('button', { name: 'See the app' }).click();
    await expect.poll(top).toBeLessThan(150);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('screenshots');
    await page.context().close();
  });

  it('shows the visitor navigation and works at 360 px', async () => {
    const page = await open('/', { width: 360, height: 740 });
    const nav = page.getByRole('navigation', { name: 'Main' });
    const links = nav.getByRole('link');
    await links.first().waitFor();
    expect(await links.allTextContents()).toEqual(['Log in as demo user', 'Log in', 'Sign up']);
    expect(await nav.getByRole('link', { name: 'Log in as demo user' }).getAttribute('href')).toBe('/login');
    expect(await nav.getByRole('link', { name: 'Log in', exact: true }).getAttribute('href')).toBe('/login');
    expect(await nav.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/signup');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // Each link stays on one line.
    for (const link of await links.all()) {
      const box = await link.boundingBox();
      expect(box!.height).toBeLessThan(50);
    }
    // Logged-in sections are not offered.
    expect(await page.getByRole('link', { name: 'Feed' }).count()).toBe(0);

    // 'Log in as demo user' opens the login with the demo account filled in.
    await nav.getByRole('link', { name: 'Log in as demo user' }).click();
    await page.waitForURL('**/login');
    await expect.poll(() => page.getByLabel('Email').inputValue()).toBe('demo@neighbourhood.cats');
    await screenshot(page, 'login-demo-360');
    await page.context().close();
  });

  it('shows the not-found page with a homepage link and a go-back button', async () => {
    const page = await open('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    // An in-app navigation to a dead link (as a link inside the app would do it).
    await page.evaluate(() => {
      window.history.pushState({ usr: null, key: 'e2e', idx: 1 }, '', '/no/such/page');
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    });
    const heading = page.getByRole('heading', { level: 1 });
    await expect.poll(() => heading.textContent()).toBe('Oops! Page Not Found');
    expect(await page.title()).toBe('Page not found · Neighbourhood Cats');
    await screenshot(page, 'not-found-1280');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Go back' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Neighbourhood Cats');

    await page.goto('/also/missing');
    await page.getByRole('link', { name: 'Go to the homepage' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.context().close();

    // Opened directly (nothing to go back to), 'Go back' still leads somewhere useful: home.
    const direct = await open('/missing-too', PHONE);
    await direct.getByRole('heading', { name: 'Oops! Page Not Found' }).waitFor();
    await screenshot(direct, 'not-found-390');
    await direct.getByRole('button', { name: 'Go back' }).click();
    await direct.waitForURL((url) => url.pathname === '/');
    await direct.context().close();
  });

  it('shows the goodbye page, and sends visitors of members-only pages to the login', async () => {
    const page = await open('/goodbye', PHONE);
    await page.getByText('Your account has been deleted.').waitFor();
    expect(
      await page.getByRole('main').getByRole('link', { name: 'Go to the homepage' }).getAttribute('href'),
    ).toBe('/');
    await screenshot(page, 'goodbye-390');
    expect(await axeViolations(page)).toEqual([]);

    for (const path of ['/about', '/feed', '/profile/settings']) {
      await page.goto(path);
      await page.waitForURL('**/login');
      await page.getByRole('heading', { name: 'Log in' }).waitFor();
    }
    await page.context().close();
  });

  it('answers unknown API paths with JSON, not the app', async () => {
    const res = await fetch(`${server.url}/api/no-such-endpoint`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { message: string }).message).toBeTruthy();
  });

  it("paints 'Loading...' before the app's code arrives, then the screen replaces it", async () => {
    const context = await newContext(browser, server.url, PHONE);
    const page = await context.newPage();
    // Hold the app's scripts, as a slow phone network would.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/*.js', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/', { waitUntil: 'commit' });
    const status = page.getByRole('status');
    await status.waitFor();
    expect(await status.textContent()).toBe('Loading...');
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(0);
    await screenshot(page, 'loading-shell-390');

    release();
    await page.getByRole('heading', { level: 1, name: 'Neighbourhood Cats' }).waitFor();
    expect(await page.getByText('Loading...', { exact: true }).count()).toBe(0);
    await context.close();
  });

  it('tells a browser without JavaScript that the app needs it', async () => {
    const context = await browser.newContext({ baseURL: server.url, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/feed');
    expect(await page.locator('.noscript').isVisible()).toBe(true);
    expect(await page.locator('.noscript').textContent()).toBe(
      'Neighbourhood Cats needs JavaScript: turn it on and reload the page.',
    );
    expect(await page.getByText('Loading...', { exact: true }).isVisible()).toBe(false);
    await screenshot(page, 'noscript-1280');
    await context.close();
  });
});
