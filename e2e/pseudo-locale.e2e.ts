import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, PHONE, launchBrowser, newContext, screenshot } from './support/browser.ts';
import type { CreateCatResponse } from '@cats/contracts';
import { apiCall, apiCreatePost, apiUser, type SessionUser } from './support/posts.ts';
import { ROOT, startServer, type RunningServer } from './support/server.ts';
import { loginInAnyLanguage } from './support/api.ts';

/**
 * Issue 28: a pseudo-locale run. The app built with PSEUDO_LOCALE shows every message as accented,
 * bracketed pseudo-text ('[Ŧřẏ ŧħḗḗ ḓḗḗḿǿǿ]'), so any plain English letters left on a screen are a text
 * that does not go through a message. User content (names, email), dates (Intl), the language names
 * (each in its own language) and names marked translate="no" are the only plain text allowed.
 */
const WEB = join(ROOT, 'apps', 'web');
const PSEUDO_DIST = join(WEB, 'dist-pseudo');

/** Plain English left in text and in the attributes people read or hear, with where it is. */
async function untranslated(page: Page, allowed: string[]): Promise<string[]> {
  return page.evaluate((allow) => {
    const found: string[] = [];
    const plain = (text: string) => {
      let rest = text;
      for (const a of [...allow].sort((x, y) => y.length - x.length)) rest = rest.split(a).join(' ');
      return /[A-Za-z]{2,}/.test(rest);
    };
    // Not messages: dates (Intl), each language's name in itself ([lang]), names marked translate="no"
    // (the stack, the demo's credentials), the map's attribution, and index.html's noscript sentence.
    const exempt = (el: Element | null) =>
      !!el?.closest(
        'script, style, noscript, time, [lang]:not(html), [translate="no"], .leaflet-control-attribution',
      );
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      if (!exempt(node.parentElement) && plain(text)) found.push(`text: ${text.trim()}`);
    }
    for (const el of Array.from(
      document.body.querySelectorAll('[aria-label], [alt], [title], [placeholder]'),
    )) {
      if (exempt(el)) continue;
      for (const name of ['aria-label', 'alt', 'title', 'placeholder']) {
        const value = el.getAttribute(name);
        if (value && plain(value)) found.push(`${name}: ${value}`);
      }
    }
    const title = document.title;
    if (plain(title)) found.push(`title: ${title}`);
    return found;
  }, allowed);
}

describe('pseudo-locale', () => {
  let server: RunningServer;
  let browser: Browser;
  let member: SessionUser;
  let post: { _id: string };
  let catId: string;
  const CAT = 'Michi';
  const CAPTION = 'Miau miau';

  beforeAll(async () => {
    execFileSync('npm', ['run', 'build:pseudo', '-w', 'apps/web'], { cwd: ROOT, stdio: 'pipe' });
    // No seed: every text on screen is the app's, except this member's own name and email.
    [server, browser] = await Promise.all([
      startServer({ seed: false, env: { WEB_DIST_DIR: PSEUDO_DIST } }),
      launchBrowser(),
    ]);
    member = await apiUser(server.url, 'pseudo');
    // One picture of one cat, so that the cards, the picture's page and the cat's page have content:
    // its caption and the cat's name are the member's words, not the app's.
    post = await apiCreatePost(server.url, member.accessToken, {
      catName: CAT,
      comment: CAPTION,
      location: { latitude: 36.72, longitude: -4.42 },
    });
    catId = (
      await apiCall<CreateCatResponse>(server.url, member.accessToken, '/api/cats', {
        method: 'POST',
        body: JSON.stringify({ name: CAT, postId: post._id }),
      })
    ).cat._id;
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  const VISITOR_PAGES = ['/', '/login', '/signup', '/forgot-password', '/reset-password', '/confirm-email'];
  const MEMBER_PAGES = () => [
    '/feed',
    `/posts/${post._id}`,
    `/cats/${catId}`,
    '/cats',
    '/explore',
    '/spot',
    '/groups',
    '/notifications',
    '/about',
    '/profile/me',
    '/profile/settings',
    '/profile/trash',
    '/settings/moderation',
  ];

  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`shows no text outside the messages on any screen (${name})`, { timeout: 300_000 }, async () => {
      const context = await newContext(browser, server.url, viewport);
      const page = await context.newPage();
      const allowed = [member.username, member.email, CAT, CAPTION];
      const found: string[] = [];
      const visit = async (path: string) => {
        await page.goto(path);
        await page.locator('main').first().waitFor();
        await page.waitForLoadState('networkidle');
        for (const f of await untranslated(page, allowed)) found.push(`${path} ${f}`);
      };
      for (const path of VISITOR_PAGES) await visit(path);
      await screenshot(page, `pseudo-signup-${viewport.width}`);
      await loginInAnyLanguage(page, member);
      for (const path of MEMBER_PAGES()) await visit(path);
      await screenshot(page, `pseudo-settings-${viewport.width}`);
      await context.close();
      expect(found).toEqual([]);
    });
  }
});
