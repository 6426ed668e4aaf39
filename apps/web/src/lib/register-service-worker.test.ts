import { describe, expect, it, vi } from 'vitest';
import { registerServiceWorker, SERVICE_WORKER_URL } from './register-service-worker.ts';

/** A window whose page is still loading, or has loaded, with a service worker container to record. */
function fakeWindow(readyState: DocumentReadyState, withServiceWorker = true) {
  const register = vi.fn(async () => ({}) as ServiceWorkerRegistration);
  const target = new EventTarget();
  const win = {
    navigator: withServiceWorker ? { serviceWorker: { register } } : {},
    document: { readyState },
    addEventListener: target.addEventListener.bind(target),
  } as unknown as Window;
  return { win, register, load: () => target.dispatchEvent(new Event('load')) };
}

describe('registerServiceWorker', () => {
  it('waits for the page to load, so the shell download does not compete with the first screen', () => {
    const { win, register, load } = fakeWindow('loading');
    registerServiceWorker(win);
    expect(register).not.toHaveBeenCalled();
    load();
    expect(register).toHaveBeenCalledWith(SERVICE_WORKER_URL, { scope: '/' });
  });

  it('registers at once when the page has already loaded', () => {
    const { win, register } = fakeWindow('complete');
    registerServiceWorker(win);
    expect(register).toHaveBeenCalledTimes(1);
  });

  it('does nothing in a browser without service workers', () => {
    const { win, load } = fakeWindow('loading', false);
    expect(() => {
      registerServiceWorker(win);
      load();
    }).not.toThrow();
  });
});
