import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { unzip } from '../apps/server/test/unzip.ts';
import { DESKTOP, PHONE, screenshot, animationsSettled } from './support/browser.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';
import { DEMO, signedInPage } from './support/api.ts';
import { apiCreatePost, apiUser } from './support/posts.ts';

/** Issue 24, 'Your data': Settings prepares a zip of the user's data and the browser downloads it. */
describe('download my data', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await sharedServerAndBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  const yourData = (page: Page) => page.getByRole('region', { name: 'Your data' });

  it('prepares the zip, then downloads it with the posts, their exact locations and the photos', async () => {
    const user = await apiUser(server.url, 'export');
    const located = await apiCreatePost(server.url, user.accessToken, {
      catName: 'Pixel',
      comment: 'On the warm car bonnet',
      location: { latitude: 51.5072178, longitude: -0.1275862 },
      showLocation: false,
    });
    const plain = await apiCreatePost(server.url, user.accessToken, { comment: 'No place given' });

    for (const [name, viewport] of [
      ['390', PHONE],
      ['1280', DESKTOP],
    ] as const) {
      const page = await signedInPage(browser, server.url, user, viewport, '/profile/settings');
      const card = yourData(page);
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, `export-start-${name}`);
      const start = card.getByRole('button', { name: /^(Download my data|Prepare a new download)$/ });
      await start.click();
      // The 202 shows 'Preparing' at once; a few posts are ready by the next poll (3 s).
      await card.getByText('Preparing your download…').waitFor();
      await screenshot(page, `export-preparing-${name}`);
      const download = card.getByRole('button', { name: /^Download \(\d+ KB\)$/ });
      await download.waitFor({ timeout: 20_000 });
      await card.getByText('Available until').waitFor();
      await screenshot(page, `export-ready-${name}`);

      const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
      expect(file.suggestedFilename()).toMatch(/^neighbourhood-cats-data-\d{4}-\d{2}-\d{2}\.zip$/);
      const entries = await unzip(await readFile((await file.path())!));
      expect([...entries.keys()].sort()).toEqual(
        [
          'README.txt',
          'cats.json',
          'cat-merges.json',
          'cat-suggestions-made.json',
          'cat-suggestions-received.json',
          'comments.json',
          'groups.json',
          `images/${located._id}.webp`,
          `images/${plain._id}.webp`,
          'likes.json',
          'missing-alerts.json',
          'missing-reports.json',
          'moderation-decisions.json',
          'posts.json',
          'profile.json',
          'reports.json',
        ].sort(),
      );
      expect(JSON.parse(entries.get('profile.json')!.toString())).toMatchObject({
        username: user.username,
        email: user.email,
      });
      const posts = JSON.parse(entries.get('posts.json')!.toString()) as Record<string, unknown>[];
      expect(posts.find((p) => p.id === located._id)).toMatchObject({
        catName: 'Pixel',
        caption: 'On the warm car bonnet',
        latitude: 51.5072178,
        longitude: -0.1275862,
        showLocation: false,
      });
      expect(posts.find((p) => p.id === plain._id)).toMatchObject({ latitude: null, longitude: null });
      // Issue 26: the cats they care for, follow and created, their alerts, reports, suggestions and
      // merges; none here (data-export.test.ts fills each of them).
      expect(JSON.parse(entries.get('cats.json')!.toString())).toEqual({
        caretakerOf: [],
        following: [],
        createdNoLongerCaredFor: [],
      });
      for (const name of [
        'missing-alerts.json',
        'missing-reports.json',
        'cat-suggestions-made.json',
        'cat-suggestions-received.json',
        'cat-merges.json',
        'reports.json',
        'moderation-decisions.json',
      ])
        expect(JSON.parse(entries.get(name)!.toString()), name).toEqual([]);
      // The photos are the 1600 px variants the app serves, byte for byte.
      for (const post of [located, plain]) {
        const served = await page.request.get(post.image.variants['1600'] ?? post.imageUrl);
        expect(entries.get(`images/${post._id}.webp`)!.equals(await served.body()), post._id).toBe(true);
      }
      await page.context().close();
    }
  });

  it('shows the demo account the demo modal', async () => {
    const page = await signedInPage(browser, server.url, DEMO, PHONE, '/profile/settings');
    await yourData(page).getByRole('button', { name: 'Download my data' }).click();
    const modal = page.getByRole('alertdialog', { name: 'Feature disabled for demo user' });
    await modal.waitFor();
    await animationsSettled(modal);
    await screenshot(page, 'export-demo-390');
  });
});
