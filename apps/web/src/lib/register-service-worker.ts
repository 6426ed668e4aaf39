/**
 * Registers the app's service worker (sw/sw.ts, built to /sw.js; issue 28) for every visitor, once the
 * page has loaded and then gone quiet: installing it downloads the whole app shell for offline use
 * (about 130 files), which on a phone with a poor signal and two slow cores must not compete with the
 * first screen, nor with the person's first taps right after it. So: the load event, a short pause, and
 * the browser's next idle moment (with a deadline, so a busy page still gets offline support). A few
 * lines rather than workbox-window, which the landing page's JavaScript budget would pay for. Push
 * (lib/web-push.ts) registers the same file at the same scope whenever the person opts in.
 */
export const SERVICE_WORKER_URL = '/sw.js';

/** After the load event: how long to leave the network to the page, and the idle callback's deadline. */
export const REGISTER_PAUSE_MS = 3_000;
export const REGISTER_IDLE_TIMEOUT_MS = 5_000;

export function registerServiceWorker(win: Window = window): void {
  if (!('serviceWorker' in win.navigator)) return;
  const register = () => {
    win.navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).catch((err: unknown) => {
      // The app works without it, only not offline.
      console.warn('Service worker registration failed:', err instanceof Error ? err.message : err);
    });
  };
  const whenIdle = () => {
    if (typeof win.requestIdleCallback === 'function') {
      win.requestIdleCallback(register, { timeout: REGISTER_IDLE_TIMEOUT_MS });
    } else {
      register(); // Safari before 18.2: no idle callbacks; the pause alone has to do.
    }
  };
  const afterLoad = () => win.setTimeout(whenIdle, REGISTER_PAUSE_MS);
  if (win.document.readyState === 'complete') afterLoad();
  else win.addEventListener('load', afterLoad, { once: true });
}
