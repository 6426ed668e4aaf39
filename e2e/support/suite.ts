import { afterAll, beforeAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

/**
 * The usual setting of an end-to-end suite: one server (from the seeded template) and one browser,
 * started together before its tests and closed after them. Call it in the describe block; its fields
 * are there once beforeAll has run, that is, inside the tests.
 */
export function serverAndBrowser(): { server: RunningServer; browser: Browser } {
  const suite = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    [suite.server, suite.browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.dispose();
  });
  return suite;
}
