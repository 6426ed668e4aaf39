import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MODERATION_QUEUE_MESSAGES,
  createModerationNoteSchema,
  moderationReportParamsSchema,
  moderationNoteResponseSchema,
  moderationQueueQuerySchema,
  moderationQueueResponseSchema,
  moderationStatsSchema,
} from '@cats/contracts';
import { caller, requireAuth } from '../../plugins/auth.ts';
import { sendMessage } from '../../plugins/error-handler.ts';
import * as queue from './moderation-queue.service.ts';
import { reportPicture } from './reports.service.ts';
import { requireModerator } from './staff-roles.ts';

const security = [{ bearer: [] }];
const tags = ['moderation'];

/**
 * The moderation queue (issue 27, "Moderators"): reported things with their reports, the queue's
 * health and notes between moderators. Moderators and admins only, their role read on each request.
 */
export const moderationQueueRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireAuth);
  app.addHook('preHandler', requireModerator);
  const deps = { db: app.database.db, publicBase: app.config.S3_PUBLIC_URL };

  app.get(
    '/moderation/reports',
    {
      schema: {
        tags,
        security,
        summary: 'Open reports grouped by what was reported, the longest-waiting first, paged by cursor',
        querystring: moderationQueueQuerySchema,
        response: { 200: moderationQueueResponseSchema },
      },
    },
    async (request) => queue.listQueue(deps, request.query.cursor),
  );

  app.get(
    '/moderation/stats',
    {
      schema: {
        tags,
        security,
        summary: 'Health of the queue: open reports, the oldest one, the median time to a first action',
        response: { 200: moderationStatsSchema },
      },
    },
    async () => queue.queueStats(deps),
  );

  // Issue 46: a report's picture reaches moderators only, through this route; the answer is private
  // and not stored (privateAnswersPlugin), unlike /media's year of public caching.
  app.get(
    '/moderation/reports/:reportId/picture',
    {
      schema: {
        tags,
        security,
        summary: "A report's picture as it was reported, kept after the post is deleted (WebP)",
        params: moderationReportParamsSchema,
        produces: ['image/webp'],
      },
    },
    async (request, reply) => {
      const picture = await reportPicture(
        { db: app.database.db, storage: app.storage },
        request.params.reportId,
      );
      if (!picture) return sendMessage(request, reply, 404, MODERATION_QUEUE_MESSAGES.pictureNotFound);
      reply.header('x-content-type-options', 'nosniff').type(picture.contentType);
      if (picture.size !== undefined) reply.header('content-length', picture.size);
      return reply.send(picture.body);
    },
  );

  app.post(
    '/moderation/notes',
    {
      schema: {
        tags,
        security,
        summary: 'A note between moderators about something reported',
        body: createModerationNoteSchema,
        response: { 201: moderationNoteResponseSchema },
      },
    },
    async (request, reply) => {
      const note = await queue.addNote(deps, caller(request), request.body);
      return reply.code(201).send({ note });
    },
  );
};
