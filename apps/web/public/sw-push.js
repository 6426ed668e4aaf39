/*
 * Web Push for Neighbourhood Cats (issue 25): shows what the server pushed and opens its page when the
 * notification is tapped. A file of its own so that any service worker can bring it in with
 * importScripts('/sw-push.js'): the app's Workbox service worker (apps/web/sw/sw.ts, built to /sw.js).
 *
 * The server sends JSON {title, body, url, tag, icon} (apps/server/src/modules/push/push-message.ts):
 * a sentence and a short excerpt, never a location.
 */

const PUSH_FALLBACK_TITLE = 'Neighbourhood Cats';
const PUSH_ICON = '/icons/notification-192.png';
// Android's status bar shows this monochrome shape.
const PUSH_BADGE = '/icons/notification-badge-96.png';

/** `url` when it is a page or file of this site, else `fallback`: a push never leads to another site. */
function sameSite(url, fallback) {
  try {
    const target = new URL(typeof url === 'string' ? url : fallback, self.location.origin);
    if (target.origin === self.location.origin) return target.href;
  } catch {
    /* not a URL */
  }
  return new URL(fallback, self.location.origin).href;
}

self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    // Not JSON: show the generic notification rather than none (a push must always show one).
  }
  const title = typeof message.title === 'string' && message.title ? message.title : PUSH_FALLBACK_TITLE;
  const options = {
    body: typeof message.body === 'string' ? message.body : '',
    icon: sameSite(message.icon, PUSH_ICON),
    badge: PUSH_BADGE,
    data: { url: sameSite(message.url, '/notifications') },
  };
  // The same tag replaces the notification shown: a like entry that gathered another like.
  if (typeof message.tag === 'string' && message.tag) options.tag = message.tag;
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = sameSite(event.notification.data && event.notification.data.url, '/notifications');
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        let tab = open;
        try {
          tab = (await open.focus()) || open;
        } catch {
          // Focus needs the click's permission, which browsers give for a while; navigating does not.
        }
        try {
          // Only a tab this worker controls can be sent elsewhere; sw.js claims the open ones.
          await tab.navigate(url);
          return;
        } catch {
          /* an uncontrolled tab: open the page beside it */
        }
      }
      await self.clients.openWindow(url);
    })(),
  );
});
