import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { MyProfileResponse, PagedPostsResponse, PostHistoryResponse } from '@cats/contracts';
import { newContext, PHONE, DESKTOP, screenshot } from './support/browser.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';
import { signInThroughApi } from './support/api.ts';
import { apiCall, apiCreatePost, apiUser, card, fixture, type SessionUser } from './support/posts.ts';

const DESCRIBE_LABEL = "Describe this photo for people who can't see it";
const REMINDER = 'Add a description so everyone can enjoy your cat?';

/** Issue 24: alt text on Spot and its badge, editing a post through its menu, and the reminder setting. */
describe('edit, edit history and alt text', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await sharedServerAndBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  async function signedIn(
    user: SessionUser,
    viewport: { width: number; height: number } = DESKTOP,
    at = '/feed',
  ): Promise<Page> {
    const page = await (await newContext(browser, server.url, viewport)).newPage();
    return signInThroughApi(page, user, at);
  }

  /** The card's picture has arrived (screenshots show it, not its placeholder). */
  const pictureLoaded = (cardLocator: Locator) =>
    expect
      .poll(() =>
        cardLocator
          .locator('img.post-image__img')
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      )
      .toBe(true);

  async function spotUpTo(page: Page) {
    await page.goto('/spot');
    await page.getByRole('heading', { name: 'Snap a cat' }).waitFor();
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'cat.jpg', mimeType: 'image/jpeg', buffer: fixture('photo-no-gps.jpg') });
    const crop = page.getByRole('dialog', { name: 'Crop your picture' });
    await crop.getByRole('button', { name: 'Crop' }).click();
    await crop.waitFor({ state: 'detached' });
  }

  it('reminds once on Spot, keeps the description, and the ALT badge reveals what the img alt says', async () => {
    const user = await apiUser(server.url, 'describer');
    const page = await signedIn(user);
    await spotUpTo(page);
    const caption = `Alt text on Spot ${Date.now()}`;
    await page.getByLabel('Add a comment').fill(caption);
    const description = page.getByLabel(DESCRIBE_LABEL);
    await page.getByText('0 / 1500').waitFor();

    // Empty description: a note, not a blocker. 'Add description' goes back to the field.
    await page.getByRole('button', { name: 'Submit' }).click();
    const reminder = page.getByRole('dialog', { name: REMINDER });
    await reminder.getByRole('button', { name: 'Add description' }).click();
    await reminder.waitFor({ state: 'detached' });
    await expect.poll(() => description.evaluate((el) => el === document.activeElement)).toBe(true);
    const text = 'A black cat with white paws curled up in a flower pot';
    await description.fill(text);
    await page.getByText(`${text.length} / 1500`).waitFor();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL('**/feed');

    const feed = await apiCall<PagedPostsResponse>(server.url, user.accessToken, '/api/feed/1');
    const post = feed.posts.find((p) => p.caption === caption)!;
    expect(post.altText).toBe(text);
    const ownCard = card(page, post._id);
    await ownCard.getByText(caption).waitFor();
    expect(await ownCard.locator('img.post-image__img').getAttribute('alt')).toBe(text);
    // The badge shows the description to sighted readers, and hides it again.
    const badge = ownCard.getByRole('button', { name: 'Show the description' });
    expect(await badge.textContent()).toBe('ALT');
    expect(await ownCard.getByText(text).count()).toBe(0);
    await badge.click();
    await ownCard.getByText(text).waitFor();
    await pictureLoaded(ownCard);
    await screenshot(page, 'edit-alt-badge-1280');
    await ownCard.getByRole('button', { name: 'Hide the description' }).click();
    await ownCard.getByText(text).waitFor({ state: 'detached' });

    // The post page uses it too, for the photo and the full-size view.
    await page.goto(`/posts/${post._id}`);
    await page.locator('.post-page__photo img').waitFor();
    expect(await page.locator('.post-page__photo img').getAttribute('alt')).toBe(text);
    await page.getByRole('button', { name: 'View full size' }).click();
    await expect.poll(() => page.locator('dialog img').last().getAttribute('alt')).toBe(text);
    await page.context().close();
  });

  it("edits a caption through the card's menu, marks it edited, and lists the earlier version", async () => {
    const user = await apiUser(server.url, 'editor');
    const post = await apiCreatePost(server.url, user.accessToken, {
      comment: 'First caption',
      catName: 'Pepper',
      location: null,
    });
    for (const [viewport, suffix] of [
      [PHONE, '390'],
      [DESKTOP, '1280'],
    ] as const) {
      const page = await signedIn(user, viewport, '/feed');
      const ownCard = card(page, post._id);
      await ownCard.getByRole('button', { name: 'Post options' }).click();
      await ownCard.getByRole('menuitem', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit picture' });
      await dialog.waitFor();
      expect(await dialog.getByLabel('Caption').inputValue()).toMatch(/caption/);
      await dialog.getByLabel(DESCRIBE_LABEL).fill('A grey tabby on a fence');
      // Let the dialog's opening animation finish before the picture is taken.
      await page.waitForTimeout(400);
      await pictureLoaded(ownCard);
      await screenshot(page, `edit-dialog-${suffix}`);
      if (suffix === '390') {
        // Cancel changes nothing.
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'detached' });
        expect(await ownCard.locator('.edited-mark').count()).toBe(0);
        await page.context().close();
        continue;
      }
      await dialog.getByLabel('Caption').fill('Second caption\nwith a new line');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      // The card changed in place: new caption, 'edited' with the time on hover, the ALT badge.
      await ownCard.getByText('Second caption').waitFor();
      const mark = ownCard.locator('time.edited-mark');
      expect(await mark.textContent()).toBe('edited');
      expect(await mark.getAttribute('title')).toMatch(/^Edited /);
      expect(await ownCard.locator('img.post-image__img').getAttribute('alt')).toBe(
        'A grey tabby on a fence',
      );
      await ownCard.getByRole('button', { name: 'Show the description' }).waitFor();

      // The post page: 'edited' opens the earlier versions.
      await page.goto(`/posts/${post._id}`);
      await page.getByRole('button', { name: /edited/ }).click();
      const history = page.getByRole('dialog', { name: 'Edit history' });
      await history.getByText('First caption').waitFor();
      await history.getByText('Second caption', { exact: false }).waitFor();
      await history.getByText('Original').waitFor();
      await history.getByText('Current').waitFor();
      await page.waitForTimeout(300);
      await screenshot(page, 'edit-history-1280');
      await page.context().close();
    }
    const versions = await apiCall<PostHistoryResponse>(
      server.url,
      user.accessToken,
      `/api/posts/${post._id}/history`,
    );
    expect(versions.versions.map((v) => v.caption)).toEqual([
      'Second caption\nwith a new line',
      'First caption',
    ]);
  });

  it('shows a refused edit in the dialog and keeps it open', async () => {
    const user = await apiUser(server.url, 'refused');
    const post = await apiCreatePost(server.url, user.accessToken, { comment: 'Keep me', location: null });
    const page = await signedIn(user, PHONE);
    // The server refuses (here: as if the text were too long); the dialog says why.
    await page.route(`**/api/posts/${post._id}`, (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({ message: 'Caption is at most 500 characters' }),
          })
        : route.continue(),
    );
    await page.goto('/feed');
    const ownCard = card(page, post._id);
    await ownCard.getByRole('button', { name: 'Post options' }).click();
    await ownCard.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit picture' });
    await dialog.getByLabel('Caption').fill('Changed');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').getByText('Caption is at most 500 characters').waitFor();
    expect(await dialog.isVisible()).toBe(true);
    await ownCard.getByText('Keep me').waitFor();
    await page.context().close();
  });

  it('turns the reminder off in Settings, and Spot then posts without asking', async () => {
    const user = await apiUser(server.url, 'noreminder');
    const page = await signedIn(user, PHONE, '/profile/settings');
    const toggle = page.getByRole('switch', { name: 'Remind me to describe my photos' });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await expect
      .poll(
        async () =>
          (await apiCall<MyProfileResponse>(server.url, user.accessToken, '/api/profile/getMyProfile'))
            .altTextReminder,
      )
      .toBe(false);

    await spotUpTo(page);
    const caption = `No reminder ${Date.now()}`;
    await page.getByLabel('Add a comment').fill(caption);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL('**/feed');
    expect(await page.getByRole('dialog', { name: REMINDER }).count()).toBe(0);
    await page.locator('article[data-post-id]').first().getByText(caption).waitFor();
    await page.context().close();
  });
});
