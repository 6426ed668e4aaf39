import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, screenshot } from './support/browser.ts';
import { signedInPage } from './support/api.ts';
import { apiCall, apiCreatePost, apiUser } from './support/posts.ts';
import { serverAndBrowser } from './support/suite.ts';

/**
 * A person's Chrome keeps the pages they leave in its back/forward cache, to show them again at once
 * on Back. A page kept there with its notification stream open held one of the six connections that
 * Chrome opens to one server over HTTP/1.1 (what `npm start` serves): six page loads in a row, and the
 * next page never came. `npm run bench` found it (its Lighthouse browser keeps the cache; Playwright's
 * own turns it off, so no other test here could). The app now lets go of the stream on `pagehide` and
 * picks it up again on a `pageshow` from the cache (lib/notification-stream.ts).
 */
describe('pages kept in the back/forward cache', () => {
  const suite = serverAndBrowser({ backForwardCache: true });

  /** Opens `path` as a new document and waits until its notification stream is open. */
  const openLive = async (page: Page, path: string) => {
    const opened = page.waitForResponse(
      (r) => r.url().includes('/api/notifications/stream?') && r.status() === 200,
    );
    await page.goto(path, { timeout: 20_000 });
    await opened;
  };

  it('leave no connection open: ten page loads in a row all load, each with its live stream', async () => {
    const walker = await apiUser(suite.server.url, 'walker');
    const page = await signedInPage(suite.browser, suite.server.url, walker, PHONE);
    const paths = [
      '/feed',
      '/spot',
      '/groups',
      '/cats',
      '/profile/me',
      '/profile/settings',
      '/about',
      '/notifications',
      '/explore',
      '/feed',
    ];
    // Before the change the seventh of these waited for a connection until it timed out.
    for (const path of paths) await openLive(page, path);
    expect(new URL(page.url()).pathname).toBe('/feed');
    await page.context().close();
  });

  it('a page shown again from the cache takes up its stream: what happened meanwhile and after arrives', async () => {
    const [owner, fan] = await Promise.all([
      apiUser(suite.server.url, 'owner'),
      apiUser(suite.server.url, 'fan'),
    ]);
    const [first, second] = [
      await apiCreatePost(suite.server.url, owner.accessToken, { catName: 'Mishi' }),
      await apiCreatePost(suite.server.url, owner.accessToken, { catName: 'Tigre' }),
    ];
    const page = await signedInPage(suite.browser, suite.server.url, owner, DESKTOP);
    // Which documents came back from the cache rather than loading anew.
    await page.addInitScript(() => {
      addEventListener('pageshow', (event) => {
        (window as unknown as { restored: boolean }).restored = event.persisted;
      });
    });
    const like = (postId: string) =>
      apiCall(suite.server.url, fan.accessToken, `/api/posts/likePost/${postId}`, {
        method: 'PUT',
        body: '{}',
      });
    const bell = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Notifications/ });

    await openLive(page, '/notifications');
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications');
    // Away on another page of the app, loaded as a new document; the fan likes a picture meanwhile.
    await openLive(page, '/about');
    await like(first._id);

    // Back: the same document, from the cache, catches up on its stream without a reload.
    const reopened = page.waitForResponse(
      (r) => r.url().includes('/api/notifications/stream?') && r.status() === 200,
    );
    // A page from the cache fires no load event: the navigation is done once it commits.
    await page.goBack({ waitUntil: 'commit' });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { restored?: boolean }).restored))
      .toBe(true);
    await reopened;
    await expect
      .poll(() => bell.getAttribute('aria-label'), { timeout: 10_000 })
      .toBe('Notifications, 1 unread');
    const list = page.getByRole('list', { name: 'Notifications' });
    await list.getByRole('link', { name: `Unread: ${fan.username} liked your picture` }).waitFor();

    // And it is live again: the next like arrives as it happens.
    await like(second._id);
    await expect
      .poll(() => bell.getAttribute('aria-label'), { timeout: 10_000 })
      .toBe('Notifications, 2 unread');
    expect(await page.evaluate(() => (window as unknown as { restored?: boolean }).restored)).toBe(true);
    await screenshot(page, 'notifications-after-back-1280');
    await page.context().close();
  });
});
