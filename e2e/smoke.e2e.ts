import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, PHONE, DESKTOP, screenshot } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { apiLogin, DEMO } from './support/api.ts';

/** Issue 2, point 14: the real server process, a fresh DATA_DIR, the landing page, and a restart. */
describe('smoke: the built app from a fresh data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cats-smoke-'));
  let server: RunningServer | undefined;
  let browser: Browser | undefined;

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function countFeed(url: string) {
    const { accessToken } = await apiLogin(url, DEMO.email, DEMO.password);
    let total = 0;
    for (let page = 1; page < 50; page += 1) {
      const res = await fetch(`${url}/api/feed/${page}`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { posts: { _id: string }[]; info: { next: number | null } };
      total += body.posts.length;
      if (!body.info.next) break;
    }
    return total;
  }

  it('serves the landing page and seeds once across restarts', async () => {
    server = await startServer({ dataDir });
    browser = await launchBrowser();
    for (const [name, viewport] of [
      ['landing-390', PHONE],
      ['landing-1280', DESKTOP],
    ] as const) {
      const context = await browser.newContext({ baseURL: server.url, viewport });
      const page = await context.newPage();
      await page.goto('/');
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).first().textContent())
        .toContain('Neighbourhood Cats');
      await screenshot(page, name);
      await context.close();
    }
    const before = await countFeed(server.url);
    expect(before).toBeGreaterThanOrEqual(30);

    expect(await server.stop()).toBe(0);
    server = await startServer({ dataDir });
    expect(await countFeed(server.url)).toBe(before);
  });
});
