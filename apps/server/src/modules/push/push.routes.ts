import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  pushKeyResponseSchema,
  pushSubscriptionRequestSchema,
  pushUnsubscribeRequestSchema,
} from '@cats/contracts';
import { assertNotDemo, caller, requireAuth } from '../../plugins/auth.ts';
import { createPushService } from './push.service.ts';

const security = [{ bearer: [] }];
const tags = ['notifications'];

/** Web Push subscriptions (issue 25): the server's public key, and this browser's subscription. */
export const pushRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireAuth);
  const push = createPushService({ db: app.database.db, endpoints: app.webPush.endpoints });

  app.get(
    '/notifications/push/key',
    {
      schema: {
        tags,
        security,
        summary: "The server's VAPID public key: the applicationServerKey of pushManager.subscribe()",
        response: { 200: pushKeyResponseSchema },
      },
    },
    async (request) => {
      caller(request);
      return { publicKey: (await app.webPush.keys()).publicKey };
    },
  );

  app.post(
    '/notifications/push/subscriptions',
    {
      schema: {
        tags,
        security,
        summary:
          "Receive notifications by push on this browser: its PushSubscription.toJSON(); saved again, it moves to the caller. An account's oldest browsers beyond ten are dropped",
        body: pushSubscriptionRequestSchema,
        response: { 204: z.null().describe('Saved') },
      },
    },
    async (request, reply) => {
      await push.subscribe(assertNotDemo(request), request.body);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/notifications/push/subscriptions',
    {
      schema: {
        tags,
        security,
        summary: "Stop pushes to this browser: forgets the caller's subscription with this endpoint",
        body: pushUnsubscribeRequestSchema,
        response: { 204: z.null().describe('Forgotten') },
      },
    },
    async (request, reply) => {
      await push.unsubscribe(assertNotDemo(request), request.body.endpoint);
      return reply.status(204).send(null);
    },
  );
};
