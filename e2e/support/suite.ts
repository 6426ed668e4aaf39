import { afterAll, beforeAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP, launchBrowser, newContext } from './browser.ts';
import { loginThroughUi } from './api.ts';
import { startServer, type RunningServer } from './server.ts';

/**
 * The usual setting of an end-to-end suite: one server (from the seeded template) and one browser,
 * started together before its tests and closed after them. Call it in the describe block; its fields
 * are there once beforeAll has run, that is, inside the tests.
 */
export function serverAndBrowser(browserOptions: Parameters<typeof launchBrowser>[0] = {}): {
  server: RunningServer;
  browser: Browser;
} {
  const suite = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    [suite.server, suite.browser] = await Promise.all([startServer(), launchBrowser(browserOptions)]);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.dispose();
  });
  return suite;
}

/**
 * serverAndBrowser() for suites where people act in browsers of their own: `page` opens a patient new
 * browser context (two browsers and a server share two cores with whatever else runs), `signedIn` logs
 * a person in there through the login screen, and `modalText` reads and closes the result modal.
 */
export function peopleInBrowsers() {
  const suite = serverAndBrowser();
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

  async function signedIn(
    user: { email: string; password: string },
    viewport: { width: number; height: number } = DESKTOP,
  ): Promise<Page> {
    const opened = await page(viewport);
    await loginThroughUi(opened, user.email, user.password, { remember: true });
    return opened;
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
