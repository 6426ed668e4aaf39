import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DESKTOP, PHONE, screenshot, animationsSettled } from './support/browser.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';
import { signedInPage } from './support/api.ts';
import { apiCreatePost, apiUser, card } from './support/posts.ts';

/** Issue 24: tapping the photo on a feed card opens the full-size viewer of the post page. */
describe('full size from a card', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await sharedServerAndBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  it('opens the 1600 px photo from the feed and closes with Escape, focus back on the photo', async () => {
    const user = await apiUser(server.url, 'fullsize');
    const post = await apiCreatePost(server.url, user.accessToken, {
      catName: 'Biscuit',
      comment: 'Mid-yawn',
    });
    for (const [name, viewport] of [
      ['390', PHONE],
      ['1280', DESKTOP],
    ] as const) {
      const page = await signedInPage(browser, server.url, user, viewport, '/feed');
      const open = card(page, post._id).getByRole('button', { name: 'View full size' });
      await open.click();
      const dialog = page.getByRole('dialog', { name: 'Photo of Biscuit' });
      await dialog.waitFor();
      const img = dialog.getByRole('img', { name: 'Photo of Biscuit' });
      expect(await img.getAttribute('src')).toBe(post.image.variants['1600']);
      await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      await animationsSettled(dialog);
      await screenshot(page, `card-full-size-${name}`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(await open.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.context().close();
    }
  });
});
