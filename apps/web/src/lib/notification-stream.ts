import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Notification, StreamTicketResponse } from '@cats/contracts';
import { groupKeys } from '../components/groups/api/query-keys.ts';
import { afterNextPaint } from './after-paint.ts';
import { api, ApiError } from './api-client.ts';
import {
  markReadInPages,
  patchNotificationList,
  removeNotification,
  setUnreadCount,
  upsertNotification,
} from './notification-cache.ts';

/**
 * Live notifications (issue 25): the client side of GET /api/notifications/stream, whose protocol is
 * described in packages/contracts/src/notifications.ts. EventSource cannot send a bearer header, so
 * each connection starts with a short-lived ticket (POST /api/notifications/stream-ticket), which opens
 * one stream only (issue 46). So EventSource's own reconnects, which would send the spent ticket again,
 * are never left to the browser: whenever the connection breaks, the client takes a new ticket and
 * passes the last id it saw as `lastEventId`, waiting longer after each failure in a row.
 *
 * The server keeps a few streams per user and ends the oldest for a new one, saying `superseded`
 * first. A tab told so does not come back on its own timer, which would end another tab's stream, and
 * so on round six tabs for ever: it waits until it is looked at again (visible, or focused), or, if it
 * was being looked at, for a minute or so.
 */

export interface StreamHandlers {
  notification: (entry: Notification) => void;
  removed: (id: string) => void;
  unread: (count: number) => void;
}

/** The parts of EventSource the client uses, so that tests can hand it a fake. */
export interface EventSourceLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}

export type StreamStatus = 'connecting' | 'open' | 'waiting' | 'closed' | 'unavailable';

export interface StreamOptions {
  handlers: StreamHandlers;
  getTicket?: () => Promise<StreamTicketResponse>;
  createEventSource?: (url: string) => EventSourceLike;
  onStatus?: (status: StreamStatus) => void;
  /** 0 to 1; the share of each wait that is random, so that many clients do not return at once. */
  random?: () => number;
  /** Whether no one can see the page (a tab in the background, a minimised window). */
  isHidden?: () => boolean;
}

export const STREAM_PATH = '/api/notifications/stream';
/** The first wait after a failure, doubled after each one in a row up to the longest. */
export const FIRST_RETRY_MS = 1_000;
export const LONGEST_RETRY_MS = 30_000;
/** A visible tab whose stream was superseded comes back after about this long (0.75 to 1.25 times). */
export const SUPERSEDED_RETRY_MS = 60_000;

const requestTicket = () => api<StreamTicketResponse>('/api/notifications/stream-ticket', { method: 'POST' });

export interface NotificationStream {
  close(): void;
  /** While waiting to reconnect (after a failure), reconnect now: the device is back online. */
  retryNow(): void;
  /**
   * Lets go of the connection, and makes no new one, until resume(): the page is going away, perhaps
   * into the browser's back/forward cache, where an open stream would hold one of the six connections
   * a browser opens to a server over HTTP/1.1. Six such pages and the app's next page never loads.
   */
  suspend(): void;
  /** After suspend(): a new ticket and connection, asking for what came after the last id seen. */
  resume(): void;
  /**
   * The page is looked at again (visible, or focused): a stream superseded by another tab's comes
   * back now, with the last id it saw.
   */
  shown(): void;
}

/** Opens the stream and keeps it open until `close()`. */
export function openNotificationStream({
  handlers,
  getTicket = requestTicket,
  createEventSource = (url) => new EventSource(url),
  onStatus,
  random = Math.random,
  isHidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden',
}: StreamOptions): NotificationStream {
  let closed = false;
  let suspended = false;
  /** The server ended the stream for a newer one of the user's: waiting to be looked at again. */
  let superseded = false;
  /** Bumped by every connect(): a ticket that arrives after a newer attempt began opens nothing. */
  let attempts = 0;
  let source: EventSourceLike | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let lastEventId: string | null = null;

  const status = (s: StreamStatus) => {
    if (!closed || s === 'closed') onStatus?.(s);
  };

  const dropSource = () => {
    if (!source) return;
    source.onopen = null;
    source.onerror = null;
    source.close();
    source = null;
  };

  const retryLater = () => {
    dropSource();
    if (closed || suspended) return;
    const base = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** failures);
    failures += 1;
    status('waiting');
    timer = setTimeout(() => void connect(), base * (0.8 + 0.2 * random()));
  };

  /** Ended for another of the user's streams: not back on its own unless someone is looking at it. */
  const waitToBeShown = () => {
    dropSource();
    clearTimeout(timer);
    timer = undefined;
    if (closed || suspended) return;
    superseded = true;
    status('waiting');
    if (isHidden()) return;
    // Two windows side by side take turns, once a minute rather than every second.
    timer = setTimeout(
      () => {
        timer = undefined;
        if (!isHidden()) void connect();
      },
      SUPERSEDED_RETRY_MS * (0.75 + 0.5 * random()),
    );
  };

  /** Every event may carry an id (the entry's seq); the browser keeps the last one for us too. */
  const listen = (es: EventSourceLike, type: string, handle: (data: unknown) => void) =>
    es.addEventListener(type, (event) => {
      if (closed || es !== source) return;
      if (event.lastEventId) lastEventId = event.lastEventId;
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        console.error(`Notification stream: unreadable ${type} event`);
        return;
      }
      handle(data);
    });

  async function connect() {
    timer = undefined;
    if (closed || suspended) return;
    superseded = false;
    const attempt = ++attempts;
    status('connecting');
    let ticket: StreamTicketResponse;
    try {
      ticket = await getTicket();
    } catch (err) {
      if (closed || suspended || attempt !== attempts) return;
      // A refusal that a retry will not change (no stream on this server, an account without one).
      if (err instanceof ApiError && err.status !== null && err.status < 500 && err.status !== 429) {
        status('unavailable');
        return;
      }
      retryLater();
      return;
    }
    if (closed || suspended || attempt !== attempts) return;
    const query = new URLSearchParams({ ticket: ticket.ticket });
    if (lastEventId) query.set('lastEventId', lastEventId);
    const es = createEventSource(`${STREAM_PATH}?${query.toString()}`);
    source = es;
    es.onopen = () => {
      failures = 0;
      status('open');
    };
    // The browser would reconnect by itself with the same ticket, which the server refuses once used:
    // this source is closed and a new ticket taken instead.
    es.onerror = () => retryLater();
    listen(es, 'notification', (data) => handlers.notification(data as Notification));
    listen(es, 'removed', (data) => handlers.removed((data as { _id: string })._id));
    listen(es, 'unread', (data) => handlers.unread((data as { count: number }).count));
    // Sent just before the server ends the stream: the end that follows is no failure to retry.
    listen(es, 'superseded', () => waitToBeShown());
  }

  void connect();
  return {
    retryNow() {
      // Back online does not bring back a stream that another tab's replaced.
      if (closed || superseded || timer === undefined) return;
      clearTimeout(timer);
      void connect();
    },
    close() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      dropSource();
      status('closed');
    },
    suspend() {
      if (closed || suspended) return;
      suspended = true;
      clearTimeout(timer);
      timer = undefined;
      dropSource();
      status('waiting');
    },
    resume() {
      if (closed || !suspended) return;
      suspended = false;
      failures = 0;
      void connect();
    },
    shown() {
      if (closed || suspended || !superseded) return;
      clearTimeout(timer);
      void connect();
    },
  };
}

/** Applies the stream's events to the query cache: the list, the bell, and what an entry changes. */
export function cacheHandlers(queryClient: QueryClient): StreamHandlers {
  return {
    notification(entry) {
      patchNotificationList(queryClient, (data) => upsertNotification(data, entry));
      const groupId = entry.group?._id;
      if (!groupId) return;
      // The screens an entry changes, without a reload (issue 25: 'the owner sees a join request
      // arrive'); invalidating refetches only what is on screen.
      switch (entry.type) {
        case 'join_request':
          void queryClient.invalidateQueries({ queryKey: groupKeys.detail(groupId) });
          break;
        case 'request_accepted':
        case 'request_declined':
        case 'removed_from_group':
          void queryClient.invalidateQueries({ queryKey: groupKeys.detail(groupId) });
          void queryClient.invalidateQueries({ queryKey: groupKeys.mine });
          break;
        case 'group_share':
          void queryClient.invalidateQueries({ queryKey: groupKeys.posts(groupId) });
          void queryClient.invalidateQueries({ queryKey: groupKeys.map(groupId) });
          break;
        default:
          break;
      }
    },
    removed(id) {
      patchNotificationList(queryClient, (data) => removeNotification(data, id));
    },
    unread(count) {
      setUnreadCount(queryClient, count);
      // Nothing unread (read on another device, say): every entry shown is read.
      if (count === 0) patchNotificationList(queryClient, (data) => markReadInPages(data, null));
    },
  };
}

/** Whether the stream is open now: the bell asks the server itself on focus when it is not. */
let currentStatus: StreamStatus = 'closed';
const statusListeners = new Set<() => void>();
const setStatus = (s: StreamStatus) => {
  currentStatus = s;
  statusListeners.forEach((l) => l());
};
const subscribeStatus = (listener: () => void) => {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
};

export function useNotificationStreamStatus(): StreamStatus {
  return useSyncExternalStore(subscribeStatus, () => currentStatus);
}

/**
 * Keeps the stream open while `userId` is signed in (the member navigation holds it), and closes it
 * on logout. A token refresh does not reopen it: the stream is the user's, not the token's.
 */
export function useNotificationStream(userId: string | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId || typeof EventSource === 'undefined') return;
    let stream: NotificationStream | null = null;
    // After the screen is up: the stream's ticket request is not what the first paint waits for.
    const cancel = afterNextPaint(() => {
      stream = openNotificationStream({ handlers: cacheHandlers(queryClient), onStatus: setStatus });
    });
    // Back online: try at once rather than at the end of a long wait.
    const online = () => stream?.retryNow();
    // Leaving the page (perhaps into the back/forward cache, to be shown again as it was): the stream
    // lets go of its connection, and picks up where it left off if the page comes back.
    const hide = () => stream?.suspend();
    const show = (event: PageTransitionEvent) => {
      if (event.persisted) stream?.resume();
    };
    // Looked at again: a stream another tab's replaced comes back (the person needs it now).
    const looked = () => {
      if (document.visibilityState === 'visible') stream?.shown();
    };
    window.addEventListener('online', online);
    window.addEventListener('pagehide', hide);
    window.addEventListener('pageshow', show);
    window.addEventListener('focus', looked);
    document.addEventListener('visibilitychange', looked);
    return () => {
      cancel();
      window.removeEventListener('online', online);
      window.removeEventListener('pagehide', hide);
      window.removeEventListener('pageshow', show);
      window.removeEventListener('focus', looked);
      document.removeEventListener('visibilitychange', looked);
      stream?.close();
    };
  }, [userId, queryClient]);
}
