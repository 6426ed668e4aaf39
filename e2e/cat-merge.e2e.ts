import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type {
  CatHistoryResponse,
  CatResponse,
  CatSightingsResponse,
  CreateCatResponse,
  NotificationsResponse,
  Post,
  PostDetail,
} from '@cats/contracts';
import { DESKTOP, PHONE, screenshot, animationsSettled } from './support/browser.ts';
import { axeOn } from './support/screens.ts';
import { signedInPage } from './support/api.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';
import { apiCall, apiCreatePost, apiUser, fixture, FIXTURE_GPS, type SessionUser } from './support/posts.ts';

const near = (dLat: number, dLng: number) => ({
  latitude: FIXTURE_GPS.latitude + dLat,
  longitude: FIXTURE_GPS.longitude + dLng,
});

/**
 * Issue 26, "Linking sightings": 'This is Mochi' (the seed has a Luna of its own) suggested on someone else's picture and accepted by its
 * author on the picture's page; two profiles of one cat merged by their caretaker, the duplicate's
 * address leading to the survivor, nobody told of old sightings, and the merge undone from the history.
 */
describe('cat suggestions and merges', () => {
  let server: RunningServer;
  let browser: Browser;
  let keeper: SessionUser; // cares for Mochi and for 'Mochi 2'
  let author: SessionUser; // posts a picture of Mochi without saying so
  let mariposa: SessionUser; // knows it is Mochi
  let fan: SessionUser; // follows 'Mochi 2'
  let mochiId: string;
  let twinId: string;
  let picture: Post;
  let twinSightings: Post[];

  const createCat = async (name: string, postId: string) =>
    (
      await apiCall<CreateCatResponse>(server.url, keeper.accessToken, '/api/cats', {
        method: 'POST',
        body: JSON.stringify({ name, postId }),
      })
    ).cat._id;
  const unread = async (user: SessionUser) =>
    (await apiCall<{ count: number }>(server.url, user.accessToken, '/api/notifications/unread-count')).count;

  /** A dialog has finished opening (its fade-in), so that a screenshot shows it as a person sees it. */
  const settled = animationsSettled;

  async function axeViolations(page: Page): Promise<string[]> {
    const result = await axeOn(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  }

  beforeAll(async () => {
    [server, browser] = await sharedServerAndBrowser();
    [keeper, author, mariposa, fan] = await Promise.all([
      apiUser(server.url, 'keeper'),
      apiUser(server.url, 'ana'),
      apiUser(server.url, 'mariposa'),
      apiUser(server.url, 'fan'),
    ]);
    const mochiFirst = await apiCreatePost(server.url, keeper.accessToken, {
      image: fixture('photo-gps.jpg'),
      comment: 'Mochi on the harbour wall.',
      location: near(0, 0),
    });
    mochiId = await createCat('Mochi', mochiFirst._id);
    twinSightings = [
      await apiCreatePost(server.url, keeper.accessToken, {
        image: fixture('rotated-6.jpg'),
        comment: 'A ginger one by the bakery.',
        location: near(0.004, 0.003),
      }),
      await apiCreatePost(server.url, keeper.accessToken, {
        image: fixture('photo-no-gps.jpg'),
        comment: 'The bakery cat again.',
        location: near(0.005, 0.002),
      }),
    ];
    twinId = await createCat('Mochi 2', twinSightings[0]!._id);
    await apiCall(server.url, keeper.accessToken, `/api/posts/${twinSightings[1]!._id}/cat`, {
      method: 'PUT',
      body: JSON.stringify({ catId: twinId }),
    });
    await apiCall(server.url, fan.accessToken, `/api/cats/${twinId}/follow`, { method: 'PUT' });
    picture = await apiCreatePost(server.url, author.accessToken, {
      image: fixture('photo-gps.jpg'),
      comment: 'Who is this?',
      location: near(-0.002, 0.001),
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  it("suggests 'This is Mochi' on someone else's picture; its author accepts it on the picture's page", async () => {
    const page = await signedInPage(browser, server.url, mariposa, DESKTOP, `/posts/${picture._id}`);
    await page.getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'This is…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Which cat is this?' });
    await dialog.getByLabel('Search cats by name').fill('Moc');
    const mochi = dialog.getByRole('button', { name: /^Mochi Last seen/ });
    await mochi.locator('img.post-image__img--loaded').waitFor();
    await settled(dialog);
    await screenshot(page, 'cat-merge-suggest-1280');
    expect(await axeViolations(page)).toEqual([]);
    await mochi.click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText(`You suggested that this is Mochi. ${author.username} will decide.`).waitFor();
    await page.context().close();

    // Asking twice (here on a phone, from the card in the feed) is refused, and said so in the dialog.
    const again = await signedInPage(browser, server.url, mariposa, PHONE, `/posts/${picture._id}`);
    await again.getByRole('button', { name: 'Post options' }).click();
    await again.getByRole('menuitem', { name: 'This is…' }).click();
    const phoneDialog = again.getByRole('dialog', { name: 'Which cat is this?' });
    await phoneDialog.getByLabel('Search cats by name').fill('Moc');
    await phoneDialog.getByRole('button', { name: /^Mochi Last seen/ }).click();
    await phoneDialog
      .getByRole('alert')
      .filter({ hasText: 'You already suggested a cat for this picture' })
      .waitFor();
    await settled(phoneDialog);
    await screenshot(again, 'cat-merge-suggest-refused-390');
    expect(await axeViolations(again)).toEqual([]);
    await phoneDialog.getByRole('button', { name: 'Cancel' }).click();
    await again.context().close();

    // The author is told, and answers on the picture's page (phone first, then a wide screen).
    const phone = await signedInPage(browser, server.url, author, PHONE, '/notifications');
    const entry = phone
      .getByRole('list', { name: 'Notifications' })
      .getByRole('link', { name: new RegExp(`${mariposa.username} suggests your picture shows Mochi`) });
    await entry.click();
    await phone.waitForURL(`**/posts/${picture._id}`);
    const suggestions = phone.getByRole('region', { name: 'Which cat is this? Suggestions' });
    await suggestions.getByText(`${mariposa.username} suggests this is`).waitFor();
    await suggestions.scrollIntoViewIfNeeded();
    await screenshot(phone, 'cat-merge-suggestions-390');
    // The section fits the phone's width (the page's own 'On map' tooltip is not this test's business).
    expect(await suggestions.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(
      PHONE.width,
    );
    expect(await axeViolations(phone)).toEqual([]);
    await phone.context().close();

    const wide = await signedInPage(browser, server.url, author, DESKTOP, `/posts/${picture._id}`);
    const region = wide.getByRole('region', { name: 'Which cat is this? Suggestions' });
    await region.getByRole('button', { name: 'Accept' }).waitFor();
    await region.locator('img.post-image__img--loaded').waitFor();
    await screenshot(wide, 'cat-merge-suggestions-1280');
    await region.getByRole('button', { name: 'Accept' }).click();
    await wide.getByText('This picture now shows Mochi.').waitFor();
    await wide.getByRole('heading', { level: 1, name: 'Mochi' }).getByRole('link').waitFor();
    await region.waitFor({ state: 'detached' });
    const linked = await apiCall<PostDetail>(server.url, author.accessToken, `/api/posts/${picture._id}`);
    expect(linked.cat).toEqual({ _id: mochiId, name: 'Mochi', missing: false });
    await wide.context().close();

    // mariposa hears that the author agreed.
    const told = await apiCall<NotificationsResponse>(server.url, mariposa.accessToken, '/api/notifications');
    expect(told.notifications.map((n) => [n.type, n.cat?.name])).toEqual([
      ['cat_suggestion_accepted', 'Mochi'],
    ]);
  });

  it('merges the duplicate into Mochi without telling its follower anything, and undoes it from the history', async () => {
    const fanUnread = await unread(fan);
    // A wide screen: the two steps, looked at, then left with Back and Cancel (nothing merged).
    const page = await signedInPage(browser, server.url, keeper, DESKTOP, `/cats/${mochiId}`);
    await page.getByRole('heading', { level: 1, name: 'Mochi' }).waitFor();
    await page.getByRole('button', { name: 'Merge a duplicate…' }).click();
    const pick = page.getByRole('dialog', { name: 'Merge a duplicate into Mochi' });
    const option = pick.getByRole('button', { name: /^Mochi 2/ });
    await option.locator('img.post-image__img--loaded').waitFor();
    await settled(pick);
    await screenshot(page, 'cat-merge-pick-1280');
    expect(await axeViolations(page)).toEqual([]);
    await option.click();
    const confirm = page.getByRole('alertdialog', { name: 'Merge Mochi 2 into Mochi?' });
    await confirm.getByText('Mochi 2’s sightings, followers and caretakers move to Mochi.').waitFor();
    await settled(confirm);
    await screenshot(page, 'cat-merge-confirm-1280');
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Back' }).click();
    await pick.getByRole('button', { name: 'Cancel' }).click();
    await pick.waitFor({ state: 'hidden' });

    // On a phone: the merge itself.
    const phone = await signedInPage(browser, server.url, keeper, PHONE, `/cats/${mochiId}`);
    await phone.getByRole('button', { name: 'Merge a duplicate…' }).click();
    const phonePick = phone.getByRole('dialog', { name: 'Merge a duplicate into Mochi' });
    await phonePick
      .getByRole('button', { name: /^Mochi 2/ })
      .locator('img.post-image__img--loaded')
      .waitFor();
    await settled(phonePick);
    await screenshot(phone, 'cat-merge-pick-390');
    await phonePick.getByRole('button', { name: /^Mochi 2/ }).click();
    const phoneConfirm = phone.getByRole('alertdialog', { name: 'Merge Mochi 2 into Mochi?' });
    await settled(phoneConfirm);
    await screenshot(phone, 'cat-merge-confirm-390');
    expect(await axeViolations(phone)).toEqual([]);
    await phoneConfirm.getByRole('button', { name: 'Merge' }).click();
    await phoneConfirm.waitFor({ state: 'hidden' });
    await phone.getByText('Mochi 2 is now part of Mochi. You can undo this from the history.').waitFor();
    await phone.getByText('4 sightings in all.').waitFor();
    const phoneHistory = phone.getByRole('region', { name: 'History' });
    await phoneHistory.getByText(`${keeper.username} merged`).waitFor();
    await phoneHistory.scrollIntoViewIfNeeded();
    await phoneHistory.getByText(/^You can undo this until/).waitFor();
    await screenshot(phone, 'cat-merge-history-390');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await axeViolations(phone)).toEqual([]);

    // The duplicate's address leads to Mochi; its follower follows Mochi now, and was told nothing.
    await page.goto(`/cats/${twinId}`);
    await page.waitForURL(`**/cats/${mochiId}`);
    await page.getByRole('heading', { level: 1, name: 'Mochi' }).waitFor();
    const history = page.getByRole('region', { name: 'History' });
    await history.getByText(`${keeper.username} merged`).waitFor();
    await screenshot(page, 'cat-merge-history-1280');
    const forFan = await apiCall<CatResponse>(server.url, fan.accessToken, `/api/cats/${mochiId}`);
    expect(forFan.cat.viewer.following).toBe(true);
    expect(await unread(fan)).toBe(fanUnread);
    await page.context().close();

    // Undo, on the phone.
    await phoneHistory.getByRole('button', { name: 'Undo' }).click();
    await phone.getByText('Mochi 2 has a page of its own again.').waitFor();
    await phoneHistory.getByText(`${keeper.username} undid this merge.`).waitFor();
    await screenshot(phone, 'cat-merge-undone-390');

    // Exactly what moved went back; Mochi keeps the sighting she was given since.
    const back = await apiCall<CatSightingsResponse>(
      server.url,
      keeper.accessToken,
      `/api/cats/${twinId}/sightings`,
    );
    expect(back.posts.map((p) => p._id).sort()).toEqual(twinSightings.map((p) => p._id).sort());
    const mochiNow = await apiCall<CatSightingsResponse>(
      server.url,
      keeper.accessToken,
      `/api/cats/${mochiId}/sightings`,
    );
    expect(mochiNow.posts.map((p) => p._id)).toContain(picture._id);
    const twin = await apiCall<CatResponse>(server.url, fan.accessToken, `/api/cats/${twinId}`);
    expect([twin.cat._id, twin.mergedInto, twin.cat.viewer.following]).toEqual([twinId, undefined, true]);
    const record = await apiCall<CatHistoryResponse>(
      server.url,
      keeper.accessToken,
      `/api/cats/${mochiId}/history`,
    );
    expect(record.merges.map((m) => [m.undoneBy?.username, m.canUndo])).toEqual([[keeper.username, false]]);
    expect(await unread(fan)).toBe(fanUnread);
    await phone.goto(`/cats/${twinId}`);
    await phone.getByRole('heading', { level: 1, name: 'Mochi 2' }).waitFor();
    await phone.context().close();
  });
});
