import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  markReadRequestSchema,
  notificationPreferencesResponseSchema,
  notificationsQuerySchema,
  notificationsResponseSchema,
  unreadCountResponseSchema,
  updateNotificationPreferencesRequestSchema,
} from '@cats/contracts';
import { assertNotDemo, caller, requireAuth } from '../../plugins/auth.ts';
import { createNotificationsService } from './notifications.service.ts';

const security = [{ bearer: [] }];
const tags = ['notifications'];

/** The notification centre (issue 25): the caller's entries, unread count, read marks and switches. */
export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireAuth);
  const notifications = createNotificationsService({
    db: app.database.db,
    publicBase: app.config.S3_PUBLIC_URL,
  });

  app.get(
    '/notifications',
    {
      schema: {
        tags,
        security,
        summary: "The caller's notifications, newest change first, paged by cursor",
        querystring: notificationsQuerySchema,
        response: { 200: notificationsResponseSchema },
      },
    },
    async (request) => notifications.list(caller(request), request.query.cursor),
  );

  app.get(
    '/notifications/unread-count',
    {
      schema: {
        tags,
        security,
        summary: 'How many of the caller’s notifications are unread',
        response: { 200: unreadCountResponseSchema },
      },
    },
    async (request) => ({ count: await notifications.unreadCount(caller(request)) }),
  );

  app.post(
    '/notifications/read',
    {
      schema: {
        tags,
        security,
        summary: 'Mark notifications read: those with `ids`, or all; answers the unread count left',
        // nullish: a POST without a body (mark all) arrives as null, as for the like toggle.
        body: markReadRequestSchema.nullish(),
        response: { 200: unreadCountResponseSchema },
      },
    },
    async (request) => ({
      count: await notifications.markRead(assertNotDemo(request), request.body?.ids),
    }),
  );

  app.get(
    '/notifications/preferences',
    {
      schema: {
        tags,
        security,
        summary: 'The caller’s switches per notification type, in the app and by push',
        response: { 200: notificationPreferencesResponseSchema },
      },
    },
    async (request) => ({ preferences: await notifications.preferences(caller(request)) }),
  );

  app.put(
    '/notifications/preferences',
    {
      schema: {
        tags,
        security,
        summary: 'Change the switches of the types named; the others keep theirs',
        body: updateNotificationPreferencesRequestSchema,
        response: { 200: notificationPreferencesResponseSchema },
      },
    },
    async (request) => ({
      preferences: await notifications.savePreferences(assertNotDemo(request), request.body.preferences),
    }),
  );
};
