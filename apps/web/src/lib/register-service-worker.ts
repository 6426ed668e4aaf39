/**
 * Registers the app's service worker (sw/sw.ts, built to /sw.js; issue 28) for every visitor, once the
 * page has loaded: installing it downloads the app shell for offline use, which must not compete with
 * the first screen's own requests. A few lines rather than workbox-window, which the landing page's
 * JavaScript budget would pay for. Push (lib/web-push.ts) registers the same file at the same scope.
 */
export const SERVICE_WORKER_URL = '/sw.js';

export function registerServiceWorker(win: Window = window): void {
  if (!('serviceWorker' in win.navigator)) return;
  const register = () => {
    win.navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).catch((err: unknown) => {
      // The app works without it, only not offline.
      console.warn('Service worker registration failed:', err instanceof Error ? err.message : err);
    });
  };
  if (win.document.readyState === 'complete') register();
  else win.addEventListener('load', register, { once: true });
}
