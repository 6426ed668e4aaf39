import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { NotificationPreferences, Post, UnreadCountResponse } from '@cats/contracts';
import { DESKTOP, PHONE, screenshot } from './support/browser.ts';
import { axeOn } from './support/screens.ts';
import { serverAndBrowser } from './support/suite.ts';
import { DEMO, signedInPage } from './support/api.ts';
import { apiCall, apiCreatePost, apiUser, type SessionUser } from './support/posts.ts';

/** Issue 25: the bell, /notifications and the notification switches in Settings, in the browser. */
describe('notifications', () => {
  const suite = serverAndBrowser();

  const like = (user: SessionUser, post: Post) =>
    apiCall(suite.server.url, user.accessToken, `/api/posts/likePost/${post._id}`, {
      method: 'PUT',
      body: '{}',
    });
  const unreadCount = async (user: SessionUser) =>
    (
      await apiCall<UnreadCountResponse>(
        suite.server.url,
        user.accessToken,
        '/api/notifications/unread-count',
      )
    ).count;
  /** The bell is a link named by its count; the member navigation loads after the screen. */
  const bell = (page: Page) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Notifications/ });
  const bellName = (page: Page) => bell(page).getAttribute('aria-label');
  const entry = (page: Page, text: string) =>
    page.getByRole('list', { name: 'Notifications' }).getByRole('link', { name: text });

  async function axeViolations(page: Page): Promise<string[]> {
    const result = await axeOn(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  }

  it('shows who liked which picture, links each entry to it, and marks read on open and all at once', async () => {
    const [owner, fan, other] = await Promise.all([
      apiUser(suite.server.url, 'owner'),
      apiUser(suite.server.url, 'fan'),
      apiUser(suite.server.url, 'other'),
    ]);
    const first = await apiCreatePost(suite.server.url, owner.accessToken, { catName: 'Tom' });
    const second = await apiCreatePost(suite.server.url, owner.accessToken, { catName: 'Luna' });
    await like(fan, first);
    await like(fan, second);
    await like(other, second);

    const page = await signedInPage(suite.browser, suite.server.url, owner, DESKTOP);
    await expect.poll(() => bellName(page)).toBe('Notifications, 2 unread');
    expect(await bell(page).locator('.notification-bell__badge').textContent()).toBe('2');

    await bell(page).click();
    await page.waitForURL('**/notifications');
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    // The newest change first: the second picture's entry, which names its latest liker.
    const firstEntry = entry(page, `Unread: ${fan.username} liked your picture`);
    const secondEntry = entry(page, `Unread: ${other.username} and 1 other liked your picture`);
    await firstEntry.waitFor();
    await secondEntry.waitFor();
    expect(await firstEntry.getAttribute('href')).toBe(`/posts/${first._id}`);
    expect(await secondEntry.getAttribute('href')).toBe(`/posts/${second._id}`);
    const ids = await page
      .locator('[data-notification-id]')
      .evaluateAll((els) => els.map((el) => el.getAttribute('href')));
    expect(ids).toEqual([`/posts/${second._id}`, `/posts/${first._id}`]);
    expect(await firstEntry.locator('img.notification__thumbnail').count()).toBe(1);
    expect(await firstEntry.locator('time').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'notifications-1280');

    // Opening the page marked nothing read.
    expect(await unreadCount(owner)).toBe(2);

    // Opening an entry marks that one read, and goes to its picture.
    await firstEntry.click();
    await page.waitForURL(`**/posts/${first._id}`);
    await expect.poll(() => bellName(page)).toBe('Notifications, 1 unread');
    await expect.poll(() => unreadCount(owner)).toBe(1);

    await page.goBack();
    await entry(page, `${fan.username} liked your picture`).waitFor();
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect.poll(() => bellName(page)).toBe('Notifications');
    expect(await bell(page).locator('.notification-bell__badge').count()).toBe(0);
    // The bell hears of it before the list's own refetch lands: on a busy machine the button goes later.
    await expect.poll(() => page.getByRole('button', { name: 'Mark all as read' }).count()).toBe(0);
    // Both change optimistically, before the server has answered the POST.
    await expect.poll(() => unreadCount(owner)).toBe(0);

    // Read stays read.
    await page.reload();
    await entry(page, `${other.username} and 1 other liked your picture`).waitFor();
    expect(await page.getByText('Unread:').count()).toBe(0);
    await page.context().close();
  });

  it('shows the count on the phone tab bar and an empty page to someone with nothing yet', async () => {
    const [owner, fan, quiet] = await Promise.all([
      apiUser(suite.server.url, 'phone'),
      apiUser(suite.server.url, 'fan'),
      apiUser(suite.server.url, 'quiet'),
    ]);
    await like(fan, await apiCreatePost(suite.server.url, owner.accessToken));

    const page = await signedInPage(suite.browser, suite.server.url, owner, PHONE);
    await expect.poll(() => bellName(page)).toBe('Notifications, 1 unread');
    expect(await bell(page).isVisible()).toBe(true);
    expect(await bell(page).locator('.notification-bell__badge').textContent()).toBe('1');
    await page.goto('/notifications');
    await entry(page, `Unread: ${fan.username} liked your picture`).waitFor();
    await screenshot(page, 'notifications-390');
    await page.context().close();

    const empty = await signedInPage(suite.browser, suite.server.url, quiet, PHONE, '/notifications');
    await empty
      .getByText(
        'No notifications yet. When someone likes or comments on your pictures, you will see it here.',
        { exact: true },
      )
      .waitFor();
    expect(await bellName(empty)).toBe('Notifications');
    expect(await empty.getByRole('button', { name: 'Mark all as read' }).count()).toBe(0);
    await empty.context().close();
  });

  it("tells a cat's follower of its new sighting, as who spotted which cat, opening the post", async () => {
    const [carer, follower, spotter] = await Promise.all([
      apiUser(suite.server.url, 'carer'),
      apiUser(suite.server.url, 'follower'),
      apiUser(suite.server.url, 'spotter'),
    ]);
    const { cat } = await apiCall<{ cat: { _id: string } }>(
      suite.server.url,
      carer.accessToken,
      '/api/cats',
      {
        method: 'POST',
        body: JSON.stringify({ name: 'Mariposa', living: 'community' }),
      },
    );
    await apiCall(suite.server.url, follower.accessToken, `/api/cats/${cat._id}/follow`, { method: 'PUT' });
    const post = await apiCreatePost(suite.server.url, spotter.accessToken, {
      catId: cat._id,
      location: { latitude: 36.7213, longitude: -4.4214 },
    });

    for (const [viewport, name] of [
      // The phone first: the desktop then opens the entry, which marks it read.
      [PHONE, 'notifications-cat-sighting-390'],
      [DESKTOP, 'notifications-cat-sighting-1280'],
    ] as const) {
      const page = await signedInPage(suite.browser, suite.server.url, follower, viewport, '/notifications');
      const sighting = entry(page, `Unread: ${spotter.username} spotted Mariposa`);
      await sighting.waitFor();
      expect(await sighting.getAttribute('href')).toBe(`/posts/${post._id}`);
      expect(await sighting.locator('img.notification__thumbnail').count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, name);
      if (viewport === DESKTOP) {
        await sighting.click();
        await page.waitForURL(`**/posts/${post._id}`);
        await expect.poll(() => unreadCount(follower)).toBe(0);
      } else {
        await page.goto('/profile/settings');
        const row = page.getByRole('group', { name: 'New sightings of cats you follow or care for' });
        await row.scrollIntoViewIfNeeded();
        expect(await row.getByRole('switch').count()).toBe(2);
        await screenshot(page, 'settings-cat-sighting-switches-390');
      }
      await page.context().close();
    }
    // The carer is told too; the spotter, of nothing of their own.
    expect(await unreadCount(carer)).toBe(1);
    expect(await unreadCount(spotter)).toBe(0);
  });

  it('keeps a notification switch after a reload', async () => {
    const user = await apiUser(suite.server.url, 'prefs');
    const page = await signedInPage(suite.browser, suite.server.url, user, DESKTOP, '/profile/settings');
    const likes = () =>
      page.getByRole('group', { name: 'Likes on your pictures' }).getByRole('switch', { name: 'In the app' });
    await likes().waitFor();
    expect(await likes().isChecked()).toBe(true);
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/notifications/preferences') && r.request().method() === 'PUT',
    );
    await likes().click();
    expect((await saved).status()).toBe(200);
    expect(await likes().isChecked()).toBe(false);

    await page.reload();
    await likes().waitFor();
    expect(await likes().isChecked()).toBe(false);
    const push = page
      .getByRole('group', { name: 'Likes on your pictures' })
      .getByRole('switch', { name: 'Push' });
    expect(await push.isChecked()).toBe(true);
    const { preferences } = await apiCall<{ preferences: NotificationPreferences }>(
      suite.server.url,
      user.accessToken,
      '/api/notifications/preferences',
    );
    expect(preferences.like).toEqual({ inApp: false, push: true });
    expect(preferences.comment).toEqual({ inApp: true, push: true });
    await page.context().close();
  });

  it('shows the demo account its switches disabled and no Mark all as read', async () => {
    const page = await signedInPage(suite.browser, suite.server.url, DEMO, DESKTOP, '/profile/settings');
    await page.getByText('The demo account cannot change its notifications.').waitFor();
    const switches = page.getByRole('group', { name: 'Answers to your join requests' }).getByRole('switch');
    expect(await switches.count()).toBe(2);
    for (const s of await switches.all()) expect(await s.isDisabled()).toBe(true);

    await page.goto('/notifications');
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    await page.locator('.notifications, .notifications-page__empty').first().waitFor();
    expect(await page.getByRole('button', { name: 'Mark all as read' }).count()).toBe(0);
    await page.context().close();
  });
});
