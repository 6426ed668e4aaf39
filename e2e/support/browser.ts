import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { ROOT } from './server.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's Chromium, headless, with the flags this machine needs (see shared/machine-notes.md).
 * `backForwardCache`: keep pages that are left in the back/forward cache, as a person's Chrome does
 * (Playwright turns the cache off unless told otherwise).
 */
export async function launchBrowser(
  opts: { backForwardCache?: boolean } = {},
): Promise<Browser & { cleanup?: () => void }> {
  // playwright gives each launch a fresh temporary profile itself (it refuses --user-data-dir).
  const profile = mkdtempSync(join(tmpdir(), 'cats-chromium-'));
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    ...(opts.backForwardCache ? { ignoreDefaultArgs: ['--disable-back-forward-cache'] } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  browser.on('disconnected', () => {
    rmSync(profile, { recursive: true, force: true });
    browsers.delete(browser);
  });
  // Every context records what its pages asked the server and what went wrong in them, so that a
  // failing test can say what the app was doing (support/failure-report.ts).
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    // No service worker unless a test asks for one (issue 28's worker answers the app's requests):
    // page.route() never sees a request the worker answers, and its offline copies would stand in
    // for the network that many tests take away. pwa.e2e.ts and push.e2e.ts allow it.
    const context = await newContext({ serviceWorkers: 'block', ...options });
    recordActivity(context);
    return context;
  };
  browsers.add(browser);
  return browser;
}

/** The browsers of this test file that are still open. */
const browsers = new Set<Browser>();
const activity = new WeakMap<BrowserContext, string[]>();
/** The last lines of each context's activity that a failure report prints. */
const ACTIVITY_LINES = 40;

function recordActivity(context: BrowserContext): void {
  const started = Date.now();
  const lines: string[] = [];
  const add = (line: string) => {
    lines.push(`+${Date.now() - started} ms ${line}`);
    if (lines.length > ACTIVITY_LINES) lines.shift();
  };
  const api = (url: string) => {
    const { pathname, search } = new URL(url);
    return pathname.startsWith('/api/') ? pathname + search : null;
  };
  context.on('request', (r) => {
    const path = api(r.url());
    if (path) add(`-> ${r.method()} ${path}`);
  });
  context.on('response', (r) => {
    const path = api(r.url());
    if (path) add(`<- ${r.status()} ${r.request().method()} ${path}`);
  });
  context.on('requestfailed', (r) => {
    const path = api(r.url());
    if (path) add(`xx ${r.method()} ${path}: ${r.failure()?.errorText ?? 'failed'}`);
  });
  // The browser's own line for each failed resource repeats the responses above (and the tiles, which
  // cannot load here); what the app itself logs is kept.
  context.on('console', (m) => {
    if ((m.type() === 'error' || m.type() === 'warning') && !m.text().startsWith('Failed to load resource'))
      add(`console.${m.type()}: ${m.text()}`);
  });
  context.on('weberror', (e) => add(`uncaught: ${e.error().message}`));
  activity.set(context, lines);
}

/**
 * For a failed test: each open page's address, a screenshot under screenshots/failures/, and the last
 * API requests and errors of its context.
 */
export async function describeOpenPages(testName: string): Promise<string> {
  const dir = join(ROOT, 'screenshots', 'failures');
  mkdirSync(dir, { recursive: true });
  const slug = testName.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
  const report: string[] = [];
  let n = 0;
  for (const browser of browsers) {
    for (const context of browser.contexts()) {
      for (const page of context.pages()) {
        n += 1;
        const path = join(dir, `${slug}-${n}.png`);
        const shot = await page.screenshot({ path, timeout: 5_000 }).then(
          () => path,
          (err: Error) => `no screenshot (${err.message.split('\n')[0]})`,
        );
        report.push(`page ${n}: ${page.url()}\n  ${shot}`);
      }
      const lines = activity.get(context);
      if (lines?.length)
        report.push(`  activity of its context:\n${lines.map((l) => `    ${l}`).join('\n')}`);
    }
  }
  return report.length ? report.join('\n') : 'no open pages';
}

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

export async function newContext(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number } = DESKTOP,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  return browser.newContext({ baseURL, viewport, ...options });
}

/** Saves a screenshot under screenshots/ (git-ignored) for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = join(ROOT, 'screenshots');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/**
 * Waits for the element's animations (a dialog's fade-in) to end, so that a screenshot shows it as a
 * person sees it. An animation cancelled meanwhile (a transition cut short, as on a busy machine)
 * rejects `finished` with an AbortError; it is over all the same.
 */
export async function animationsSettled(element: Locator): Promise<void> {
  await element.evaluate((el) =>
    Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => undefined))),
  );
}
