import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Listener } from '../../db/listen.ts';
import { NOTIFICATION_CHANNEL } from './notifications.repository.ts';

/**
 * What the database announced about a user's notifications (add_notification(), the removal trigger
 * and markRead): ids only, so readers fetch what they may see. `resync` is this instance's own: its
 * listening connection was lost (a database restart) and listens again; whatever was NOTIFYed in
 * between was not heard, so readers that keep state (open streams) read again what changed.
 */
export type NotificationEvent =
  | { kind: 'changed'; recipientId: string; seq: number }
  | { kind: 'removed'; recipientId: string; id: string }
  | { kind: 'read'; recipientId: string }
  | { kind: 'resync' };

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const CHANGED = new RegExp(`^(${UUID}) (\\d+)$`);
const REMOVED = new RegExp(`^(${UUID}) removed (${UUID})$`);
const READ = new RegExp(`^(${UUID}) read$`);

export function parseNotificationEvent(payload: string): NotificationEvent | null {
  let match = CHANGED.exec(payload);
  if (match) return { kind: 'changed', recipientId: match[1]!, seq: Number(match[2]) };
  match = REMOVED.exec(payload);
  if (match) return { kind: 'removed', recipientId: match[1]!, id: match[2]! };
  match = READ.exec(payload);
  if (match) return { kind: 'read', recipientId: match[1]! };
  return null;
}

export interface NotificationEvents {
  /** Calls `listener` for every event of every user; returns a function that stops it. */
  subscribe(listener: (event: NotificationEvent) => void): () => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    notificationEvents: NotificationEvents;
  }
}

/**
 * One LISTEN per instance (a connection of its own on PostgreSQL; PGlite hears its own NOTIFYs), fanned
 * out in process to the stream and push modules. PostgreSQL carries each NOTIFY to every instance's
 * listener, so a like committed through instance A reaches streams held open on instance B.
 */
export const notificationEventsPlugin = fp(async (app: FastifyInstance) => {
  const listeners = new Set<(event: NotificationEvent) => void>();
  let listener: Listener | null = null;
  app.decorate('notificationEvents', {
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  } satisfies NotificationEvents);
  const emit = (event: NotificationEvent) => {
    for (const fn of listeners) {
      try {
        fn(event);
      } catch (err) {
        app.log.error({ err }, 'a notification listener failed');
      }
    }
  };
  app.addHook('onReady', async () => {
    listener = await app.database.listen(
      NOTIFICATION_CHANNEL,
      (payload) => {
        const event = parseNotificationEvent(payload);
        if (event) emit(event);
      },
      (err) => app.log.warn({ err }, 'notification listener connection failed; it reconnects'),
      () => {
        app.log.info('notification listener is back; open streams catch up');
        emit({ kind: 'resync' });
      },
    );
  });
  // Before the database closes.
  app.addHook('preClose', async () => {
    await listener?.close();
  });
});
