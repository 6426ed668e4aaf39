import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponseSchema,
  MODERATION_LOG_PAGE_SIZE,
  moderationActionParamsSchema,
  moderationActionSchema,
  moderationActionsAnswerSchema,
  moderationLogPageSchema,
  moderationLogQuerySchema,
  moderationReportParamsSchema,
  restoreActionSchema,
  takeModerationActionsSchema,
} from '@cats/contracts';
import { caller, requireAuth } from '../../plugins/auth.ts';
import * as service from './moderation-actions.service.ts';
import { requireModerator } from './staff-roles.ts';

const security = [{ bearer: [] }];
const tags = ['moderation'];
const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
};

/**
 * Moderators' actions on reports, their undoing, and the audit log (issue 27, "Moderators";
 * docs/moderation.md). Moderators and admins only, the role read from the database before the body.
 */
export const moderationActionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireAuth);
  app.addHook('onRequest', requireModerator);
  const deps: service.ModerationActionsDeps = {
    db: app.database.db,
    liveUsers: app.liveUsers,
    events: app.events,
  };

  app.post(
    '/moderation/reports/:reportId/actions',
    {
      schema: {
        tags,
        security,
        summary:
          'Act on a report: dismiss, remove, strip the location, warn or suspend, several at once in one ' +
          'transaction; each is appended to the audit log, and every open report on the same target closes',
        params: moderationReportParamsSchema,
        body: takeModerationActionsSchema,
        response: { 200: moderationActionsAnswerSchema, ...errors },
      },
    },
    async (request) => ({
      actions: await service.takeActions(deps, caller(request), request.params.reportId, request.body),
    }),
  );

  app.post(
    '/moderation/actions/:actionId/restore',
    {
      schema: {
        tags,
        security,
        summary:
          'Undo a removal, a stripped location or a suspension; answers the restore entry appended to the log',
        params: moderationActionParamsSchema,
        body: restoreActionSchema.optional(),
        response: { 200: moderationActionSchema, ...errors },
      },
    },
    async (request) =>
      service.restoreAction(deps, caller(request), request.params.actionId, request.body ?? {}),
  );

  app.get(
    '/moderation/log',
    {
      schema: {
        tags,
        security,
        summary: `The audit log of moderation actions, newest first, ${MODERATION_LOG_PAGE_SIZE} a page by cursor`,
        querystring: moderationLogQuerySchema,
        response: { 200: moderationLogPageSchema, ...errors },
      },
    },
    async (request) => service.moderationLog(deps, request.query.cursor),
  );
};
