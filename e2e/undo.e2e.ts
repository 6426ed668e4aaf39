import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, PHONE, screenshot } from './support/browser.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';
import { signedInPage } from './support/api.ts';
import { apiCall, apiCreatePost, apiUser, card, cardIds, type SessionUser } from './support/posts.ts';

/** Issue 24: hide and block with a toast and Undo, Hidden pictures in Settings, block from a profile. */
describe('hide, block and undo', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    // Sixteen sign-ups from one address: past the default per-minute limit.
    [server, browser] = await sharedServerAndBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  async function feedAs(user: SessionUser, viewport: { width: number; height: number }): Promise<Page> {
    const page = await signedInPage(browser, server.url, user, viewport, '/feed');
    await page.locator('article[data-post-id]').first().waitFor();
    return page;
  }

  const toast = (page: Page) => page.getByRole('status').filter({ has: page.locator('.toast') });

  for (const [label, viewport] of [
    ['390', PHONE],
    ['1280', DESKTOP],
  ] as const) {
    it(`hides a post and Undo brings it back (${label} px)`, async () => {
      const author = await apiUser(server.url, 'hidden');
      const post = await apiCreatePost(server.url, author.accessToken, { comment: 'Hide me, then undo' });
      const viewer = await apiUser(server.url, 'hider');
      const page = await feedAs(viewer, viewport);

      await card(page, post._id).getByRole('button', { name: 'Post options' }).click();
      await card(page, post._id).getByRole('menuitem', { name: 'Hide post' }).click();
      await card(page, post._id).waitFor({ state: 'detached' });
      const region = toast(page);
      await region.getByText('Post hidden. You can find it in Settings, under Hidden pictures.').waitFor();
      // The toast does not take the focus; its Undo is a button one can tab to.
      expect(await page.evaluate(() => document.activeElement?.closest('.toast') ?? null)).toBeNull();
      await screenshot(page, `undo-toast-${label}`);

      await region.getByRole('button', { name: 'Undo' }).click();
      await card(page, post._id).waitFor();
      const hidden = await apiCall<{ posts: unknown[] }>(
        server.url,
        viewer.accessToken,
        '/api/profile/hiddenPosts',
      );
      expect(hidden.posts).toEqual([]);
      await page.context().close();
    });
  }

  it('goes away by itself after 5 seconds', async () => {
    const author = await apiUser(server.url, 'fleeting');
    const post = await apiCreatePost(server.url, author.accessToken, { comment: 'A toast that leaves' });
    const viewer = await apiUser(server.url, 'waiter');
    const page = await feedAs(viewer, DESKTOP);
    await card(page, post._id).getByRole('button', { name: 'Post options' }).click();
    await card(page, post._id).getByRole('menuitem', { name: 'Hide post' }).click();
    const message = toast(page).getByText(/^Post hidden/);
    await message.waitFor();
    await page.mouse.move(1270, 10); // not resting on the toast
    await message.waitFor({ state: 'detached', timeout: 8_000 });
    await page.context().close();
  });

  it('blocks from a card after confirming, and Undo brings their posts back', async () => {
    const author = await apiUser(server.url, 'mariposa');
    const one = await apiCreatePost(server.url, author.accessToken, { comment: 'First of two' });
    const two = await apiCreatePost(server.url, author.accessToken, { comment: 'Second of two' });
    const viewer = await apiUser(server.url, 'blocker');
    const page = await feedAs(viewer, PHONE);

    await card(page, one._id).getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'Block user' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Block ${author.username}?` });
    await dialog.getByText("You will not see each other's pictures, comments or profiles.").waitFor();
    await screenshot(page, 'undo-block-confirm-390');
    // Cancel changes nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await cardIds(page)).toContain(one._id);

    await card(page, one._id).getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'Block user' }).click();
    await dialog.getByRole('button', { name: 'Block' }).click();
    await card(page, one._id).waitFor({ state: 'detached' });
    await card(page, two._id).waitFor({ state: 'detached' });
    const region = toast(page);
    await region.getByText(`You blocked ${author.username}.`).waitFor();
    await screenshot(page, 'undo-block-toast-390');

    await region.getByRole('button', { name: 'Undo' }).click();
    await card(page, one._id).waitFor();
    await card(page, two._id).waitFor();
    const blocked = await apiCall<{ blockedUsers: unknown[] }>(
      server.url,
      viewer.accessToken,
      '/api/profile/blockedUsers',
    );
    expect(blocked.blockedUsers).toEqual([]);
    await page.context().close();
  });

  for (const [label, viewport] of [
    ['390', PHONE],
    ['1280', DESKTOP],
  ] as const) {
    it(`lists hidden pictures in Settings with Unhide (${label} px)`, async () => {
      const author = await apiUser(server.url, 'listed');
      const kept = await apiCreatePost(server.url, author.accessToken, {
        comment: 'Stays hidden',
        catName: 'Tofu',
      });
      const back = await apiCreatePost(server.url, author.accessToken, { comment: 'Comes back' });
      const viewer = await apiUser(server.url, 'curator');
      for (const post of [kept, back]) {
        await apiCall(server.url, viewer.accessToken, `/api/posts/hidePost/${post._id}`, {
          method: 'PUT',
          body: '{}',
        });
      }
      const page = await signedInPage(browser, server.url, viewer, viewport, '/profile/settings');
      const section = page.getByRole('region', { name: 'Hidden pictures' });
      await section.getByRole('button', { name: 'Unhide Photo of Tofu' }).waitFor();
      const unhideBack = section.getByRole('button', { name: `Unhide Cat photo by ${author.username}` });
      await unhideBack.waitFor();
      await section.scrollIntoViewIfNeeded();
      await section
        .locator('img')
        .first()
        .evaluate((img: HTMLImageElement) => img.decode().catch(() => {}));
      await screenshot(page, `undo-hidden-pictures-${label}`);

      await unhideBack.click();
      await section.getByText('Picture unhidden').waitFor();
      await unhideBack.waitFor({ state: 'detached' });
      await section.getByRole('button', { name: 'Unhide Photo of Tofu' }).waitFor();

      await page.goto('/feed');
      await card(page, back._id).waitFor();
      expect(await cardIds(page)).not.toContain(kept._id);
      await page.context().close();
    });
  }

  it('blocks and unblocks from a profile page', async () => {
    const author = await apiUser(server.url, 'profiled');
    const post = await apiCreatePost(server.url, author.accessToken, { comment: 'On my profile' });
    const viewer = await apiUser(server.url, 'visitor');
    const page = await signedInPage(browser, server.url, viewer, DESKTOP, `/profile/${author.userId}`);
    await page.getByRole('heading', { level: 1, name: author.username }).waitFor();
    await card(page, post._id).waitFor();

    await page.getByRole('button', { name: 'Block', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: `Block ${author.username}?` });
    await dialog.getByRole('button', { name: 'Block' }).click();
    await page.getByText(`You blocked ${author.username}.`, { exact: true }).first().waitFor();
    expect(await card(page, post._id).count()).toBe(0);
    await screenshot(page, 'undo-profile-blocked-1280');
    // Blocks leave no trace: the profile itself answers 404 now.
    const res = await fetch(`${server.url}/api/profile/getUserProfile/${author.userId}`, {
      headers: { authorization: `Bearer ${viewer.accessToken}` },
    });
    expect(res.status).toBe(404);

    await page.locator('.profile-page').getByRole('button', { name: 'Unblock' }).click();
    await card(page, post._id).waitFor();
    await page.getByRole('button', { name: 'Block', exact: true }).waitFor();
    await page.context().close();
  });

  it('shows a caption with a line break on two lines, with its date', async () => {
    const author = await apiUser(server.url, 'poet');
    const post = await apiCreatePost(server.url, author.accessToken, { comment: 'First line\nSecond line' });
    const viewer = await apiUser(server.url, 'reader');
    const page = await feedAs(viewer, PHONE);
    const caption = card(page, post._id).locator('.post-card__caption');
    expect(await caption.textContent()).toBe('First line\nSecond line');
    const lines = await caption.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
    });
    expect(lines).toBe(2);
    const time = card(page, post._id).locator('time');
    expect(await time.getAttribute('datetime')).toBe(post.createdAt);
    expect(await time.textContent()).toBe('now');
    expect(await time.getAttribute('title')).toMatch(/\d{1,2} \w{3} \d{4}, \d{2}:\d{2}/);
    await page.context().close();
  });
});
