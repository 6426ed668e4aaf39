import { notificationSchema, type Notification } from '@cats/contracts';
import { dataOf, openSse, type SseEvent, type SseStream } from '../../apps/server/test/sse-client.ts';
import { sleep } from './faults.ts';

/**
 * A notification stream kept open the way the web client keeps its EventSource open (issue 25): when
 * the stream ends or is refused (a restarting server, a database away), it takes a new ticket and
 * reconnects with the last event id it saw, until stopped. It waits `retryMs` between tries instead
 * of the server's `retry` (2-5 s), to keep the tests short.
 */
export class LiveStream {
  /** Every event of every connection, in order. */
  readonly events: SseEvent[] = [];
  /** The status of each attempt to open (0: no connection at all). */
  readonly attempts: number[] = [];
  lastEventId = '';
  #current: SseStream | null = null;
  #stopped = false;
  #running: Promise<void> | null = null;
  #waiters = new Set<() => void>();
  #held = false;

  constructor(
    /** Where to connect (a load balancer's choice): read again for each attempt. */
    private readonly baseUrl: () => string,
    private readonly accessToken: () => string,
    private readonly retryMs = 200,
  ) {}

  /** Resolves once the first connection is open. */
  async start(): Promise<void> {
    const opened = new Promise<void>((resolve) => this.#waiters.add(resolve));
    this.#running = this.#loop();
    await opened;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#current?.close();
    await this.#running;
  }

  /** Cuts the current connection, as a flaky network does; the stream reconnects as usual. */
  drop(): void {
    this.#current?.close();
  }

  /** No reconnecting until release(): a client that stays away for a while (a sleeping laptop). */
  hold(): void {
    this.#held = true;
  }

  release(): void {
    this.#held = false;
  }

  /** Whether a connection is open now. */
  isOpen(): boolean {
    return this.#current !== null;
  }

  /** The notification events so far, checked against the contract. */
  notifications(): Notification[] {
    return this.events
      .filter((e) => e.event === 'notification')
      .map((e) => notificationSchema.parse(dataOf(e)));
  }

  /** Connections made (status 200) so far. */
  connections(): number {
    return this.attempts.filter((s) => s === 200).length;
  }

  async waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}; attempts ${JSON.stringify(this.attempts)}, events ${JSON.stringify(this.events)}`,
        );
      await sleep(20);
    }
  }

  async #ticket(): Promise<string | null> {
    try {
      const res = await fetch(`${this.baseUrl()}/api/notifications/stream-ticket`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.accessToken()}` },
        signal: AbortSignal.timeout(5_000),
      });
      if (res.status !== 200) {
        this.attempts.push(res.status);
        return null;
      }
      return ((await res.json()) as { ticket: string }).ticket;
    } catch {
      this.attempts.push(0);
      return null;
    }
  }

  async #loop(): Promise<void> {
    while (!this.#stopped) {
      while (this.#held && !this.#stopped) await sleep(20);
      const ticket = await this.#ticket();
      if (ticket && !this.#stopped) {
        const query = new URLSearchParams({ ticket });
        if (this.lastEventId) query.set('lastEventId', this.lastEventId);
        let stream: SseStream | null = null;
        try {
          stream = await openSse(`${this.baseUrl()}/api/notifications/stream?${query}`);
        } catch {
          this.attempts.push(0);
        }
        if (stream) {
          this.attempts.push(stream.status);
          if (stream.status === 200) {
            this.#current = stream;
            for (const waiter of this.#waiters) waiter();
            this.#waiters.clear();
            let seen = 0;
            const take = () => {
              for (; seen < stream.events.length; seen += 1) {
                const event = stream.events[seen]!;
                this.events.push(event);
                if (event.id !== undefined) this.lastEventId = event.id;
              }
            };
            while (!stream.isEnded() && !this.#stopped) {
              take();
              await Promise.race([stream.ended, sleep(20)]);
            }
            take();
            this.#current = null;
          }
        }
      }
      if (!this.#stopped) await sleep(this.retryMs);
    }
  }
}
