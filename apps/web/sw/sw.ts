/**
 * The app's service worker (issue 28), built by vite-plugin-pwa (injectManifest) into /sw.js, which
 * web-push.ts and main.tsx register at scope '/'. Workbox does the caching; this file only says what
 * is kept and how. docs/decisions/016-service-worker-caching.md explains the choices.
 */
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import {
  API_CACHE,
  isCachedApiRequest,
  isCachedMediaRequest,
  MEDIA_CACHE,
  SHARE_TARGET_FIELD,
  SHARE_TARGET_PATH,
  SHARED_PHOTO_CACHE,
  SHARED_PHOTO_KEY,
  SHARED_SPOT_URL,
} from '../src/lib/offline-cache-rules.ts';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

// Web Push (issue 25) lives in its own plain script, served as is from public/.
importScripts('/sw-push.js');

// A new version takes over at once and controls the tabs already open: a tapped notification can then
// navigate one of them, and an offline reload finds the newest shell.
void self.skipWaiting();
clientsClaim();

// The app shell: index.html, every script and stylesheet of this build (hashed names), the icons.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every page of the app is index.html and the client router; offline it comes from the precache.
// /api and /media are never pages, and neither is the share target (a POST, handled below).
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api(\/|$)/, /^\/media\//, /^\/docs(\/|$)/],
  }),
);

// The pages the person saw last, for offline. The network first, so that online nothing is stale; a
// lie-fi connection falls back to the copy after a few seconds. Bounded: the newest 200 answers, a
// week at most. Offline the app sends these without a token (it has none until it can refresh), so
// the match ignores Vary.
registerRoute(
  ({ request, url }) => isCachedApiRequest(request.method, url, self.location.origin),
  new NetworkFirst({
    cacheName: API_CACHE,
    networkTimeoutSeconds: 5,
    matchOptions: { ignoreVary: true },
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 200, maxAgeSeconds: 7 * 24 * 60 * 60 }),
    ],
  }),
);

// Photos and avatars: a URL's bytes never change (the server says immutable), so the cache is
// enough once it has them. The newest 300, 30 days at most; dropped first when storage runs short.
registerRoute(
  ({ request, url }) => isCachedMediaRequest(request.method, url, self.location.origin),
  new CacheFirst({
    cacheName: MEDIA_CACHE,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({
        maxEntries: 300,
        maxAgeSeconds: 30 * 24 * 60 * 60,
        purgeOnQuotaError: true,
      }),
    ],
  }),
);

/**
 * Web Share Target: the share sheet posts the photo here as multipart. The photo waits in a cache
 * until Spot takes it (/spot?shared=1), which then goes on as if it had been chosen there. Only the
 * latest shared photo is kept; a post without a file still lands on Spot, which offers the picker.
 */
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'POST' || url.origin !== self.location.origin) return;
  if (url.pathname !== SHARE_TARGET_PATH) return;
  event.respondWith(
    (async () => {
      try {
        const form = await event.request.formData();
        const file = form.get(SHARE_TARGET_FIELD);
        const cache = await caches.open(SHARED_PHOTO_CACHE);
        await cache.delete(SHARED_PHOTO_KEY);
        if (file instanceof File) {
          await cache.put(
            SHARED_PHOTO_KEY,
            new Response(file, {
              headers: {
                'content-type': file.type || 'application/octet-stream',
                'x-file-name': encodeURIComponent(file.name),
              },
            }),
          );
        }
      } catch {
        // Not a form, or storage refused it: Spot opens without a photo and offers the picker.
      }
      return Response.redirect(SHARED_SPOT_URL, 303);
    })(),
  );
});
