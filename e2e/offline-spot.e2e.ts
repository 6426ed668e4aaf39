import { copyFileSync, mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { DESKTOP, PHONE, screenshot } from './support/browser.ts';
import { signedInPage } from './support/api.ts';
import { apiUser, apiWholeFeed, fixture } from './support/posts.ts';
import { serverAndBrowser } from './support/suite.ts';

const QUEUED = 'No connection. Your picture will be sent when you are back online.';

/** Screenshots of both widths, kept beside the other helpers' under /work/shots when that exists. */
async function shots(page: Page, name: string) {
  for (const [width, viewport] of [
    [390, PHONE],
    [1280, DESKTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(200);
    const path = await screenshot(page, `upload-queue-${name}-${width}`);
    try {
      mkdirSync('/work/shots', { recursive: true });
      copyFileSync(path, `/work/shots/upload-queue-${name}-${width}.png`);
    } catch {
      // Only a convenience for people looking at the run.
    }
  }
}

/** Issue 28: a sighting made offline waits in IndexedDB, survives a reload and becomes exactly one post. */
describe('spot offline', () => {
  const suite = serverAndBrowser();

  it('queues a sighting made offline, keeps it over a reload, and posts it once even when an answer is lost', async () => {
    const { server, browser } = suite;
    const user = await apiUser(server.url, 'offline');
    const page = await signedInPage(browser, server.url, user);
    const context = page.context();
    await page.goto('/spot');
    await page.getByRole('heading', { name: 'Snap a cat' }).waitFor();

    await context.setOffline(true);
    await page.locator('input[type="file"]').setInputFiles({
      name: 'IMG_0002.jpg',
      mimeType: 'image/jpeg',
      buffer: fixture('photo-gps.jpg'),
    });
    const crop = page.getByRole('dialog', { name: 'Crop your picture' });
    await crop.getByRole('button', { name: 'Crop' }).click();
    await crop.waitFor({ state: 'detached' });
    const caption = `Seen offline ${Date.now()}`;
    await page.getByLabel('Add a comment').fill(caption);
    await page.getByRole('button', { name: 'Submit' }).click();
    const reminder = page.getByRole('dialog', { name: 'Add a description so everyone can enjoy your cat?' });
    await reminder.getByRole('button', { name: 'Post anyway' }).click();

    await page.getByText(QUEUED).waitFor();
    await page.getByRole('heading', { name: 'Uploads waiting' }).waitFor();
    await page.getByText('Waiting for a connection.').waitFor();
    await page.getByRole('link', { name: 'Spot, 1 upload waiting' }).waitFor();
    await shots(page, 'queued');

    // Back online, but the upload cannot get through yet: it stays queued, over a reload too.
    const blocked = (route: Route) => route.abort('internetdisconnected');
    await page.route('**/api/posts/createPost', blocked);
    await context.setOffline(false);
    await page.reload();
    await page.getByRole('heading', { name: 'Uploads waiting' }).waitFor();
    await page.getByRole('link', { name: 'Spot, 1 upload waiting' }).waitFor();
    const mine = async () =>
      (await apiWholeFeed(server.url, user.accessToken)).filter((p) => p.user._id === user.userId);
    expect(await mine()).toEqual([]);

    // The next upload reaches the server but its answer is lost: the queue sends again with the same key.
    const keys: string[] = [];
    await page.unroute('**/api/posts/createPost', blocked);
    await page.route('**/api/posts/createPost', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      const answer = await route.fetch();
      if (keys.length === 1) {
        expect(answer.status()).toBe(201);
        await route.abort('connectionreset');
      } else {
        await route.fulfill({ response: answer });
      }
    });
    await page.getByText('Sent', { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByText('All your pictures are sent.').waitFor();
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);

    expect((await mine()).map((p) => p.caption)).toEqual([caption]);
    await shots(page, 'sent');

    await page.goto('/feed');
    await page.locator('article[data-post-id]').first().getByText(caption).waitFor();
    await context.close();
  });
});
