import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { GROUP_MESSAGES, type CreateGroupResponse } from '@cats/contracts';
import { DESKTOP, PHONE, screenshot } from './support/browser.ts';
import { signedInPage } from './support/api.ts';
import { apiCall, apiCreatePost, apiUser } from './support/posts.ts';
import { serverAndBrowser } from './support/suite.ts';

/**
 * Issue 25, done when: 'two browsers, one likes, the other's bell counts up without a reload; the owner
 * sees a join request arrive live'. Two people, each in a browser of their own (separate contexts:
 * their own cookies and storage), acting through the screens; the watching page must never reload.
 */
describe('live notifications, two people', () => {
  const suite = serverAndBrowser();

  /** Marks the page's document: a reload or navigation to a new document would drop the mark. */
  const markDocument = (page: Page) =>
    page.evaluate(() => {
      (window as unknown as { sameDocument: boolean }).sameDocument = true;
    });
  const sameDocument = (page: Page) =>
    page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);
  /**
   * Opens `path` as a new document and waits until its notification stream is open: what happens after
   * that must arrive live (the stream starts from the moment it opens).
   */
  const openLive = async (page: Page, path: string) => {
    const opened = page.waitForResponse(
      (r) => r.url().includes('/api/notifications/stream?') && r.status() === 200,
    );
    await page.goto(path);
    await opened;
  };
  const NOTHING_YET =
    'No notifications yet. When someone likes or comments on your pictures, you will see it here.';

  it("one likes a picture, and the other's bell counts up and the entry appears, without a reload", async () => {
    const [owner, fan] = await Promise.all([
      apiUser(suite.server.url, 'owner'),
      apiUser(suite.server.url, 'fan'),
    ]);
    const post = await apiCreatePost(suite.server.url, owner.accessToken, { catName: 'Mishi' });

    // The owner, on a phone, is on the notifications page: the tab bar's bell and the list.
    const ownerPage = await signedInPage(suite.browser, suite.server.url, owner, PHONE);
    await openLive(ownerPage, '/notifications');
    const bell = ownerPage
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /^Notifications/ });
    await ownerPage.getByText(NOTHING_YET, { exact: true }).waitFor();
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications');
    await markDocument(ownerPage);

    // The fan, on a desktop, likes the picture on its page.
    const fanPage = await signedInPage(suite.browser, suite.server.url, fan, DESKTOP, `/posts/${post._id}`);
    const like = fanPage
      .locator(`article[data-post-id="${post._id}"]`)
      .getByRole('button', { name: /^Like,/ });
    await like.waitFor();
    await like.click();
    await expect.poll(() => like.getAttribute('aria-pressed')).toBe('true');

    await expect
      .poll(() => bell.getAttribute('aria-label'), { timeout: 5_000 })
      .toBe('Notifications, 1 unread');
    expect(await bell.locator('.notification-bell__badge').textContent()).toBe('1');
    const entry = ownerPage
      .getByRole('list', { name: 'Notifications' })
      .getByRole('link', { name: `Unread: ${fan.username} liked your picture` });
    await entry.waitFor({ timeout: 5_000 });
    expect(await entry.getAttribute('href')).toBe(`/posts/${post._id}`);
    expect(await sameDocument(ownerPage)).toBe(true);
    await screenshot(ownerPage, 'notifications-live-390');

    // The fan takes the like back: the entry goes and the bell goes quiet, still without a reload.
    await like.click();
    await expect.poll(() => like.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => bell.getAttribute('aria-label'), { timeout: 5_000 }).toBe('Notifications');
    await ownerPage.getByText(NOTHING_YET, { exact: true }).waitFor({ timeout: 5_000 });
    expect(await sameDocument(ownerPage)).toBe(true);
    await ownerPage.context().close();
    await fanPage.context().close();
  });

  it("shows the owner a join request on the group's page as it is made, without a reload", async () => {
    const [owner, asker] = await Promise.all([
      apiUser(suite.server.url, 'gowner'),
      apiUser(suite.server.url, 'asker'),
    ]);
    const { group } = await apiCall<CreateGroupResponse>(
      suite.server.url,
      owner.accessToken,
      '/api/groups/createGroup',
      { method: 'POST', body: JSON.stringify({ submitData: 'Rooftop Cats' }) },
    );

    const ownerPage = await signedInPage(suite.browser, suite.server.url, owner, DESKTOP);
    await openLive(ownerPage, `/groups/${group._id}`);
    const requests = ownerPage.getByRole('region', { name: /Pending requests/ });
    await requests.getByText('No one is waiting to join.').waitFor();
    const bell = ownerPage
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /^Notifications/ });
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications');
    await markDocument(ownerPage);

    // The asker, on a phone, enters the code on the groups page.
    const askerPage = await signedInPage(suite.browser, suite.server.url, asker, PHONE);
    await openLive(askerPage, '/groups');
    await askerPage.getByLabel('Group code').fill(group.code);
    await askerPage.getByRole('button', { name: 'Request to join group' }).click();
    const sent = askerPage.locator('dialog[open]').filter({ hasText: GROUP_MESSAGES.requestSent });
    await sent.waitFor();
    await sent.getByRole('button', { name: 'OK' }).click();

    await requests.getByText(asker.username).waitFor({ timeout: 5_000 });
    await requests.getByRole('button', { name: `Accept ${asker.username}` }).waitFor();
    await expect
      .poll(() => bell.getAttribute('aria-label'), { timeout: 5_000 })
      .toBe('Notifications, 1 unread');
    expect(await sameDocument(ownerPage)).toBe(true);
    await screenshot(ownerPage, 'group-request-live-1280');

    // Accepted on the spot: the asker's bell, on the groups page, counts the answer without a reload.
    await markDocument(askerPage);
    await requests.getByRole('button', { name: `Accept ${asker.username}` }).click();
    await requests.getByText('No one is waiting to join.').waitFor();
    const askerBell = askerPage
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /^Notifications/ });
    await expect
      .poll(() => askerBell.getAttribute('aria-label'), { timeout: 5_000 })
      .toBe('Notifications, 1 unread');
    await askerPage.getByRole('link', { name: /Rooftop Cats\s*Member/ }).waitFor({ timeout: 5_000 });
    expect(await sameDocument(askerPage)).toBe(true);
    await ownerPage.context().close();
    await askerPage.context().close();
  });
});
