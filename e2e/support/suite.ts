import { afterAll, beforeAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP, launchBrowser, newContext } from './browser.ts';
import { signInThroughApi } from './api.ts';
import { startServer, type RunningServer } from './server.ts';
import { sharedBrowser, sharedServer } from './shared.ts';

/**
 * The usual setting of an end-to-end suite: the worker's server (from the seeded template) and browser
 * (shared.ts); what the file opened in the browser is closed after its tests. `ownServer`: a server
 * of its own, for a file whose checks need the sample content as the seed left it; browser options:
 * a browser of its own. Call it in the describe block; its fields are there once beforeAll has run,
 * that is, inside the tests.
 */
export function serverAndBrowser(
  options: Parameters<typeof launchBrowser>[0] & { ownServer?: boolean } = {},
): {
  server: RunningServer;
  browser: Browser;
} {
  const { ownServer = false, ...browserOptions } = options;
  const suite = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    const ownBrowser = Object.keys(browserOptions).length > 0;
    [suite.server, suite.browser] = await Promise.all([
      ownServer ? startServer() : sharedServer(),
      ownBrowser ? launchBrowser(browserOptions) : sharedBrowser(),
    ]);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.dispose();
  });
  return suite;
}

/**
 * serverAndBrowser() for suites where people act in browsers of their own: `page` opens a patient new
 * browser context (two browsers and a server share two cores with whatever else runs), `signedIn` signs
 * a person in there (through the API: the login screen has tests of its own), and `modalText` reads
 * and closes the result modal.
 */
export function peopleInBrowsers(options: Parameters<typeof serverAndBrowser>[0] = {}) {
  const suite = serverAndBrowser(options);
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
  });

  async function page(viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
    const context = await newContext(suite.browser, suite.server.url, viewport);
    contexts.push(context);
    context.setDefaultTimeout(60_000);
    return context.newPage();
  }

  /** A person signed in with 'Remember me' (through the API: see signInThroughApi), at `at`. */
  async function signedIn(
    user: { email: string; password: string },
    viewport: { width: number; height: number } = DESKTOP,
    at = '/feed',
  ): Promise<Page> {
    const opened = await page(viewport);
    return signInThroughApi(opened, user, at);
  }

  /** The result modal's text, then OK closes it. */
  async function modalText(on: Page): Promise<string> {
    // The result modal is the open dialog with an OK button: a confirmation dialog may still be
    // closing when it appears.
    const dialog = on
      .locator('dialog[open]')
      .filter({ has: on.getByRole('button', { name: 'OK', exact: true }) });
    await dialog.waitFor();
    const text = (await dialog.locator('p').first().textContent()) ?? '';
    await dialog.getByRole('button', { name: 'OK' }).click();
    await on.locator('dialog[open]').waitFor({ state: 'hidden' });
    return text;
  }

  return Object.assign(suite, { page, signedIn, modalText });
}
