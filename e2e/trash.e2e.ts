import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TrashResponse } from '@cats/contracts';
import { DESKTOP, PHONE, screenshot, animationsSettled } from './support/browser.ts';
import { signedInPage } from './support/api.ts';
import { serverAndBrowser } from './support/suite.ts';
import { apiCall, apiCreatePost, apiUser, card, cardIds } from './support/posts.ts';

/** Issue 24: deleting one's own picture through its card menu, Undo, the trash, and restoring it. */
describe('trash', () => {
  const suite = serverAndBrowser();

  async function openDeleteDialog(page: Page, postId: string) {
    await card(page, postId).getByRole('button', { name: 'Post options' }).click();
    await card(page, postId).getByRole('menuitem', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete this picture?' });
    await dialog.waitFor();
    // The dialog fades in: screenshots show it once it has.
    await animationsSettled(dialog);
    return dialog;
  }

  it('deletes from the feed after confirming, finds it in the trash and restores it (phone)', async () => {
    const user = await apiUser(suite.server.url, 'trash');
    const kept = await apiCreatePost(suite.server.url, user.accessToken, { comment: 'Staying put' });
    const post = await apiCreatePost(suite.server.url, user.accessToken, {
      catName: 'Mochi',
      comment: 'Asleep on the bins again',
    });
    const page = await signedInPage(suite.browser, suite.server.url, user, PHONE, '/feed');
    await card(page, post._id).waitFor();

    // Cancel leaves everything as it was.
    let dialog = await openDeleteDialog(page, post._id);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await cardIds(page)).toContain(post._id);

    dialog = await openDeleteDialog(page, post._id);
    await dialog.getByText('It goes to your trash, where you can restore it for 30 days.').waitFor();
    await screenshot(page, 'trash-confirm-390');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await card(page, post._id).waitFor({ state: 'detached' });
    expect(await cardIds(page)).toContain(kept._id);
    let toast = page.getByRole('status').filter({ hasText: 'Picture moved to the trash.' });
    await toast.getByRole('button', { name: 'Undo' }).waitFor();
    await screenshot(page, 'trash-toast-390');

    // The server agrees: in the trash, out of the feed.
    const trashed = () => apiCall<TrashResponse>(suite.server.url, user.accessToken, '/api/posts/trash');
    expect((await trashed()).posts.map((p) => p._id)).toEqual([post._id]);

    // Undo restores it: back in the feed, in its place (newest first), and out of the trash.
    await toast.getByRole('button', { name: 'Undo' }).click();
    await card(page, post._id).waitFor();
    const mine = [post._id, kept._id];
    expect((await cardIds(page)).filter((id) => mine.includes(id))).toEqual(mine);
    expect((await trashed()).posts).toEqual([]);

    // Deleted again, it waits in the trash, which Settings opens.
    dialog = await openDeleteDialog(page, post._id);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await card(page, post._id).waitFor({ state: 'detached' });
    toast = page.getByRole('status').filter({ hasText: 'Picture moved to the trash.' });
    await toast.getByRole('button', { name: 'Undo' }).waitFor();
    expect((await trashed()).posts.map((p) => p._id)).toEqual([post._id]);
    await page.goto('/profile/settings');
    await page.getByRole('link', { name: 'Open trash' }).click();
    await page.getByRole('heading', { level: 1, name: 'Trash' }).waitFor();
    const item = page.locator(`li[data-post-id="${post._id}"]`);
    await item.getByText('Asleep on the bins again').waitFor();
    await item.getByText('30 days left').waitFor();
    await item.getByRole('img', { name: 'Photo of Mochi' }).waitFor();
    await page.waitForFunction(
      () => Array.from(document.images).every((img) => img.complete && img.naturalWidth > 0),
      undefined,
      { timeout: 10_000 },
    );
    await screenshot(page, 'trash-page-390');

    await item.getByRole('button', { name: 'Restore Photo of Mochi' }).click();
    await page.getByText('Picture restored to your profile.').waitFor();
    await page.getByText('Your trash is empty.').waitFor();
    await screenshot(page, 'trash-empty-390');

    await page.goto('/feed');
    await card(page, post._id).waitFor();
    expect(
      (await apiCall<TrashResponse>(suite.server.url, user.accessToken, '/api/posts/trash')).posts,
    ).toEqual([]);
    await page.context().close();
  });

  it('deletes from the own profile and reaches the trash from Settings (desktop)', async () => {
    const user = await apiUser(suite.server.url, 'trashdesk');
    const first = await apiCreatePost(suite.server.url, user.accessToken, {
      catName: 'Pepper',
      comment: 'On the wall',
    });
    const second = await apiCreatePost(suite.server.url, user.accessToken, { comment: 'In the window' });
    const page = await signedInPage(suite.browser, suite.server.url, user, DESKTOP, '/profile/me');
    await card(page, second._id).waitFor();

    let dialog = await openDeleteDialog(page, second._id);
    await screenshot(page, 'trash-confirm-1280');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await card(page, second._id).waitFor({ state: 'detached' });
    await page
      .getByRole('status')
      .filter({ hasText: 'Picture moved to the trash.' })
      .getByRole('button', { name: 'Undo' })
      .waitFor();
    await screenshot(page, 'trash-toast-1280');
    dialog = await openDeleteDialog(page, first._id);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await card(page, first._id).waitFor({ state: 'detached' });

    await page.goto('/profile/settings');
    await page.getByRole('link', { name: 'Open trash' }).click();
    await page.getByRole('heading', { level: 1, name: 'Trash' }).waitFor();
    // Newest deletion first.
    const items = page.locator('li[data-post-id]');
    await items.nth(1).waitFor();
    expect(await items.evaluateAll((els) => els.map((el) => el.getAttribute('data-post-id')))).toEqual([
      first._id,
      second._id,
    ]);
    await page.waitForFunction(
      () => Array.from(document.images).every((img) => img.complete && img.naturalWidth > 0),
      undefined,
      { timeout: 10_000 },
    );
    await screenshot(page, 'trash-page-1280');

    await page.getByRole('button', { name: 'Restore Photo of Pepper' }).click();
    await page.getByText('Picture restored to your profile.').waitFor();
    await page.locator(`li[data-post-id="${first._id}"]`).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'View your profile' }).click();
    await card(page, first._id).waitFor();
    expect(await cardIds(page)).not.toContain(second._id);
    await page.context().close();
  });
});
