import type { PushSubscriptionRequest } from '@cats/contracts';
import { api } from './api-client.ts';
import { SERVICE_WORKER_URL } from './register-service-worker.ts';

/**
 * Web Push on this device (issue 25): the service worker (sw/sw.ts, which imports sw-push.js), the
 * browser's push subscription, and the server's copy of it. Shared by Settings' 'Push notifications'
 * card and by logout, which forgets this device's subscription so that the next person to sign in on
 * it is not shown the previous one's notifications.
 */

/** Whether this browser can receive pushes at all (iOS only from a web app on the Home Screen). */
export function pushSupported(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof window !== 'undefined' &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** The worker at scope '/', registered if it was not, once it is active (pushManager needs that). */
async function activeRegistration(): Promise<ServiceWorkerRegistration> {
  await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
  return navigator.serviceWorker.ready;
}

/** This device's subscription, without registering anything: null when push was never turned on here. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return registration ? registration.pushManager.getSubscription() : null;
}

function urlBase64ToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

const sameKey = (subscription: PushSubscription, key: Uint8Array): boolean => {
  const current = subscription.options.applicationServerKey;
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === key.length && bytes.every((b, i) => b === key[i]);
};

/** Sends this device's subscription to the server (again: saving is idempotent). */
export function saveSubscription(subscription: PushSubscription): Promise<void> {
  return api<void>('/api/notifications/push/subscriptions', {
    method: 'POST',
    body: subscription.toJSON() as PushSubscriptionRequest,
  });
}

/**
 * Subscribes this browser with the server's key and saves the subscription on the server. Call it
 * once notification permission is granted. A subscription made with another key (the server's keys
 * were replaced) is dropped first: the browser refuses a second key for one worker.
 */
export async function subscribeThisDevice(): Promise<PushSubscription> {
  const registration = await activeRegistration();
  const { publicKey } = await api<{ publicKey: string }>('/api/notifications/push/key');
  const key = urlBase64ToBytes(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  });
  try {
    await saveSubscription(subscription);
  } catch (err) {
    // Not saved, so nothing would arrive: leave the browser as it was found rather than half on.
    await subscription.unsubscribe().catch(() => undefined);
    throw err;
  }
  return subscription;
}

/**
 * Stops pushes to this device: the server forgets the subscription (unless `tellServer` is false: a
 * deleted account's went with it), then the browser drops it. The browser drops it even when the
 * server cannot be reached; the push service then answers the server's next push with 410 and the
 * server forgets it too.
 */
export async function unsubscribeThisDevice({ tellServer = true } = {}): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  try {
    if (tellServer) {
      await api<void>('/api/notifications/push/subscriptions', {
        method: 'DELETE',
        body: { endpoint: subscription.endpoint },
      });
    }
  } finally {
    await subscription.unsubscribe();
  }
}

/** For logout: as unsubscribeThisDevice, but never fails and never holds logout up for long. */
export async function forgetThisDevice(options: { tellServer?: boolean } = {}): Promise<void> {
  if (!pushSupported()) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      unsubscribeThisDevice(options),
      new Promise((resolve) => {
        timer = setTimeout(resolve, 3000);
      }),
    ]);
  } catch {
    // Logged out locally either way (lib/session.ts).
  } finally {
    clearTimeout(timer);
  }
}
