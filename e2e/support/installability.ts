import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_PATH, DESKTOP } from './browser.ts';

/** What Chromium says about installing the app from `/` (issue 28): its own checks, not ours. */
export interface InstallabilityReport {
  /** The manifest's address as Chromium found it from the page's `<link rel="manifest">`. */
  manifestUrl: string;
  /** The manifest as served (its JSON). */
  manifest: Record<string, unknown>;
  /** `Page.getAppManifest`'s errors: a manifest Chromium could not read in full. */
  manifestErrors: string[];
  /** `Page.getInstallabilityErrors`: every reason Chromium would not offer to install. Empty: installable. */
  installabilityErrors: string[];
}

/** Waits until the page is controlled by the app's service worker (registered after load, main.tsx). */
export async function swControls(page: Page): Promise<void> {
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });
}

/**
 * Opens `/` in a browser profile of its own (Chromium never offers to install from an incognito
 * profile, which is what browser.newContext() makes), waits for the service worker to control the page
 * and asks Chromium's DevTools protocol whether it would install the app. Used by e2e/pwa.e2e.ts and
 * by `npm run bench` (measureWeb), so both hold the same check.
 */
export async function installability(
  baseUrl: string,
  opts: { timeoutMs?: number } = {},
): Promise<InstallabilityReport> {
  const profile = mkdtempSync(join(tmpdir(), 'cats-pwa-'));
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      baseURL: baseUrl,
      viewport: DESKTOP,
      serviceWorkers: 'allow',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-sync'],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(opts.timeoutMs ?? 30_000);
    await page.goto('/');
    await swControls(page);
    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as {
      url: string;
      errors: { message: string }[];
      data?: string;
    };
    // Chromium decides after the worker controls the page; ask until it has, for a few seconds.
    let installabilityErrors: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const { installabilityErrors: errors } = (await cdp.send('Page.getInstallabilityErrors')) as {
        installabilityErrors: { errorId: string }[];
      };
      installabilityErrors = errors.map((e) => e.errorId);
      if (installabilityErrors.length === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    return {
      manifestUrl: manifest.url,
      manifest: JSON.parse(manifest.data ?? '{}') as Record<string, unknown>,
      manifestErrors: manifest.errors.map((e) => e.message),
      installabilityErrors,
    };
  } finally {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
