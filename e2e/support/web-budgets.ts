/**
 * Web budgets (issue 8, point 3), measured in Debian's Chromium against a running production build:
 * JavaScript the landing page loads, where the map library loads, and Lighthouse scores. Used by
 * e2e/budgets.e2e.ts and by `npm run bench` (bench/run.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { throttling as lighthouseThrottling } from 'lighthouse/core/config/constants.js';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from './browser.ts';
import { installability } from './installability.ts';
import { loginThroughUi } from './api.ts';
import { apiCreatePost, apiUser, type SessionUser } from './posts.ts';
import { startServer, type RunningServer } from './server.ts';
import { startTileServer, type TileServer } from './tiles.ts';

/** A string only Leaflet's code contains: how a script is recognised as the map library. */
const MAP_LIBRARY_MARKER = 'leaflet-zoom-anim';

/** The same flags as launchBrowser() (shared/machine-notes.md), for Chromium started by chrome-launcher. */
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface ScriptLoad {
  url: string;
  bytes: number;
  gzipBytes: number;
  isMapLibrary: boolean;
}

/** Records every script a page loads (with its size gzipped at level 9, as `gzip -9` would send it). */
export function recordScripts(page: Page): ScriptLoad[] {
  const scripts: ScriptLoad[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    try {
      const body = await response.body();
      scripts.push({
        url: new URL(response.url()).pathname,
        bytes: body.length,
        gzipBytes: gzipSync(body, { level: 9 }).length,
        isMapLibrary: body.includes(MAP_LIBRARY_MARKER),
      });
    } catch {
      /* the page navigated away before the body arrived */
    }
  });
  return scripts;
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** Total gzipped JavaScript of the landing page for a first-time visitor (empty cache), until network idle. */
export async function landingJavaScript(
  context: BrowserContext,
): Promise<{ gzipKb: number; files: ScriptLoad[] }> {
  const page = await context.newPage();
  const scripts = recordScripts(page);
  await page.goto('/', { waitUntil: 'networkidle' });
  await page.close();
  return { gzipKb: kb(scripts.reduce((sum, s) => sum + s.gzipBytes, 0)), files: scripts };
}

/**
 * Visits the member screens in order, /explore last, in one signed-in context: the map library must
 * not be among the scripts loaded before /explore, and must be loaded by it.
 */
export async function mapLibraryOnlyOnExplore(
  context: BrowserContext,
  user: { email: string; password: string },
): Promise<{ ok: boolean; before: string[]; onExplore: boolean }> {
  const page = await context.newPage();
  const scripts = recordScripts(page);
  await loginThroughUi(page, user.email, user.password, { remember: true });
  for (const path of ['/', '/feed', '/spot', '/groups', '/profile/me', '/profile/settings', '/about']) {
    await page.goto(path, { waitUntil: 'networkidle' });
  }
  const before = scripts.filter((s) => s.isMapLibrary).map((s) => s.url);
  await page.goto('/explore', { waitUntil: 'networkidle' });
  await page.locator('.leaflet-container').waitFor();
  const onExplore = scripts.some((s) => s.isMapLibrary);
  await page.close();
  return { ok: before.length === 0 && onExplore, before, onExplore };
}

export interface LighthouseScores {
  performance: number;
  accessibility: number;
  bestPractices: number;
  cls: number;
  lcpMs: number;
  tbtMs: number;
  /**
   * Lighthouse's measure of this machine's CPU speed (typical laptops 1,000-2,000 and more). Its
   * simulated phone multiplies measured main-thread time by 4 whatever this is, so a slow or busy
   * machine scores worse for the same page.
   */
  benchmarkIndex: number;
  /** The CPU slowdown this run simulated (cpuSlowdownFor), 4 on a machine as fast as Lighthouse expects. */
  cpuSlowdown: number;
  /** Audits that lost points, for the record. */
  failing: string[];
  /** With several runs: every run's performance score, in run order (the figures above are the median run's). */
  performanceRuns?: number[];
}

interface LighthouseBrowser {
  port: number;
  /** Playwright attached to the browser; a dark run replaces it (see lighthouseOnce). */
  browser: Browser;
  colorScheme: ColourScheme;
  close(): Promise<void>;
}

/**
 * Every benchmark index Lighthouse has measured in this process (runLighthouse calibrates from them).
 * The index is the machine's, not a browser's: a dark or Spanish browser launched after the first one
 * calibrates from what that one measured instead of spending a run of its own on it.
 */
const machineBenchmarkIndexes: number[] = [];

/**
 * Lighthouse's benchmark index of a machine against the CPU slowdown that makes it the phone Lighthouse
 * simulates, from Lighthouse's docs (docs/throttling.md, 'Calibrating multipliers', and the calculator it
 * links): its default 4 assumes a host of about 1,533 and up.
 */
const CPU_CALIBRATION: readonly (readonly [index: number, slowdown: number])[] = [
  [150, 1],
  [800, 2],
  [1300, 3],
  [1533, 4],
];

/**
 * The CPU slowdown for a host with this benchmark index: Lighthouse's calibration below 1,533, its default
 * 4 above. A slower or busier machine (this one has measured anywhere from 1,000 to 3,200 over a day)
 * would otherwise simulate a slower phone than Lighthouse means, and a page would lose points for the
 * machine, not for itself. Above 1,533 we keep 4 rather than go harsher: the floors were set with it.
 */
export function cpuSlowdownFor(benchmarkIndex: number): number {
  const points = CPU_CALIBRATION;
  if (!Number.isFinite(benchmarkIndex) || benchmarkIndex >= points.at(-1)![0]) return points.at(-1)![1];
  if (benchmarkIndex <= points[0]![0]) return points[0]![1];
  const upper = points.findIndex(([index]) => index > benchmarkIndex);
  const [i0, s0] = points[upper - 1]!;
  const [i1, s1] = points[upper]!;
  return Math.round((s0 + ((benchmarkIndex - i0) / (i1 - i0)) * (s1 - s0)) * 10) / 10;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** CPU time of the whole machine from /proc/stat: busy (user, nice, system, irq, softirq), steal, all. */
function cpuTimes(): { busy: number; steal: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
  return {
    busy: user + nice + system + irq + softirq,
    steal,
    total: user + nice + system + idle + iowait + irq + softirq + steal,
  };
}

/** What share of the machine's CPU was busy, and stolen by the host, over the next `ms`. */
export async function machineLoad(ms = 1_000): Promise<{ busyPercent: number; stealPercent: number }> {
  const a = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const b = cpuTimes();
  const total = Math.max(1, b.total - a.total);
  return {
    busyPercent: Math.round(((b.busy - a.busy) / total) * 100),
    stealPercent: Math.round(((b.steal - a.steal) / total) * 100),
  };
}

/**
 * Waits, up to `maxMs`, for the machine to go quiet (under 20 % busy over a second) before a score is
 * taken: a leftover process or a burst of image work would otherwise be scored as the page's own
 * blocking time. Returns the last reading, which the test prints with the score.
 */
export async function waitForQuietMachine(
  maxMs = 30_000,
): Promise<{ busyPercent: number; stealPercent: number }> {
  const until = Date.now() + maxMs;
  for (;;) {
    const load = await machineLoad();
    if (load.busyPercent < 20 || Date.now() >= until) return load;
  }
}

/** The processes using the most CPU now, for the log of a score under its floor. */
export function busiestProcesses(count = 6): string {
  try {
    return execFileSync('ps', ['-eo', 'pcpu,rss,etimes,comm', '--sort=-pcpu'], { encoding: 'utf8' })
      .split('\n')
      .slice(0, count + 1)
      .join('\n');
  } catch {
    return '(ps is not available)';
  }
}

export type ColourScheme = 'light' | 'dark';

/**
 * Chromium started by chrome-launcher (for Lighthouse), with Playwright attached to the same browser.
 * `colorScheme: 'dark'` makes the browser prefer dark pages (--force-dark-mode sets the
 * prefers-color-scheme every page sees; Lighthouse has no setting of its own for it): issue 28's
 * dark-mode runs.
 */
export async function launchLighthouseBrowser(
  opts: { colorScheme?: ColourScheme; language?: PageLanguage } = {},
): Promise<LighthouseBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'cats-lighthouse-'));
  const flags = [...CHROME_FLAGS];
  if (opts.colorScheme === 'dark') flags.push('--force-dark-mode');
  // A Spanish browser (issue 28): the app opens in the browser's language.
  if (opts.language === 'es') flags.push('--lang=es-ES', '--accept-lang=es-ES,es');
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: flags,
    userDataDir,
    logLevel: 'silent',
  });
  const lh: LighthouseBrowser = {
    port: chrome.port,
    browser: await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`),
    colorScheme: opts.colorScheme ?? 'light',
    close: async () => {
      await lh.browser.close().catch(() => undefined);
      chrome.kill();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
  return lh;
}

/**
 * One Lighthouse run (its default mobile settings: Moto G Power screen, simulated slow 4G, and its CPU
 * slowdown calibrated to this machine by cpuSlowdownFor). `keepSession` keeps cookies and local
 * storage, so a signed-in person's page is measured; the HTTP cache is emptied before every run either
 * way, so each is a cold load.
 *
 * The slowdown comes from the median benchmark index of the runs before in this process; the first
 * run of the process is a throwaway that only measures the machine.
 */
export async function runLighthouse(
  lh: LighthouseBrowser,
  url: string,
  opts: { keepSession: boolean },
): Promise<LighthouseScores> {
  if (machineBenchmarkIndexes.length === 0) await runRetrying(lh, url, opts);
  return runRetrying(lh, url, opts);
}

async function runRetrying(
  lh: LighthouseBrowser,
  url: string,
  opts: { keepSession: boolean },
): Promise<LighthouseScores> {
  const cpuSlowdown = machineBenchmarkIndexes.length ? cpuSlowdownFor(median(machineBenchmarkIndexes)) : 4;
  // A trace that fails to record (NO_NAVSTART, NO_FCP on a starved machine) is Lighthouse's problem,
  // not the page's: try again, up to three times.
  for (let attempt = 1; ; attempt += 1) {
    try {
      const scores = await lighthouseOnce(lh, url, { ...opts, cpuSlowdown });
      machineBenchmarkIndexes.push(scores.benchmarkIndex);
      return scores;
    } catch (err) {
      if (attempt >= 3 || !(err instanceof LighthouseRuntimeError)) throw err;
    }
  }
}

class LighthouseRuntimeError extends Error {}

/** What a first-time visitor's browser holds for the site: nothing (Lighthouse's four, and the session). */
const VISITOR_STORAGE_TYPES = [
  'file_systems',
  'shader_cache',
  'service_workers',
  'cache_storage',
  'cookies',
  'local_storage',
  'indexeddb',
] as const;

async function lighthouseOnce(
  lh: LighthouseBrowser,
  url: string,
  opts: { keepSession: boolean; cpuSlowdown: number },
): Promise<LighthouseScores> {
  const context = lh.browser.contexts()[0]!;
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
  // Lighthouse opens its own tab; any other open tab could keep it in the background (no paint).
  for (const open of context.pages()) await open.close();
  // Playwright gives every tab it is attached to its own prefers-color-scheme (light), Lighthouse's tab
  // too: for a dark run it lets go of the browser (closing a CDP connection leaves Chromium running)
  // while Lighthouse measures, and attaches again afterwards.
  const detach = lh.colorScheme === 'dark';
  if (detach) await lh.browser.close();
  let result;
  try {
    result = await lighthouse(url, {
      port: lh.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      disableStorageReset: opts.keepSession,
      // Lighthouse's storage reset leaves cookies, local storage and IndexedDB alone by default: a
      // first-time visitor's run must drop them too, or the remembered session sends / on to /feed and
      // the landing page is scored as the feed. Visitor pages therefore run after the signed-in ones.
      clearStorageTypes: [...VISITOR_STORAGE_TYPES],
      throttling: { ...lighthouseThrottling.mobileSlow4G, cpuSlowdownMultiplier: opts.cpuSlowdown },
    });
  } finally {
    if (detach) lh.browser = await chromium.connectOverCDP(`http://127.0.0.1:${lh.port}`);
  }
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  // LIGHTHOUSE_JSON_DIR=dir keeps each full report, to read what limits a score (docs/performance.md).
  if (process.env.LIGHTHOUSE_JSON_DIR) {
    const name = `${new URL(url).pathname.replace(/\W+/g, '_') || 'root'}-${Date.now()}.json`;
    mkdirSync(process.env.LIGHTHOUSE_JSON_DIR, { recursive: true });
    writeFileSync(join(process.env.LIGHTHOUSE_JSON_DIR, name), JSON.stringify(lhr));
  }
  if (lhr.runtimeError) throw new LighthouseRuntimeError(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
  // A score is only the page's if Lighthouse ended on it (a redirect would score another page).
  const ended = new URL(lhr.finalDisplayedUrl).pathname;
  if (ended !== new URL(url).pathname)
    throw new Error(`Lighthouse on ${url} ended on ${ended}, not the page asked for`);
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const failing: string[] = [];
  for (const [categoryId, category] of Object.entries(lhr.categories)) {
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || ref.weight === 0 || audit.score === null || audit.score >= 0.9) continue;
      failing.push(`${categoryId}/${ref.id} (${audit.displayValue ?? audit.score}): ${audit.title}`);
    }
  }
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    cls: Math.round(numeric('cumulative-layout-shift') * 1000) / 1000,
    lcpMs: Math.round(numeric('largest-contentful-paint')),
    tbtMs: Math.round(numeric('total-blocking-time')),
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    cpuSlowdown: lhr.configSettings.throttling.cpuSlowdownMultiplier,
    failing,
  };
}

/**
 * Of several runs, the one with the median performance score (Lighthouse varies from run to run), with
 * every run's score beside it.
 */
function medianRun(runs: LighthouseScores[]): LighthouseScores {
  const sorted = [...runs].sort((a, b) => a.performance - b.performance);
  return { ...sorted[Math.floor((sorted.length - 1) / 2)]!, performanceRuns: runs.map((r) => r.performance) };
}

/** Issue 8: the feed's cumulative layout shift stays under this. */
export const CLS_BUDGET = 0.02;

export const LIGHTHOUSE_PAGES = ['/feed', '/explore', '/', '/login'] as const;

/** Issue 28: every page is measured in both colour schemes. */
export const LIGHTHOUSE_SCHEMES: readonly ColourScheme[] = ['light', 'dark'];

/** How a page's scores are named in reports: '/feed' in the light scheme, '/feed (dark)' in the dark. */
/** Issue 28: the app's languages, each measured as a browser set to it would open the app. */
export type PageLanguage = 'en' | 'es';
export const LIGHTHOUSE_LANGUAGES: readonly PageLanguage[] = ['en', 'es'];

export const lighthouseKey = (
  path: string,
  colorScheme: ColourScheme,
  language: PageLanguage = 'en',
): string => {
  const variant = [colorScheme === 'dark' ? 'dark' : '', language === 'es' ? 'Spanish' : ''].filter(Boolean);
  return variant.length ? `${path} (${variant.join(', ')})` : path;
};

/** Logs in through the login page of the Lighthouse browser, with 'Remember me'. */
export async function lighthouseLogin(
  lh: LighthouseBrowser,
  baseUrl: string,
  user: { email: string; password: string },
): Promise<void> {
  const context = lh.browser.contexts()[0]!;
  const page = context.pages()[0] ?? (await context.newPage());
  // This context has no baseURL (it is the browser's own): log in with absolute addresses. The fields
  // by their type: the browser may be set to another language than English.
  await page.goto(`${baseUrl}/login`);
  await page.locator('input[type="email"]').fill(user.email);
  await page.locator('input[type="password"]').fill(user.password);
  await page.locator('input[type="checkbox"]').check();
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/**
 * Lighthouse on /feed and /explore signed in (with 'Remember me', so the page restores the session
 * from the refresh cookie as a returning visitor's would), then / and /login as a first-time visitor;
 * all of it in the light colour scheme, then again in a browser that prefers dark; and all of that
 * again in a browser set to Spanish (issue 28).
 */
export async function lighthouseAll(
  baseUrl: string,
  user: { email: string; password: string },
  opts: { runs?: number; log?: (line: string) => void } = {},
): Promise<Record<string, LighthouseScores>> {
  const scores: Record<string, LighthouseScores> = {};
  for (const language of LIGHTHOUSE_LANGUAGES) {
    for (const colorScheme of LIGHTHOUSE_SCHEMES) {
      Object.assign(scores, await lighthouseScheme(baseUrl, user, colorScheme, language, opts));
    }
  }
  return scores;
}

async function lighthouseScheme(
  baseUrl: string,
  user: { email: string; password: string },
  colorScheme: ColourScheme,
  language: PageLanguage,
  opts: { runs?: number; log?: (line: string) => void },
): Promise<Record<string, LighthouseScores>> {
  const lh = await launchLighthouseBrowser({ colorScheme, language });
  try {
    await lighthouseLogin(lh, baseUrl, user);
    const scores: Record<string, LighthouseScores> = {};
    for (const path of LIGHTHOUSE_PAGES) {
      const signedIn = path === '/feed' || path === '/explore';
      const runs: LighthouseScores[] = [];
      for (let i = 0; i < (opts.runs ?? 1); i += 1) {
        runs.push(await runLighthouse(lh, `${baseUrl}${path}`, { keepSession: signedIn }));
      }
      const key = lighthouseKey(path, colorScheme, language);
      scores[key] = medianRun(runs);
      const s = scores[key];
      opts.log?.(
        `lighthouse ${key}: performance ${s.performance}, accessibility ${s.accessibility}, best practices ` +
          `${s.bestPractices}, LCP ${s.lcpMs} ms, TBT ${s.tbtMs} ms, CLS ${s.cls}, benchmark index ${s.benchmarkIndex}, ` +
          `CPU slowdown ${s.cpuSlowdown}` +
          (runs.length > 1
            ? ` (median of ${runs.length} runs: performance ${s.performanceRuns!.join(', ')})`
            : '') +
          (s.failing.length ? `\n    ${s.failing.join('\n    ')}` : ''),
      );
    }
    return scores;
  } finally {
    await lh.close();
  }
}

export interface WebMeasurement {
  landingJsGzipKb: number;
  landingJsFiles: string[];
  /** Issue 28: the same page for a Spanish reader (the code and the first part of the Spanish texts). */
  landingJsSpanishGzipKb: number;
  mapLibraryOnlyOnExplore: boolean;
  /** Issue 28: Chromium's own installability verdict (empty: installable), and the manifest's errors. */
  pwa: { installabilityErrors: string[]; manifestErrors: string[] };
  lighthouse: Record<string, Omit<LighthouseScores, 'failing'> & { failing?: string[] }>;
}

/** Everything `npm run bench` reports about the web app. */
export async function measureWeb(opts: {
  baseUrl: string;
  login: { email: string; password: string };
  log?: (line: string) => void;
  lighthouseRuns?: number;
}): Promise<WebMeasurement> {
  const log = opts.log ?? (() => undefined);
  const lh = await launchLighthouseBrowser();
  let landing;
  let landingSpanish;
  let map;
  try {
    const fresh = await lh.browser.newContext({ baseURL: opts.baseUrl });
    landing = await landingJavaScript(fresh);
    await fresh.close();
    log(`landing page JavaScript: ${landing.gzipKb} KB gzipped in ${landing.files.length} files`);
    const spanish = await lh.browser.newContext({ baseURL: opts.baseUrl, locale: 'es-ES' });
    landingSpanish = await landingJavaScript(spanish);
    await spanish.close();
    log(`landing page JavaScript in Spanish: ${landingSpanish.gzipKb} KB gzipped`);
    const member = await lh.browser.newContext({ baseURL: opts.baseUrl });
    map = await mapLibraryOnlyOnExplore(member, opts.login);
    await member.close();
    log(
      `map library only on /explore: ${map.ok ? 'yes' : `no (before: ${map.before.join(', ')}; on explore: ${map.onExplore})`}`,
    );
  } finally {
    await lh.close();
  }
  let pwa: WebMeasurement['pwa'];
  try {
    const report = await installability(opts.baseUrl);
    pwa = { installabilityErrors: report.installabilityErrors, manifestErrors: report.manifestErrors };
  } catch (err) {
    // A worker that never takes control is a failed check, not a failed benchmark.
    pwa = {
      installabilityErrors: [`no answer: ${err instanceof Error ? err.message : String(err)}`],
      manifestErrors: [],
    };
  }
  log(
    `installable (Chromium's checks): ${pwa.installabilityErrors.length === 0 && pwa.manifestErrors.length === 0 ? 'yes' : `no (${[...pwa.installabilityErrors, ...pwa.manifestErrors].join('; ')})`}`,
  );
  const lighthouse = await lighthouseAll(opts.baseUrl, opts.login, { runs: opts.lighthouseRuns ?? 1, log });
  return {
    landingJsGzipKb: landing.gzipKb,
    landingJsFiles: landing.files.map((f) => `${f.url} (${kb(f.gzipBytes)} KB)`),
    landingJsSpanishGzipKb: landingSpanish.gzipKb,
    mapLibraryOnlyOnExplore: map.ok,
    pwa,
    lighthouse,
  };
}

export interface BudgetApp {
  server: RunningServer;
  tiles: TileServer;
  /** Signed up, with one post of their own (the feed and profile are not empty). */
  member: SessionUser;
  close(): Promise<void>;
}

/** The measured app: a seeded server whose map tiles come from a local tile server, and a member. */
export async function startBudgetApp(memberPrefix: string): Promise<BudgetApp> {
  const tiles = await startTileServer();
  let server: RunningServer | undefined;
  const close = async () => {
    await server?.dispose();
    await tiles.close();
  };
  try {
    server = await startServer({ env: { MAP_TILE_URL: tiles.template } });
    const member = await apiUser(server.url, memberPrefix);
    await apiCreatePost(server.url, member.accessToken, { catName: 'Own', comment: 'My own cat' });
    return { server, tiles, member, close };
  } catch (err) {
    await close();
    throw err;
  }
}
