import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { CreateGroupResponse, PostDetail } from '@cats/contracts';
import { DESKTOP, PHONE, newContext, screenshot, animationsSettled } from './support/browser.ts';
import { signInThroughApi } from './support/api.ts';
import { serverAndBrowser } from './support/suite.ts';
import {
  apiCall,
  apiCreatePost,
  apiUser,
  card,
  FIXTURE_GPS,
  fixture,
  type SessionUser,
} from './support/posts.ts';

/**
 * Issue 24, "Own posts": the menu on one's own cards. Share, Share with groups and the location on the
 * map here; Edit (edit.e2e.ts) and Delete with its Undo (trash.e2e.ts) have their own files.
 */
describe('own-post menu', () => {
  const suite = serverAndBrowser();

  /** A user with one located picture (location on) and a group of their own. */
  async function author(prefix: string) {
    const user = await apiUser(suite.server.url, prefix);
    const post = await apiCreatePost(suite.server.url, user.accessToken, {
      image: fixture('photo-gps.jpg'),
      catName: 'Mochi',
      comment: 'On the garden wall',
      location: FIXTURE_GPS,
      showLocation: true,
    });
    const { group } = await apiCall<CreateGroupResponse>(
      suite.server.url,
      user.accessToken,
      '/api/groups/createGroup',
      {
        method: 'POST',
        body: JSON.stringify({ submitData: 'Street 12' }),
      },
    );
    return { user, post, groupId: group._id };
  }

  /** Signed in, with the clipboard allowed and no share sheet (as desktop Linux): Share copies. */
  async function signedIn(
    user: SessionUser,
    viewport: { width: number; height: number },
    at = '/feed',
  ): Promise<Page> {
    const context = await newContext(suite.browser, suite.server.url, viewport);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
    await context.addInitScript(() => {
      delete (Navigator.prototype as { share?: unknown }).share;
    });
    return signInThroughApi(await context.newPage(), user, at);
  }

  const serverPost = (user: SessionUser, postId: string) =>
    apiCall<PostDetail>(suite.server.url, user.accessToken, `/api/posts/${postId}`);

  async function openMenu(page: Page, postId: string) {
    await card(page, postId).getByRole('button', { name: 'Post options' }).click();
    const menu = card(page, postId).getByRole('menu', { name: 'Post options' });
    await menu.waitFor();
    return menu;
  }

  /** The dialog fades in: screenshots show it once it has. */
  const settled = (page: Page, name: string) => animationsSettled(page.getByRole('dialog', { name }));

  it('on a phone: the menu, Share copies the link, Share with groups shares the post (feed)', async () => {
    const { user, post, groupId } = await author('ownmenu');
    const page = await signedIn(user, PHONE, '/feed');
    await card(page, post._id).waitFor();

    const menu = await openMenu(page, post._id);
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual([
      'Edit',
      'Which cat is this?',
      'Share',
      'Share with groups',
      'Hide location on map',
      'Delete',
    ]);
    // Arrow keys walk it; Escape closes it with focus back on its button.
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Which cat is this?');
    await screenshot(page, 'own-menu-open-390');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Post options',
    );

    await (await openMenu(page, post._id)).getByRole('menuitem', { name: 'Share', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Link copied.' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${suite.server.url}/posts/${post._id}`,
    );

    await (await openMenu(page, post._id)).getByRole('menuitem', { name: 'Share with groups' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share with groups' });
    const street = dialog.getByRole('checkbox', { name: /Street 12/ });
    await street.waitFor();
    expect(await street.isChecked()).toBe(false);
    // Each tick saves at once.
    await street.click();
    await expect.poll(async () => (await serverPost(user, post._id)).groupIds).toEqual([groupId]);
    await expect.poll(() => street.isChecked()).toBe(true);
    await settled(page, 'Share with groups');
    await screenshot(page, 'own-menu-groups-390');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Opened again, it shows what the server has.
    await (await openMenu(page, post._id)).getByRole('menuitem', { name: 'Share with groups' }).click();
    expect(await street.isChecked()).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('on a wide screen: the location goes off and on from the menu, and the card shows it (own profile)', async () => {
    const { user, post, groupId } = await author('ownmenuwide');
    await apiCall(suite.server.url, user.accessToken, `/api/posts/${post._id}/groups`, {
      method: 'PUT',
      body: JSON.stringify({ groupIds: [groupId] }),
    });
    const page = await signedIn(user, DESKTOP, '/profile/me');
    const ownCard = card(page, post._id);
    const locationSwitch = ownCard.getByRole('switch', { name: 'Location on map' });
    await locationSwitch.waitFor();
    expect(await locationSwitch.getAttribute('aria-checked')).toBe('true');

    await openMenu(page, post._id);
    await screenshot(page, 'own-menu-open-1280');
    await ownCard.getByRole('menuitem', { name: 'Hide location on map' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Location off: this picture no longer shows on the map.' })
      .waitFor();
    await expect.poll(() => locationSwitch.getAttribute('aria-checked')).toBe('false');
    expect(await ownCard.locator('.post-location__state').textContent()).toBe('Not on map');
    expect((await serverPost(user, post._id)).showLocation).toBe(false);

    await (await openMenu(page, post._id)).getByRole('menuitem', { name: 'Show location on map' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Location on: this picture shows on the map.' })
      .waitFor();
    await expect.poll(() => locationSwitch.getAttribute('aria-checked')).toBe('true');
    expect((await serverPost(user, post._id)).showLocation).toBe(true);

    // Unsharing from the menu's dialog; the card's own line follows.
    await ownCard.getByRole('button', { name: 'Shared with 1 group' }).waitFor();
    await (await openMenu(page, post._id)).getByRole('menuitem', { name: 'Share with groups' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share with groups' });
    const street = dialog.getByRole('checkbox', { name: /Street 12/ });
    await street.waitFor();
    expect(await street.isChecked()).toBe(true);
    await settled(page, 'Share with groups');
    await screenshot(page, 'own-menu-groups-1280');
    await street.click();
    await expect.poll(async () => (await serverPost(user, post._id)).groupIds).toEqual([]);
    await expect.poll(() => street.isChecked()).toBe(false);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await ownCard.getByRole('button', { name: 'Share with groups' }).waitFor();
    await page.context().close();
  });

  it('on its own page: the owner deletes the picture, lands on their profile, and Undo brings it back', async () => {
    const { user, post } = await author('ownmenupage');
    const page = await signedIn(user, PHONE, `/posts/${post._id}`);
    // The profile's first list is read by the server before the Undo but reaches the page after the
    // page has taken the restore's answer (a slow phone network): the picture must come back all the
    // same. TanStack Query does not restart a list still on its first fetch when it is invalidated
    // (lib/refetch-after-write.ts); the page must ask again, and the held answer is let go when it
    // does, or a second after the restore if it never does.
    let askedAgain!: () => void;
    const secondRequest = new Promise<void>((resolve) => (askedAgain = resolve));
    let restoreAnswered!: () => void;
    const restored = new Promise<void>((resolve) => (restoreAnswered = resolve));
    page.on('response', (response) => {
      if (response.url().endsWith(`/api/posts/${post._id}/restore`)) restoreAnswered();
    });
    let firstListRead!: () => void;
    const listReadBeforeUndo = new Promise<void>((resolve) => (firstListRead = resolve));
    let listRequests = 0;
    await page.route('**/api/profile/getPosts/**', async (route) => {
      listRequests += 1;
      if (listRequests > 1) {
        askedAgain();
        return route.continue();
      }
      const response = await route.fetch();
      firstListRead();
      await restored;
      await Promise.race([secondRequest, new Promise((resolve) => setTimeout(resolve, 1000))]);
      // The page has given up on it if it asked again (a cancelled fetch): nothing left to answer.
      await route.fulfill({ response }).catch(() => undefined);
    });
    const options = page.getByRole('button', { name: 'Post options' });
    await options.click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this picture?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL('**/profile/me');
    const toast = page.getByRole('status').filter({ hasText: 'Picture moved to the trash.' });
    await toast.waitFor();
    await expect.poll(async () => (await apiTrash(user)).map((p) => p._id)).toEqual([post._id]);
    // The profile's route loads on its own (a separate chunk): on a busy machine its list could go out
    // after the Undo and read the restored picture, which would test nothing. Undo once it was read.
    await listReadBeforeUndo;
    await toast.getByRole('button', { name: 'Undo' }).click();
    await card(page, post._id).waitFor();
    expect(listRequests).toBe(2);
    expect((await serverPost(user, post._id))._id).toBe(post._id);
    await page.context().close();
  });

  const apiTrash = async (user: SessionUser) =>
    (await apiCall<{ posts: { _id: string }[] }>(suite.server.url, user.accessToken, '/api/posts/trash'))
      .posts;
});
