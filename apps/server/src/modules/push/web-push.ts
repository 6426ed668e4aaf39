import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { pushEndpointPolicy, type PushEndpointPolicy } from './push-endpoints.ts';
import { createPushSender, type PushSender } from './push-sender.ts';
import { resolveVapidKeys, vapidSubject, type VapidKeys } from './vapid-keys.ts';

export interface WebPush {
  /** The VAPID key pair, read or generated on first use. */
  keys(): Promise<VapidKeys>;
  endpoints: PushEndpointPolicy;
  sender: PushSender;
}

declare module 'fastify' {
  interface FastifyInstance {
    webPush: WebPush;
  }
}

/** How long closing waits for pushes under way before the database goes. */
const STOP_WAIT_MS = 5000;

/**
 * Web Push for notifications (issue 25): the key pair and the sender, fed by the instance's one
 * notification listener. Keys are read lazily, so that an instance whose database is away still
 * starts (and answers 503 meanwhile), and a failed read is tried again on the next use.
 */
export const webPushPlugin = fp(async (app: FastifyInstance) => {
  let loading: Promise<VapidKeys> | null = null;
  const keys = () => {
    loading ??= resolveVapidKeys(app.config, app.database).catch((err: unknown) => {
      loading = null;
      throw err;
    });
    return loading;
  };
  const endpoints = pushEndpointPolicy(app.config.PUSH_ENDPOINT_HOSTS);
  const sender = createPushSender({
    db: app.database.db,
    log: app.log.child({ module: 'push' }),
    keys,
    subject: vapidSubject(app.config),
    endpoints,
  });
  app.decorate('webPush', { keys, endpoints, sender } satisfies WebPush);
  const unsubscribe = app.notificationEvents.subscribe((event) => sender.handle(event));
  app.addHook('preClose', async () => {
    unsubscribe();
    await sender.stop(STOP_WAIT_MS);
  });
});
