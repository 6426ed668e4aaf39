import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { CommentsResponse, Post } from '@cats/contracts';
import { PHONE, DESKTOP, screenshot } from './support/browser.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';
import { signInThroughApi } from './support/api.ts';
import { apiCall, apiCreatePost, apiUser, card, fixture, type SessionUser } from './support/posts.ts';

const COMMENTS = 25;

/** Issue 24, 'Cards and lists': comments 20 at a time with 'Show earlier comments', and 'Liked by'. */
describe('paged comments and the liked-by list', () => {
  let server: RunningServer;
  let browser: Browser;
  let author: SessionUser;
  let viewer: SessionUser;
  let fans: SessionUser[];
  let post: Post;

  beforeAll(async () => {
    [server, browser] = await sharedServerAndBrowser();
    author = await apiUser(server.url, 'pagedauthor');
    viewer = await apiUser(server.url, 'pagedviewer');
    fans = [await apiUser(server.url, 'pagedfana'), await apiUser(server.url, 'pagedfanb')];
    post = await apiCreatePost(server.url, author.accessToken, {
      image: fixture('photo-no-gps.jpg'),
      catName: 'Biscuit',
      comment: 'Waiting by the bakery door.',
    });
    const commenters = [author, ...fans];
    for (let i = 1; i <= COMMENTS; i += 1) {
      await apiCall<CommentsResponse>(
        server.url,
        commenters[i % commenters.length]!.accessToken,
        `/api/posts/createComment/${post._id}`,
        { method: 'POST', body: JSON.stringify({ newComment: `Comment number ${i}` }) },
      );
    }
    for (const fan of fans) {
      await apiCall(server.url, fan.accessToken, `/api/posts/likePost/${post._id}`, {
        method: 'PUT',
        body: '{}',
      });
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  async function viewerPage(viewport: { width: number; height: number }): Promise<Page> {
    const context = await browser.newContext({ baseURL: server.url, viewport });
    const page = await context.newPage();
    // Every test opens its screen itself.
    await signInThroughApi(page, viewer, null);
    return page;
  }

  const commentTexts = (page: Page) => page.locator('.post-comments__text').allInnerTexts();
  const numbered = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, k) => `Comment number ${from + k}`);

  /** The dialog's entrance animation (0.16 s) has ended and every avatar has loaded. */
  async function settled(page: Page) {
    await page.waitForFunction(() => {
      const dialog = document.querySelector('dialog[open]');
      if (!dialog || dialog.getAnimations().some((a) => a.playState === 'running')) return false;
      return Array.from(dialog.querySelectorAll('img')).every((img) => img.complete);
    });
  }

  it("shows the newest 20 comments on the post page, the rest after 'Show earlier comments', and who liked", async () => {
    const page = await viewerPage(DESKTOP);
    await page.goto(`/posts/${post._id}`);
    const comments = page.locator('.post-page .post-comments');
    // The page's first load: longer than expect.poll's 1 s default on a busy machine.
    await expect.poll(() => commentTexts(page), { timeout: 15_000 }).toEqual(numbered(6, 25));

    const earlier = comments.getByRole('button', { name: 'Show earlier comments' });
    const asked = page.waitForRequest((r) => r.url().includes(`/api/posts/getComments/${post._id}?before=`));
    await earlier.click();
    await asked;
    await expect.poll(() => commentTexts(page)).toEqual(numbered(1, 25));
    // The button goes with the render after the last page arrives, which may come a moment later.
    await expect.poll(() => earlier.count()).toBe(0);

    // A comment of one's own: the panel shows the server's newest page again, the new comment last.
    await comments.getByLabel('Add a comment').fill('The twenty-sixth');
    await comments.getByRole('button', { name: 'Post' }).click();
    await expect.poll(() => commentTexts(page)).toEqual([...numbered(7, 25), 'The twenty-sixth']);
    expect(await comments.getByLabel('Add a comment').inputValue()).toBe('');
    expect(await comments.getByRole('button', { name: 'Show earlier comments' }).isVisible()).toBe(true);

    // 'Liked by' from the count beside the heart: newest like first, each name a link to the profile.
    await page.locator('.post-page').getByRole('button', { name: 'See who liked: 2 people' }).click();
    const dialog = page.getByRole('dialog', { name: 'Liked by' });
    await expect
      .poll(() => dialog.getByRole('link').allInnerTexts())
      .toEqual([fans[1]!.username, fans[0]!.username]);
    await settled(page);
    await screenshot(page, 'liked-by-1280');
    await dialog.getByRole('link', { name: fans[0]!.username }).click();
    await page.waitForURL(`**/profile/${fans[0]!.userId}`);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.context().close();
  });

  it('opens the list from a feed card on a phone, and shows the new like at once', async () => {
    const page = await viewerPage(PHONE);
    await page.goto('/feed');
    const theCard = card(page, post._id);
    await theCard.getByRole('button', { name: /^Like,/ }).click();
    const count = theCard.getByRole('button', { name: 'See who liked: 3 people' });
    await count.click();
    const dialog = page.getByRole('dialog', { name: 'Liked by' });
    await expect
      .poll(() => dialog.getByRole('link').allInnerTexts())
      .toEqual([viewer.username, fans[1]!.username, fans[0]!.username]);
    await settled(page);
    await screenshot(page, 'liked-by-390');
    // Escape closes it and gives the focus back to the count.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await count.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.context().close();
  });
});
