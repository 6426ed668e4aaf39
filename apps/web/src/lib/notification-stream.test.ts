import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { Notification, NotificationsResponse } from '@cats/contracts';
import { groupKeys } from '../components/groups/api/query-keys.ts';
import { ApiError } from './api-client.ts';
import { notificationKeys, type NotificationPages } from './notification-cache.ts';
import {
  cacheHandlers,
  FIRST_RETRY_MS,
  LONGEST_RETRY_MS,
  openNotificationStream,
  SUPERSEDED_RETRY_MS,
  type EventSourceLike,
  type StreamHandlers,
  type StreamStatus,
} from './notification-stream.ts';

/** An EventSource the test drives: it opens, sends events, fails, as a server would make it. */
class FakeEventSource implements EventSourceLike {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readyState = FakeEventSource.CONNECTING;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  constructor(readonly url: string) {}
  get params() {
    return new URL(this.url, 'http://localhost').searchParams;
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
    this.readyState = FakeEventSource.CLOSED;
  }
  open() {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.(new Event('open'));
  }
  /** A server event; `id` sets the last event id, which the browser keeps for later events too. */
  send(type: string, data: unknown, id?: string) {
    if (id !== undefined) this.lastId = id;
    const event = new MessageEvent<string>(type, { data: JSON.stringify(data), lastEventId: this.lastId });
    this.listeners.get(type)?.forEach((l) => l(event));
  }
  private lastId = '';
  /** The connection broke: the browser retries by itself (CONNECTING) or gives up (CLOSED). */
  fail(readyState: number) {
    this.readyState = readyState;
    this.onerror?.(new Event('error'));
  }
}

const entry = (over: Partial<Notification> = {}): Notification => ({
  _id: 'n1',
  type: 'like',
  seq: 1,
  createdAt: '2026-05-01T10:00:00.000Z',
  updatedAt: '2026-05-01T10:00:00.000Z',
  read: false,
  actors: [{ _id: 'u1', username: 'mariposa' }],
  actorCount: 1,
  post: { _id: 'p1', thumbnailUrl: '/media/p1.webp', catName: null },
  group: null,
  comment: null,
  cat: null,
  moderation: null,
  link: '/posts/p1',
  ...over,
});

function harness(
  getTicket?: () => Promise<{ ticket: string; expiresIn: number }>,
  isHidden: () => boolean = () => false,
) {
  const sources: FakeEventSource[] = [];
  const statuses: StreamStatus[] = [];
  const handlers = { notification: vi.fn(), removed: vi.fn(), unread: vi.fn() } satisfies StreamHandlers;
  let n = 0;
  const ticket = vi.fn(getTicket ?? (async () => ({ ticket: `t${++n}`, expiresIn: 60 })));
  const stream = openNotificationStream({
    handlers,
    getTicket: ticket,
    createEventSource: (url) => {
      const es = new FakeEventSource(url);
      sources.push(es);
      return es;
    },
    onStatus: (s) => statuses.push(s),
    random: () => 1,
    isHidden,
  });
  const latest = () => sources.at(-1)!;
  return { sources, statuses, handlers, ticket, stream, latest };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('openNotificationStream', () => {
  it('opens the stream with a ticket and hands over each kind of event', async () => {
    const h = harness();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.ticket).toHaveBeenCalledTimes(1);
    expect(h.sources).toHaveLength(1);
    expect(h.latest().url.startsWith('/api/notifications/stream?')).toBe(true);
    expect(h.latest().params.get('ticket')).toBe('t1');
    expect(h.latest().params.has('lastEventId')).toBe(false);

    h.latest().open();
    expect(h.statuses.at(-1)).toBe('open');
    const like = entry({ seq: 7 });
    h.latest().send('notification', like, '7');
    h.latest().send('removed', { _id: 'n0' });
    h.latest().send('unread', { count: 3 });
    expect(h.handlers.notification).toHaveBeenCalledWith(like);
    expect(h.handlers.removed).toHaveBeenCalledWith('n0');
    expect(h.handlers.unread).toHaveBeenCalledWith(3);
    h.stream.close();
  });

  it('after the server drops it, takes a new ticket and asks for what came after the last id it saw', async () => {
    const h = harness();
    await vi.advanceTimersByTimeAsync(0);
    h.latest().open();
    // The replay, oldest first, then the count.
    h.latest().send('notification', entry({ _id: 'a', seq: 4 }), '4');
    h.latest().send('notification', entry({ _id: 'b', seq: 5 }), '5');
    h.latest().send('unread', { count: 2 });
    const first = h.latest();
    first.fail(FakeEventSource.CLOSED);
    expect(first.closed).toBe(true);
    expect(h.statuses.at(-1)).toBe('waiting');

    // Nothing before the wait is over.
    await vi.advanceTimersByTimeAsync(FIRST_RETRY_MS - 1);
    expect(h.sources).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.ticket).toHaveBeenCalledTimes(2);
    expect(h.sources).toHaveLength(2);
    expect(h.latest().params.get('ticket')).toBe('t2');
    expect(h.latest().params.get('lastEventId')).toBe('5');

    // The old connection's late events are ignored; the new one's are handed over.
    first.send('notification', entry({ _id: 'stale', seq: 3 }), '3');
    expect(h.handlers.notification).not.toHaveBeenCalledWith(expect.objectContaining({ _id: 'stale' }));
    h.latest().open();
    h.latest().send('notification', entry({ _id: 'c', seq: 6 }), '6');
    expect(h.handlers.notification).toHaveBeenLastCalledWith(expect.objectContaining({ _id: 'c' }));
    h.stream.close();
  });

  it('waits longer after each failure in a row, up to a limit, and starts over once connected', async () => {
    const h = harness();
    await vi.advanceTimersByTimeAsync(0);
    const waits: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      h.latest().fail(FakeEventSource.CLOSED);
      const before = h.sources.length;
      let waited = 0;
      while (h.sources.length === before) {
        await vi.advanceTimersByTimeAsync(250);
        waited += 250;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([
      1000,
      2000,
      4000,
      8000,
      16000,
      LONGEST_RETRY_MS,
      LONGEST_RETRY_MS,
      LONGEST_RETRY_MS,
    ]);

    h.latest().open();
    h.latest().fail(FakeEventSource.CLOSED);
    await vi.advanceTimersByTimeAsync(FIRST_RETRY_MS);
    expect(h.sources).toHaveLength(10);
    h.stream.close();
  });

  it('never leaves reconnecting to the browser: a ticket opens one stream, so each reconnect takes a new one', async () => {
    const h = harness();
    await vi.advanceTimersByTimeAsync(0);
    h.latest().open();
    h.latest().send('notification', entry({ seq: 9 }), '9');
    // The browser is about to retry by itself (CONNECTING), with the ticket already spent.
    h.latest().fail(FakeEventSource.CONNECTING);
    expect(h.sources[0]!.closed).toBe(true);
    expect(h.statuses.at(-1)).toBe('waiting');
    await vi.advanceTimersByTimeAsync(FIRST_RETRY_MS);
    expect(h.ticket).toHaveBeenCalledTimes(2);
    expect(h.sources).toHaveLength(2);
    expect(h.latest().params.get('ticket')).toBe('t2');
    expect(h.latest().params.get('lastEventId')).toBe('9');
    h.stream.close();
  });

  it('retries when the ticket cannot be had, and gives up on a refusal a retry will not change', async () => {
    let answer: () => Promise<{ ticket: string; expiresIn: number }> = () =>
      Promise.reject(new ApiError(null, 'No Server Response'));
    const h = harness(() => answer());
    await vi.advanceTimersByTimeAsync(0);
    expect(h.statuses.at(-1)).toBe('waiting');
    answer = () => Promise.reject(new ApiError(503, 'Service unavailable'));
    await vi.advanceTimersByTimeAsync(FIRST_RETRY_MS);
    expect(h.ticket).toHaveBeenCalledTimes(2);
    expect(h.statuses.at(-1)).toBe('waiting');
    answer = () => Promise.reject(new ApiError(404, 'Not Found'));
    await vi.advanceTimersByTimeAsync(2 * FIRST_RETRY_MS);
    expect(h.ticket).toHaveBeenCalledTimes(3);
    expect(h.statuses.at(-1)).toBe('unavailable');
    await vi.advanceTimersByTimeAsync(10 * LONGEST_RETRY_MS);
    expect(h.ticket).toHaveBeenCalledTimes(3);
    expect(h.sources).toHaveLength(0);
  });

  it('closes for good: no reconnect, no events after close', async () => {
    const h = harness();
    await vi.advanceTimersByTimeAsync(0);
    const es = h.latest();
    es.open();
    h.stream.close();
    expect(es.closed).toBe(true);
    expect(h.statuses.at(-1)).toBe('closed');
    es.send('unread', { count: 1 });
    es.fail(FakeEventSource.CLOSED);
    await vi.advanceTimersByTimeAsync(10 * LONGEST_RETRY_MS);
    expect(h.handlers.unread).not.toHaveBeenCalled();
    expect(h.sources).toHaveLength(1);
  });

  it('does not open a stream whose ticket arrives after close', async () => {
    let resolve: (t: { ticket: string; expiresIn: number }) => void = () => {};
    const h = harness(() => new Promise((r) => (resolve = r)));
    await vi.advanceTimersByTimeAsync(0);
    h.stream.close();
    resolve({ ticket: 'late', expiresIn: 60 });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.sources).toHaveLength(0);
  });

  it('after superseded, a hidden tab waits without a timer and comes back when it is shown', async () => {
    let hidden = true;
    const h = harness(undefined, () => hidden);
    await vi.advanceTimersByTimeAsync(0);
    const first = h.latest();
    first.open();
    first.send('notification', entry({ seq: 5 }), '5');
    // Another tab's stream took its place: the server says so, then ends it (the browser would retry).
    first.send('superseded', {});
    expect(first.closed).toBe(true);
    expect(h.statuses.at(-1)).toBe('waiting');
    first.fail(FakeEventSource.CONNECTING);
    // Not on a timer, however long, nor when the device comes back online.
    h.stream.retryNow();
    await vi.advanceTimersByTimeAsync(10 * SUPERSEDED_RETRY_MS);
    expect(h.ticket).toHaveBeenCalledTimes(1);
    expect(h.sources).toHaveLength(1);
    // Still hidden: a focus event alone with the page hidden does not count (the hook checks), but
    // shown() does.
    hidden = false;
    h.stream.shown();
    h.stream.shown();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.ticket).toHaveBeenCalledTimes(2);
    expect(h.sources).toHaveLength(2);
    expect(h.latest().params.get('lastEventId')).toBe('5');
    // Back to the usual: a network error retries after a second; shown() adds nothing.
    h.latest().open();
    h.latest().fail(FakeEventSource.CLOSED);
    h.stream.shown();
    await vi.advanceTimersByTimeAsync(FIRST_RETRY_MS);
    expect(h.sources).toHaveLength(3);
    h.stream.close();
  });

  it('after superseded, a visible tab comes back after about a minute, not a second, or at once when shown again', async () => {
    let hidden = false;
    const h = harness(undefined, () => hidden);
    await vi.advanceTimersByTimeAsync(0);
    h.latest().open();
    h.latest().send('superseded', {});
    h.latest().fail(FakeEventSource.CONNECTING);
    await vi.advanceTimersByTimeAsync(SUPERSEDED_RETRY_MS * 0.75 - 1);
    expect(h.sources).toHaveLength(1);
    // random() is 1: the longest wait.
    await vi.advanceTimersByTimeAsync(SUPERSEDED_RETRY_MS * 0.5 + 1);
    expect(h.sources).toHaveLength(2);

    // Hidden before its wait is over: it waits for the page to be shown.
    h.latest().open();
    h.latest().send('superseded', {});
    hidden = true;
    await vi.advanceTimersByTimeAsync(10 * SUPERSEDED_RETRY_MS);
    expect(h.sources).toHaveLength(2);
    hidden = false;
    h.stream.shown();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.sources).toHaveLength(3);

    // Shown again during the minute: at once.
    h.latest().open();
    h.latest().send('superseded', {});
    await vi.advanceTimersByTimeAsync(FIRST_RETRY_MS * 5);
    expect(h.sources).toHaveLength(3);
    h.stream.shown();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.sources).toHaveLength(4);

    // Away into the back/forward cache while superseded: resume() reconnects as before.
    h.latest().open();
    h.latest().send('superseded', {});
    h.stream.suspend();
    await vi.advanceTimersByTimeAsync(10 * SUPERSEDED_RETRY_MS);
    expect(h.sources).toHaveLength(4);
    h.stream.resume();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.sources).toHaveLength(5);
    h.stream.close();
  });

  it('six tabs against a cap of five settle: a reconnect or two in two minutes, not one a second', async () => {
    const CAP = 5;
    /** The server: each user's open streams, oldest first; one more ends the oldest, saying why. */
    const live: FakeEventSource[] = [];
    const accept = (es: FakeEventSource) => {
      if (es.closed) return;
      for (let i = live.length - 1; i >= 0; i -= 1) if (live[i]!.closed) live.splice(i, 1);
      while (live.length >= CAP) {
        const oldest = live.shift()!;
        oldest.send('superseded', {});
        oldest.fail(FakeEventSource.CONNECTING);
      }
      live.push(es);
      es.open();
    };
    let tickets = 0;
    const hidden = [false, true, true, true, true, true];
    const tabs = hidden.map((_, i) =>
      openNotificationStream({
        handlers: { notification: () => {}, removed: () => {}, unread: () => {} },
        getTicket: async () => ({ ticket: `t${++tickets}`, expiresIn: 60 }),
        createEventSource: (url) => {
          const es = new FakeEventSource(url);
          // The answer's head comes back a little later.
          setTimeout(() => accept(es), 50);
          return es;
        },
        random: () => 0.5,
        isHidden: () => hidden[i]!,
      }),
    );
    // Two minutes: the old client, back a second after each end, took 126 tickets in them.
    await vi.advanceTimersByTimeAsync(120_000);
    // The superseded visible tab's one return after its minute, which ends a hidden tab's stream.
    const reconnects = tickets - tabs.length;
    expect(reconnects).toBeLessThanOrEqual(2);
    expect(live.filter((es) => !es.closed)).toHaveLength(CAP);
    // The person looks at another tab: it comes back and ends a hidden one's, which then waits too.
    hidden[0] = true;
    hidden[3] = false;
    tabs[3]!.shown();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(tickets - tabs.length).toBeLessThanOrEqual(reconnects + 1);
    expect(live.filter((es) => !es.closed)).toHaveLength(CAP);
    for (const tab of tabs) tab.close();
  });

  it('lets go of its connection while the page is away, and picks up after the last id it saw when it is back', async () => {
    const h = harness();
    await vi.advanceTimersByTimeAsync(0);
    const first = h.latest();
    first.open();
    first.send('notification', entry({ _id: 'a', seq: 5 }), '5');
    h.stream.suspend();
    expect(first.closed).toBe(true);
    expect(h.statuses.at(-1)).toBe('waiting');
    // Away: nothing reconnects, not even when the device comes back online, and nothing is handed over.
    first.send('notification', entry({ _id: 'late', seq: 6 }), '6');
    h.stream.retryNow();
    await vi.advanceTimersByTimeAsync(10 * LONGEST_RETRY_MS);
    expect(h.sources).toHaveLength(1);
    expect(h.ticket).toHaveBeenCalledTimes(1);
    expect(h.handlers.notification).not.toHaveBeenCalledWith(expect.objectContaining({ _id: 'late' }));

    h.stream.resume();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.ticket).toHaveBeenCalledTimes(2);
    expect(h.sources).toHaveLength(2);
    expect(h.latest().params.get('ticket')).toBe('t2');
    expect(h.latest().params.get('lastEventId')).toBe('5');
    h.latest().open();
    expect(h.statuses.at(-1)).toBe('open');
    h.stream.close();
  });

  it('leaves a failed connection alone while away, and opens one stream, not two, when back', async () => {
    const pending: ((t: { ticket: string; expiresIn: number }) => void)[] = [];
    const h = harness(() => new Promise((r) => pending.push(r)));
    await vi.advanceTimersByTimeAsync(0);
    // Away before the first ticket came, and back before it comes: only the newer attempt connects.
    h.stream.suspend();
    h.stream.resume();
    await vi.advanceTimersByTimeAsync(0);
    expect(pending).toHaveLength(2);
    pending[0]!({ ticket: 'old', expiresIn: 60 });
    pending[1]!({ ticket: 'new', expiresIn: 60 });
    await vi.advanceTimersByTimeAsync(0);
    expect(h.sources.map((s) => s.params.get('ticket'))).toEqual(['new']);

    // A failure while away waits for the page to come back rather than retrying.
    h.latest().open();
    h.stream.suspend();
    h.latest().fail(FakeEventSource.CLOSED);
    await vi.advanceTimersByTimeAsync(10 * LONGEST_RETRY_MS);
    expect(pending).toHaveLength(2);
    // Closed while away: resume does nothing.
    h.stream.close();
    h.stream.resume();
    await vi.advanceTimersByTimeAsync(0);
    expect(pending).toHaveLength(2);
    expect(h.statuses.at(-1)).toBe('closed');
  });

  it('reconnects at once when asked while waiting (back online)', async () => {
    const h = harness();
    await vi.advanceTimersByTimeAsync(0);
    h.latest().fail(FakeEventSource.CLOSED);
    h.stream.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.sources).toHaveLength(2);
    h.stream.close();
  });
});

describe('cacheHandlers', () => {
  const page = (notifications: Notification[], nextCursor: string | null = null): NotificationsResponse => ({
    notifications,
    unreadCount: notifications.filter((n) => !n.read).length,
    info: { nextCursor },
  });
  function cacheWith(pages: NotificationsResponse[]) {
    const client = new QueryClient();
    client.setQueryData<NotificationPages>(notificationKeys.list, {
      pages,
      pageParams: pages.map((_, i) => (i === 0 ? null : String(i))),
    });
    return client;
  }
  const ids = (client: QueryClient) =>
    client
      .getQueryData<NotificationPages>(notificationKeys.list)!
      .pages.map((p) => p.notifications.map((n) => `${n._id}:${n.seq}${n.read ? '' : '*'}`));

  it('puts a new entry on top and moves a changed one there, and ignores a replay of an older change', () => {
    const client = cacheWith([
      page([entry({ _id: 'b', seq: 8 }), entry({ _id: 'a', seq: 5, read: true })], '5'),
      page([entry({ _id: 'z', seq: 2 })]),
    ]);
    const handle = cacheHandlers(client);
    handle.notification(entry({ _id: 'c', seq: 9 }));
    expect(ids(client)).toEqual([['c:9*', 'b:8*', 'a:5'], ['z:2*']]);
    // Another like on z's picture: the grouped entry changes and comes to the top.
    handle.notification(entry({ _id: 'z', seq: 10, actorCount: 2 }));
    expect(ids(client)).toEqual([['z:10*', 'c:9*', 'b:8*', 'a:5'], []]);
    handle.notification(entry({ _id: 'b', seq: 7 }));
    expect(ids(client)).toEqual([['z:10*', 'c:9*', 'b:8*', 'a:5'], []]);
  });

  it('drops a removed entry, sets the bell, and marks all read when nothing is unread', () => {
    const client = cacheWith([page([entry({ _id: 'b', seq: 8 }), entry({ _id: 'a', seq: 5 })])]);
    const handle = cacheHandlers(client);
    handle.removed('b');
    expect(ids(client)).toEqual([['a:5*']]);
    handle.unread(4);
    expect(client.getQueryData(notificationKeys.unreadCount)).toEqual({ count: 4 });
    expect(ids(client)).toEqual([['a:5*']]);
    handle.unread(0);
    expect(client.getQueryData(notificationKeys.unreadCount)).toEqual({ count: 0 });
    expect(ids(client)).toEqual([['a:5']]);
  });

  it('leaves the list alone when it was never loaded', () => {
    const client = new QueryClient();
    cacheHandlers(client).notification(entry());
    expect(client.getQueryData(notificationKeys.list)).toBeUndefined();
  });

  it("refreshes the owner's group page when a join request arrives", () => {
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const group = { _id: 'g1', name: 'Tapas Cats' };
    cacheHandlers(client).notification(
      entry({ type: 'join_request', post: null, group, link: '/groups/g1' }),
    );
    expect(invalidate).toHaveBeenCalledWith({ queryKey: groupKeys.detail('g1') });
    invalidate.mockClear();
    cacheHandlers(client).notification(entry({ type: 'like' }));
    expect(invalidate).not.toHaveBeenCalled();
  });
});
