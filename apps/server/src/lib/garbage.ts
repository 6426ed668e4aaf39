import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * One full garbage collection of the calling thread's heap, also without node --expose-gc (V8's
 * documented flag, exposed for this call only through a fresh context).
 */
export function collectGarbage(): void {
  let gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/**
 * Runs `collect` once whenever nothing has touched it for `delayMs`. V8 collects when it allocates, so a
 * server that goes quiet after a burst keeps the burst's garbage resident until the next request
 * (docs/performance.md, "Memory"); a quiet server can afford the pause.
 */
export class IdleCollector {
  #timer: NodeJS.Timeout;

  constructor(delayMs: number, collect: () => void) {
    this.#timer = setTimeout(collect, delayMs);
    // An idle server's pending collection must not keep the process alive.
    this.#timer.unref();
  }

  /** Something happened: start waiting again (cheap: it reuses the timer). */
  touch(): void {
    this.#timer.refresh();
  }

  stop(): void {
    clearTimeout(this.#timer);
  }
}
