import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP } from './support/browser.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';
import { signInThroughApi } from './support/api.ts';
import { seedNeighbourhood, type Neighbourhood } from './support/screens.ts';

/**
 * Issue 8, point 4: the login and comment flows work with the keyboard alone; dialogs keep focus inside
 * and give it back; every keyboard focus stop shows a visible focus ring. axe on every screen, width,
 * colour scheme and language is a11y.e2e.ts, one of the sweeps (`npm run test:sweeps`).
 */
describe('keyboard', () => {
  let server: RunningServer;
  let browser: Browser;
  let seeded: Neighbourhood;
  const contexts: BrowserContext[] = [];
  /** The member, signed in once (through the API); each test opens its pages here. */
  let member: BrowserContext;

  beforeAll(async () => {
    [server, browser] = await sharedServerAndBrowser();
    seeded = await seedNeighbourhood(server.url);
    // One sign-in for the file: the refresh cookie rotates, so one context rather than a shared
    // storageState (a copy used after its rotation would count as a stolen token).
    member = await newPatientContext();
    const page = await member.newPage();
    await signInThroughApi(page, seeded.member, null);
    await page.close();
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await server?.dispose();
  });

  async function newPatientContext(): Promise<BrowserContext> {
    const context = await browser.newContext({ baseURL: server.url, viewport: DESKTOP, locale: 'en-GB' });
    contexts.push(context);
    context.setDefaultTimeout(60_000);
    return context;
  }

  /** A new page: a visitor's in a context of its own, or one in the member's signed-in context. */
  async function openPage(signedIn: boolean): Promise<Page> {
    const session = signedIn ? member : await newPatientContext();
    // The member's earlier page closes first: two tabs of one session would refresh it on their own.
    if (signedIn) await Promise.all(session.pages().map((p) => p.close()));
    return session.newPage();
  }

  /** Presses Tab until `matches` is true for the focused element; fails after `max` presses. */
  async function tabTo(page: Page, description: string, matches: () => boolean, max = 60) {
    for (let i = 0; i < max; i += 1) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(matches)) return;
    }
    throw new Error(`${description} was not reached with ${max} presses of Tab`);
  }

  it('logs in with the keyboard alone', async () => {
    const page = await openPage(false);
    await page.goto('/login');
    // Spec: the first field is focused on load.
    await page.waitForFunction(
      () =>
        document.activeElement?.getAttribute('type') === 'email' ||
        document.activeElement?.id.includes('email'),
    );
    await page.keyboard.type(seeded.member.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(seeded.member.password);
    await tabTo(page, 'the Log In button', () => document.activeElement?.textContent?.trim() === 'Log In');
    await page.keyboard.press('Enter');
    // Login's default destination is /, which sends members on to their feed (issue 28, point 8).
    await page.waitForURL((url) => url.pathname === '/feed');
    await page.getByRole('link', { name: 'Feed' }).first().waitFor();
  });

  it('posts a comment with the keyboard alone', async () => {
    const page = await openPage(true);
    await page.goto('/feed');
    await page.locator('article[data-post-id]').first().waitFor();
    await tabTo(page, "a card's comments button", () => {
      const el = document.activeElement;
      return !!el?.closest('article[data-post-id]') && /^\d+ comments?$/.test(el?.textContent?.trim() ?? '');
    });
    const postId = await page.evaluate(() =>
      document.activeElement?.closest('article')?.getAttribute('data-post-id'),
    );
    await page.keyboard.press('Enter');
    await page.locator(`article[data-post-id="${postId}"] [name="newComment"]`).waitFor();
    await tabTo(
      page,
      'the comment input',
      () => document.activeElement?.getAttribute('name') === 'newComment',
      30,
    );
    const text = `Typed without a mouse ${Date.now()}`;
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    await page.locator(`article[data-post-id="${postId}"]`).getByText(text).waitFor();
    expect(await page.locator('[name="newComment"]').first().inputValue()).toBe('');
  });

  it('keeps focus inside a dialog and gives it back when the dialog closes', async () => {
    const page = await openPage(true);
    await page.goto('/profile/settings');
    await page.getByRole('button', { name: 'Delete account' }).waitFor();
    await tabTo(
      page,
      'the Delete account button',
      () => document.activeElement?.textContent?.trim() === 'Delete account',
    );
    await page.keyboard.press('Enter');
    const dialog = page.locator('dialog[open]');
    await dialog.waitFor();
    const insideDialog = () => page.evaluate(() => !!document.activeElement?.closest('dialog[open]'));
    expect(await insideDialog()).toBe(true);
    for (let i = 0; i < 6; i += 1) {
      await page.keyboard.press('Tab');
      expect(await insideDialog()).toBe(true);
    }
    for (let i = 0; i < 6; i += 1) {
      await page.keyboard.press('Shift+Tab');
      expect(await insideDialog()).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Delete account');
  });

  /** The focused element draws an outline or a focus shadow of its own. */
  const focusRingOf = () => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { ok: false, what: 'nothing focused' };
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1;
    const shadow = style.boxShadow !== 'none' && style.boxShadow !== '';
    const what = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${Array.from(el.classList).join('.')} "${(el.textContent ?? el.getAttribute('aria-label') ?? '').trim().slice(0, 30)}"`;
    return { ok: outline || shadow, what };
  };

  it('shows a visible focus ring on every keyboard stop', async () => {
    const missing: string[] = [];
    let checked = 0;
    for (const [signedIn, path, stops] of [
      [false, '/', 20],
      [false, '/login', 15],
      [true, '/feed', 25],
      [true, '/profile/settings', 25],
    ] as const) {
      const page = await openPage(signedIn);
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      for (let i = 0; i < stops; i += 1) {
        await page.keyboard.press('Tab');
        const ring = await page.evaluate(focusRingOf);
        // Past the last stop, focus leaves the page for the browser's own controls.
        if (ring.what === 'nothing focused') break;
        checked += 1;
        if (!ring.ok) missing.push(`${path}: ${ring.what}`);
      }
    }
    expect(missing, missing.join('\n')).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });
});
