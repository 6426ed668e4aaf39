import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  REGISTER_IDLE_TIMEOUT_MS,
  REGISTER_PAUSE_MS,
  registerServiceWorker,
  SERVICE_WORKER_URL,
} from './register-service-worker.ts';

/** A window whose page is still loading, or has loaded, with a service worker container to record. */
function fakeWindow(
  readyState: DocumentReadyState,
  opts: { withServiceWorker?: boolean; idleCallbacks?: boolean } = {},
) {
  const register = vi.fn(async () => ({}) as ServiceWorkerRegistration);
  const target = new EventTarget();
  const idle: { callback: () => void; timeout: number | undefined }[] = [];
  const win = {
    navigator: (opts.withServiceWorker ?? true) ? { serviceWorker: { register } } : {},
    document: { readyState },
    addEventListener: target.addEventListener.bind(target),
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    ...((opts.idleCallbacks ?? true)
      ? {
          requestIdleCallback: (callback: () => void, options?: IdleRequestOptions) => {
            idle.push({ callback, timeout: options?.timeout });
            return idle.length;
          },
        }
      : {}),
  } as unknown as Window;
  return { win, register, idle, load: () => target.dispatchEvent(new Event('load')) };
}

describe('registerServiceWorker', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits for the load, a pause and an idle moment, so the shell download leaves the first screen alone', () => {
    const { win, register, idle, load } = fakeWindow('loading');
    registerServiceWorker(win);
    vi.advanceTimersByTime(60_000);
    expect(register).not.toHaveBeenCalled();

    load();
    vi.advanceTimersByTime(REGISTER_PAUSE_MS - 1);
    expect(idle).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(idle).toEqual([{ callback: expect.any(Function), timeout: REGISTER_IDLE_TIMEOUT_MS }]);
    expect(register).not.toHaveBeenCalled();

    idle[0]!.callback();
    expect(register).toHaveBeenCalledWith(SERVICE_WORKER_URL, { scope: '/' });
  });

  it('starts the pause at once when the page has already loaded', () => {
    const { win, register, idle } = fakeWindow('complete');
    registerServiceWorker(win);
    vi.advanceTimersByTime(REGISTER_PAUSE_MS);
    idle[0]!.callback();
    expect(register).toHaveBeenCalledTimes(1);
  });

  it('registers after the pause in a browser without idle callbacks', () => {
    const { win, register } = fakeWindow('complete', { idleCallbacks: false });
    registerServiceWorker(win);
    vi.advanceTimersByTime(REGISTER_PAUSE_MS);
    expect(register).toHaveBeenCalledTimes(1);
  });

  it('does nothing in a browser without service workers', () => {
    const { win, load } = fakeWindow('loading', { withServiceWorker: false });
    expect(() => {
      registerServiceWorker(win);
      load();
      vi.advanceTimersByTime(REGISTER_PAUSE_MS);
    }).not.toThrow();
  });
});
