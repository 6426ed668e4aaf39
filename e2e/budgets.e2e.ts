import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, DESKTOP, PHONE } from './support/browser.ts';
import { ROOT, type RunningServer } from './support/server.ts';
import { signInThroughApi } from './support/api.ts';
import { type SessionUser } from './support/posts.ts';
import {
  type BudgetApp,
  CLS_BUDGET,
  landingJavaScript,
  mapLibraryOnlyOnExplore,
  startBudgetApp,
} from './support/web-budgets.ts';

/**
 * Issue 8, point 3, on the production build: the landing page's JavaScript, where the map library
 * loads, image dimensions, placeholders and variants, and layout shift on the feed (Lighthouse runs
 * alone afterwards: lighthouse.e2e.ts).
 */
const LANDING_JS_BUDGET_KB = 100;
/**
 * Issue 28: a Spanish reader's landing page loads the same code and the first part of the Spanish
 * catalogue (the first screens' texts; the rest comes with the member screens): at most this more.
 */
const SPANISH_VISITOR_TEXTS_BUDGET_KB = 8;

describe('web budgets', () => {
  let app: BudgetApp | undefined;
  let server: RunningServer;
  let browser: Browser;
  let member: SessionUser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [app, browser] = await Promise.all([startBudgetApp('budget'), launchBrowser()]);
    ({ server, member } = app);
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await app?.close();
  });

  async function context(
    viewport: { width: number; height: number } = DESKTOP,
    deviceScaleFactor = 1,
    locale = 'en-GB',
  ): Promise<BrowserContext> {
    const c = await browser.newContext({ baseURL: server.url, viewport, deviceScaleFactor, locale });
    c.setDefaultTimeout(60_000);
    contexts.push(c);
    return c;
  }

  async function signedInPage(
    viewport: { width: number; height: number } = DESKTOP,
    deviceScaleFactor = 1,
  ): Promise<Page> {
    const page = await (await context(viewport, deviceScaleFactor)).newPage();
    await signInThroughApi(page, member);
    return page;
  }

  it(`loads at most ${LANDING_JS_BUDGET_KB} KB of JavaScript (gzipped) on the landing page`, async () => {
    const landing = await landingJavaScript(await context());
    const files = landing.files.map((f) => `${f.url} ${(f.gzipBytes / 1024).toFixed(1)} KB`).join('\n');
    expect(landing.gzipKb, files).toBeLessThanOrEqual(LANDING_JS_BUDGET_KB);
    expect(landing.files.some((f) => f.isMapLibrary)).toBe(false);
  });

  it(`loads at most ${SPANISH_VISITOR_TEXTS_BUDGET_KB} KB more for a Spanish reader, and none of the member screens' texts`, async () => {
    const english = await landingJavaScript(await context());
    const spanish = await landingJavaScript(await context(DESKTOP, 1, 'es-ES'));
    const files = spanish.files.map((f) => `${f.url} ${(f.gzipBytes / 1024).toFixed(1)} KB`).join('\n');
    expect(spanish.gzipKb - english.gzipKb, files).toBeLessThanOrEqual(SPANISH_VISITOR_TEXTS_BUDGET_KB);
    expect(spanish.gzipKb - english.gzipKb, files).toBeGreaterThan(0);
    expect(
      spanish.files.some((f) => /\/member-[^/]*\.js$/.test(f.url)),
      files,
    ).toBe(false);
  });

  it('loads the map library on /explore only', async () => {
    const result = await mapLibraryOnlyOnExplore(await context(), member);
    expect(result.before).toEqual([]);
    expect(result.onExplore).toBe(true);
  });

  it('ships no schema library to the browser: screens import constants, not zod schemas', () => {
    // @cats/contracts keeps its constants in zod-free modules and declares no side effects, so a
    // screen that imports COMMENT_MAX does not download zod and every schema (28 KB gzipped).
    const assets = join(ROOT, 'apps', 'web', 'dist', 'assets');
    const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(10);
    const withZod = scripts.filter((name) => readFileSync(join(assets, name), 'utf8').includes('ZodError'));
    expect(withZod).toEqual([]);
  });

  it('serves the hashed assets compressed and cached for good', async () => {
    const html = await (await fetch(server.url)).text();
    const entry = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeTruthy();
    const res = await fetch(`${server.url}${entry}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(['br', 'gzip']).toContain(res.headers.get('content-encoding'));
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  /** Every <img> in the page's main region, with what a placeholder check needs. */
  const images = (page: Page) =>
    page.locator('main img').evaluateAll((imgs) =>
      (imgs as HTMLImageElement[]).map((img) => {
        const own = getComputedStyle(img);
        const holder = img.closest('.post-image');
        const holderStyle = holder ? getComputedStyle(holder) : null;
        return {
          src: img.currentSrc || img.src,
          width: img.getAttribute('width'),
          height: img.getAttribute('height'),
          placeholder:
            own.backgroundColor !== 'rgba(0, 0, 0, 0)' ||
            own.backgroundImage !== 'none' ||
            (holderStyle !== null &&
              (holderStyle.backgroundImage !== 'none' || holderStyle.aspectRatio !== 'auto')),
        };
      }),
    );

  it('gives every image its width, height and a placeholder while it loads', async () => {
    const page = await signedInPage(PHONE);
    // Hold the pictures back so that what shows meanwhile can be checked.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/media/**', async (route) => {
      await held;
      await route.continue().catch(() => undefined);
    });
    const problems: string[] = [];
    for (const path of ['/feed', '/profile/me']) {
      await page.goto(path);
      await page.locator('main img').first().waitFor({ state: 'attached' });
      for (const img of await images(page)) {
        if (!img.width || !img.height) problems.push(`${path}: ${img.src} has no width/height`);
        if (!img.placeholder) problems.push(`${path}: ${img.src} has no placeholder`);
      }
    }
    release();
    await page.close();
    expect(problems, problems.join('\n')).toEqual([]);
  });

  for (const dpr of [2, 3]) {
    it(`never downloads the 1600 px variant on a 390 px phone at DPR ${dpr}`, async () => {
      const page = await signedInPage(PHONE, dpr);
      const requested: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'image') requested.push(new URL(r.url()).pathname);
      });
      await page.goto('/feed');
      await page.locator('article[data-post-id] img').first().waitFor();
      // Scroll through a few screens so lazy images load too.
      for (let i = 0; i < 6; i += 1) {
        await page.mouse.wheel(0, PHONE.height);
        await page.waitForTimeout(300);
      }
      await page.waitForLoadState('networkidle');
      const variants = requested.filter((p) => p.startsWith('/media/posts/'));
      expect(variants.length).toBeGreaterThan(0);
      expect(variants.filter((p) => p.endsWith('/1600.webp'))).toEqual([]);
    });
  }

  it(`shifts the feed's layout by less than ${CLS_BUDGET} while it loads and scrolls`, async () => {
    const page = await signedInPage(PHONE, 2);
    await page.addInitScript(() => {
      const w = window as unknown as { __cls: number };
      w.__cls = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
        })[]) {
          if (!entry.hadRecentInput) w.__cls += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto('/feed');
    await page.locator('article[data-post-id]').first().waitFor();
    for (let i = 0; i < 8; i += 1) {
      await page.evaluate(() => window.scrollBy(0, window.innerHeight));
      await page.waitForTimeout(400);
    }
    const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
    expect(cls).toBeLessThan(CLS_BUDGET);
  });
});
