import type { FastifyBaseLogger } from 'fastify';
import webPush from 'web-push';
import type { Database } from '../../db/client.ts';
import type { NotificationEvent } from '../notifications/notification-events.ts';
import { notificationsWithSeq } from '../notifications/notifications.repository.ts';
import type { PushEndpointPolicy } from './push-endpoints.ts';
import { pushMessage, pushTopic } from './push-message.ts';
import * as repo from './push.repository.ts';
import type { VapidKeys } from './vapid-keys.ts';

/** How long a push service keeps a message for a browser that is offline (issue 25: 48 h). */
export const PUSH_TTL_SECONDS = 48 * 60 * 60;
/** Entries being pushed at once per instance; each goes to at most MAX_SUBSCRIPTIONS_PER_USER browsers. */
const CONCURRENT_ENTRIES = 4;
/**
 * Entries waiting beyond this are dropped (with a warning): a push is a nicety beside the notification
 * centre, and a burst must not grow the queue without bound while a push service is slow.
 */
const MAX_WAITING = 10_000;
/** A push service that has not answered by then is given up on for this message. */
const REQUEST_TIMEOUT_MS = 10_000;

export interface PushSenderDeps {
  db: Database;
  log: FastifyBaseLogger;
  keys: () => Promise<VapidKeys>;
  subject: string;
  endpoints: PushEndpointPolicy;
}

export interface PushSender {
  /** Queues the push of a changed entry; returns at once (the NOTIFY listener must never wait). */
  handle(event: NotificationEvent): void;
  /** Resolves when nothing is queued or being sent. */
  idle(): Promise<void>;
  /** Stops taking events and waits up to `ms` for the pushes under way. */
  stop(ms: number): Promise<void>;
}

/**
 * Sends Web Push messages for new and changed notification entries (issue 25), after their cause has
 * committed and off the request path: the NOTIFY that announces an entry reaches every instance, one
 * instance claims the send in the database (push.repository.ts claimPush), reads the entry as the
 * recipient may see it (blocks, hidden posts) and posts it, encrypted by web-push, to each of the
 * recipient's browsers. A push that fails changes nothing but the subscription the push service says
 * is gone.
 */
export function createPushSender(deps: PushSenderDeps): PushSender {
  const { db, log } = deps;
  const waiting: { recipientId: string; seq: number }[] = [];
  let running = 0;
  let stopped = false;
  let idleWaiters: (() => void)[] = [];

  const settleIdle = () => {
    if (running > 0 || waiting.length > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  async function sendTo(
    subscription: repo.SubscriptionRow,
    payload: string,
    topic: string,
    keys: VapidKeys,
  ): Promise<void> {
    if (!deps.endpoints.allows(subscription.endpoint)) {
      // Saved before PUSH_ENDPOINT_HOSTS changed: the server no longer sends there.
      log.warn({ subscription: subscription.id }, 'push endpoint no longer allowed; subscription removed');
      await repo.deleteSubscriptionById(db, subscription.id);
      return;
    }
    const details = webPush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      payload,
      {
        TTL: PUSH_TTL_SECONDS,
        urgency: 'normal',
        topic,
        contentEncoding: 'aes128gcm',
        vapidDetails: { subject: deps.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      },
    );
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(details.headers)) {
      // fetch sets the length from the body itself.
      if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
    }
    let status: number;
    try {
      const res = await fetch(details.endpoint, {
        method: 'POST',
        headers,
        body: details.body,
        // A push service answers; it does not send us elsewhere (nor to an internal address).
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      status = res.status;
      await res.body?.cancel();
    } catch (err) {
      log.warn({ err, subscription: subscription.id }, 'push service unreachable; subscription kept');
      return;
    }
    if (status === 404 || status === 410) {
      // The browser unsubscribed, or the subscription expired: it will never be valid again (RFC 8030).
      await repo.deleteSubscriptionById(db, subscription.id);
    } else if (status < 200 || status >= 300) {
      log.warn({ status, subscription: subscription.id }, 'push refused; subscription kept');
    }
  }

  async function push(recipientId: string, seq: number): Promise<void> {
    if (!(await repo.claimPush(db, recipientId, seq))) return;
    const [row] = await notificationsWithSeq(db, recipientId, [seq]);
    // Claimed but not shown: its actors are all blocked now, or its post was hidden or deleted.
    if (!row) return;
    const subscriptions = await repo.listSubscriptions(db, recipientId);
    if (subscriptions.length === 0) return;
    const keys = await deps.keys();
    const payload = JSON.stringify(pushMessage(row));
    const topic = pushTopic(row);
    await Promise.all(subscriptions.map((s) => sendTo(s, payload, topic, keys)));
  }

  function pump(): void {
    while (running < CONCURRENT_ENTRIES && waiting.length > 0) {
      const next = waiting.shift()!;
      running += 1;
      push(next.recipientId, next.seq)
        .catch((err: unknown) => log.error({ err, recipientId: next.recipientId }, 'push failed'))
        .finally(() => {
          running -= 1;
          pump();
          settleIdle();
        });
    }
  }

  return {
    handle(event) {
      if (stopped || event.kind !== 'changed') return;
      if (waiting.length >= MAX_WAITING) {
        log.warn({ recipientId: event.recipientId }, 'push queue full; this push is dropped');
        return;
      }
      waiting.push({ recipientId: event.recipientId, seq: event.seq });
      pump();
    },
    idle() {
      if (running === 0 && waiting.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async stop(ms) {
      stopped = true;
      // What has not started will not: the entries stay in the notification centre.
      waiting.length = 0;
      settleIdle();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.idle(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, ms);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}
