/*
 * The app's service worker, registered at scope '/' (lib/service-worker.ts). For now it only brings in
 * Web Push (sw-push.js); it has no fetch handler, so every request goes to the network as before.
 * Issue 28's Workbox service worker replaces this file and imports sw-push.js the same way.
 */
importScripts('/sw-push.js');

// A new version takes over at once, and controls the tabs already open (so a tapped notification can
// navigate one of them).
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
