import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  browserSubscription,
  startFakePushService,
  verifyVapid,
  type BrowserSubscription,
  type FakePushService,
} from '../apps/server/test/push-service.ts';
import { DEMO, signInThroughApi } from './support/api.ts';
import { DESKTOP, newContext, PHONE } from './support/browser.ts';
import { apiCall, apiCreatePost, apiUser, FIXTURE_GPS, type SessionUser } from './support/posts.ts';
import { ROOT, type RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';

/**
 * Web Push (issue 25) in the browser. Headless Chromium has no push service to subscribe with (its
 * pushManager.subscribe() fails at once with 'AbortError: Registration failed - permission denied',
 * offline or not), so the page's PushManager is replaced by one that hands out a subscription this
 * test made, with real keys, on a push service played by a local HTTP server. Everything else is
 * real: the permission prompt's answer, the service worker's registration, the card's requests, the
 * server's encrypted push to the local push service, and the service worker showing that push (handed
 * to it through the DevTools protocol, as a push service would) and opening its page.
 */

/** Runs in the page before the app: a PushManager whose subscription survives reloads, as a browser's does. */
function stubPushManager(made: { endpoint: string; keys: { p256dh: string; auth: string } }) {
  const STORE = 'e2e-push-subscription';
  type Saved = { key: number[]; userVisibleOnly: boolean };
  const subscription = (saved: Saved) => ({
    endpoint: made.endpoint,
    expirationTime: null,
    options: {
      userVisibleOnly: saved.userVisibleOnly,
      applicationServerKey: new Uint8Array(saved.key).buffer,
    },
    toJSON: () => ({ endpoint: made.endpoint, expirationTime: null, keys: made.keys }),
    unsubscribe: async () => {
      localStorage.removeItem(STORE);
      return true;
    },
  });
  PushManager.prototype.getSubscription = async function () {
    const raw = localStorage.getItem(STORE);
    return (raw ? subscription(JSON.parse(raw) as Saved) : null) as unknown as PushSubscription;
  };
  PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
    const key = options?.applicationServerKey;
    const bytes =
      key instanceof ArrayBuffer ? new Uint8Array(key) : new Uint8Array((key as Uint8Array).buffer);
    const saved: Saved = { key: [...bytes], userVisibleOnly: options?.userVisibleOnly === true };
    localStorage.setItem(STORE, JSON.stringify(saved));
    return subscription(saved) as unknown as PushSubscription;
  };
}

const SHOTS = process.env.PUSH_SHOTS_DIR;

describe('push notifications', () => {
  let server: RunningServer;
  let browser: Browser;
  let service: FakePushService;

  beforeAll(async () => {
    service = await startFakePushService();
    // The worker's server allows push endpoints on 127.0.0.1, where the stand-in push service listens.
    [server, browser] = await sharedServerAndBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
    await service?.close();
  });

  const card = (page: Page) => page.getByRole('region', { name: 'Push notifications' });
  async function openSettings(context: BrowserContext, user: { email: string; password: string }) {
    const page = await context.newPage();
    await signInThroughApi(page, user, '/profile/settings');
    await card(page).waitFor();
    return page;
  }
  /** The card at 1280 and 390 px, under screenshots/ (and PUSH_SHOTS_DIR when set). */
  async function shoot(page: Page, name: string) {
    const dir = join(ROOT, 'screenshots');
    mkdirSync(dir, { recursive: true });
    for (const [size, viewport] of [
      ['1280', DESKTOP],
      ['390', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      // Clear of the fixed navigation bars, which would cover part of it at the viewport's edges.
      await page.waitForLoadState('networkidle');
      await card(page).evaluate((el) => el.scrollIntoView({ block: 'center' }));
      const file = `push-${name}-${size}.png`;
      await card(page).screenshot({ path: join(dir, file) });
      if (SHOTS) {
        mkdirSync(SHOTS, { recursive: true });
        copyFileSync(join(dir, file), join(SHOTS, file));
      }
    }
    await page.setViewportSize(DESKTOP);
  }
  const like = (user: SessionUser, postId: string) =>
    apiCall(server.url, user.accessToken, `/api/posts/likePost/${postId}`, { method: 'PUT', body: '{}' });
  const pathOf = (s: BrowserSubscription) => new URL(s.endpoint).pathname;

  it('turns push on from Settings, and a like reaches the push service and the service worker shows it', async () => {
    const owner = await apiUser(server.url, 'push_owner');
    const fan = await apiUser(server.url, 'push_fan');
    const post = await apiCreatePost(server.url, owner.accessToken, {
      location: FIXTURE_GPS,
      catName: 'Churro',
    });
    const made = browserSubscription(`${service.origin}/push/e2e-owner`);
    const context = await newContext(browser, server.url, DESKTOP, { serviceWorkers: 'allow' });
    await context.grantPermissions(['notifications'], { origin: server.url });
    await context.addInitScript(stubPushManager, { endpoint: made.endpoint, keys: made.keys });
    const page = await openSettings(context, owner);

    await card(page).getByText('Off for this device.').waitFor();
    await shoot(page, 'off');
    await card(page).getByRole('button', { name: 'Turn on push notifications' }).click();
    await card(page).getByText('On for this device.').waitFor();
    expect(await card(page).getByRole('button', { name: 'Turn off' }).isVisible()).toBe(true);
    await shoot(page, 'on');

    // The real service worker, at the site's root, and the subscription asked for with the server's key.
    const worker = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration('/');
      return { scope: registration?.scope, script: registration?.active?.scriptURL };
    });
    expect(worker).toEqual({ scope: `${server.url}/`, script: `${server.url}/sw.js` });
    const { publicKey } = await apiCall<{ publicKey: string }>(
      server.url,
      owner.accessToken,
      '/api/notifications/push/key',
    );
    const asked = await page.evaluate(
      () =>
        JSON.parse(localStorage.getItem('e2e-push-subscription')!) as {
          key: number[];
          userVisibleOnly: boolean;
        },
    );
    expect(asked.userVisibleOnly).toBe(true);
    expect(Buffer.from(asked.key).toString('base64url')).toBe(publicKey);

    // Another user likes the picture: the server pushes, encrypted, to the browser's push service.
    await like(fan, post._id);
    const push = await service.waitFor(pathOf(made));
    expect(push.headers.ttl).toBe('172800');
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(verifyVapid(push.headers.authorization, made.endpoint).publicKey).toBe(publicKey);
    const payload = made.decrypt(push.body).toString('utf8');
    const message = JSON.parse(payload) as { title: string; url: string; tag: string };
    expect(message).toMatchObject({ title: `${fan.username} liked your picture`, url: `/posts/${post._id}` });
    expect(payload).not.toMatch(/latitude|longitude|36\.72|4\.42/);

    // The push service hands the message to the browser's service worker, which shows it.
    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');
    await expect
      .poll(() => registrations.some((r) => r.scopeURL === `${server.url}/` && !r.isDeleted))
      .toBe(true);
    const registration = registrations.find((r) => r.scopeURL === `${server.url}/` && !r.isDeleted)!;
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: server.url,
      registrationId: registration.registrationId,
      data: payload,
    });
    const shown = () =>
      page.evaluate(async () => {
        const ready = await navigator.serviceWorker.ready;
        return (await ready.getNotifications()).map((n) => ({
          title: n.title,
          tag: n.tag,
          icon: n.icon,
          data: n.data as unknown,
        }));
      });
    await expect.poll(shown).toEqual([
      {
        title: `${fan.username} liked your picture`,
        tag: message.tag,
        icon: `${server.url}/icons/notification-192.png`,
        data: { url: `${server.url}/posts/${post._id}` },
      },
    ]);

    // Tapped, it opens the picture in the tab already open. (A click is the operating system's: the
    // worker gets the same event here from a script, which may navigate the tab but not focus it.)
    const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    await sw.evaluate(async () => {
      // Service worker types are not in this project's DOM library.
      const scope = self as unknown as {
        registration: ServiceWorkerRegistration;
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      } & EventTarget;
      const [notification] = await scope.registration.getNotifications();
      scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification: notification! }));
    });
    await page.waitForURL(`${server.url}/posts/${post._id}`);

    // Turned off, the server forgets this browser: the next like is pushed to nobody.
    await page.goto('/profile/settings');
    await card(page).getByRole('button', { name: 'Turn off' }).click();
    await card(page).getByText('Off for this device.').waitFor();
    const second = await apiUser(server.url, 'pfan2');
    await like(second, post._id);
    await settled();
    expect(service.to(pathOf(made))).toHaveLength(1);

    // On again, then logging out forgets this device on the server and in the browser.
    await card(page).getByRole('button', { name: 'Turn on push notifications' }).click();
    await card(page).getByText('On for this device.').waitFor();
    const forgotten = page.waitForRequest(
      (r) => r.method() === 'DELETE' && r.url().endsWith('/api/notifications/push/subscriptions'),
    );
    await page.getByRole('button', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    expect(JSON.parse((await forgotten).postData() ?? '{}')).toEqual({ endpoint: made.endpoint });
    await expect.poll(() => page.evaluate(() => localStorage.getItem('e2e-push-subscription'))).toBeNull();
    await context.close();
  });

  /**
   * The pushes caused before now were decided: a push to someone else, caused after them, has come
   * (the server reads NOTIFYs in commit order and handles a few at a time).
   */
  async function settled() {
    const owner = await apiUser(server.url, 'pbar');
    const fan = await apiUser(server.url, 'pbar_fan');
    const post = await apiCreatePost(server.url, owner.accessToken);
    const barrier = browserSubscription(`${service.origin}/push/barrier-${owner.userId}`);
    const res = await fetch(`${server.url}/api/notifications/push/subscriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(barrier),
    });
    expect(res.status).toBe(204);
    await like(fan, post._id);
    await service.waitFor(pathOf(barrier));
  }

  it('says so when the browser blocks notifications, or cannot receive pushes', async () => {
    const user = await apiUser(server.url, 'pblocked');
    // No permission granted: headless Chromium answers the prompt with 'denied', as a person may.
    const context = await newContext(browser, server.url, DESKTOP, { serviceWorkers: 'allow' });
    const page = await openSettings(context, user);
    await card(page).getByRole('button', { name: 'Turn on push notifications' }).click();
    await card(page)
      .getByText(/Notifications are blocked for this site in your browser/)
      .waitFor();
    expect(await card(page).getByRole('button').count()).toBe(0);
    await shoot(page, 'blocked');
    // Reloaded, the card still knows.
    await page.reload();
    await card(page)
      .getByText(/Notifications are blocked for this site/)
      .waitFor();
    await context.close();

    const without = await newContext(browser, server.url, DESKTOP, { serviceWorkers: 'allow' });
    await without.addInitScript(() => {
      delete (window as { PushManager?: unknown }).PushManager;
    });
    const old = await openSettings(without, user);
    await card(old)
      .getByText(/This browser cannot receive push notifications/)
      .waitFor();
    expect(await card(old).getByRole('button').count()).toBe(0);
    await without.close();
  });

  it('shows the demo account the card disabled, with a note', async () => {
    const context = await newContext(browser, server.url, DESKTOP, { serviceWorkers: 'allow' });
    const page = await openSettings(context, DEMO);
    await card(page).getByText('Push notifications are not available for the demo account.').waitFor();
    expect(await card(page).getByRole('button', { name: 'Turn on push notifications' }).isDisabled()).toBe(
      true,
    );
    await shoot(page, 'demo');
    await context.close();
  });
});
