import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  APPEAL_MESSAGES,
  APPEAL_WINDOW_DAYS,
  appealDecisionSchema,
  appealParamsSchema,
  appealReceiptSchema,
  createAppealSchema,
  decideAppealSchema,
  errorResponseSchema,
  moderatorAppealsResponseSchema,
  ownReportsResponseSchema,
  statementsResponseSchema,
} from '@cats/contracts';
import { assertNotDemo, caller, requireAuth } from '../../plugins/auth.ts';
import * as service from './appeals.service.ts';
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
 * The author's side of moderation (issue 27): statements of reasons, the caller's reports and what came
 * of them, appeals; and for moderators, the open appeals and their decisions. docs/moderation.md.
 */
export const appealsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireAuth);
  const deps: service.AppealsDeps = {
    db: app.database.db,
    publicBase: app.config.S3_PUBLIC_URL,
    events: app.events,
  };

  app.get(
    '/moderation/statements',
    {
      schema: {
        tags,
        security,
        summary:
          'The statements of reasons of every moderation decision about your content or account, newest ' +
          'first: what, which rule, when, and whether and until when it can be appealed',
        response: { 200: statementsResponseSchema, ...errors },
      },
    },
    async (request) => service.statements(deps, caller(request)),
  );

  app.get(
    '/reports/mine',
    {
      schema: {
        tags,
        security,
        summary: 'Your reports, newest first, and what moderators did about each',
        response: { 200: ownReportsResponseSchema, ...errors },
      },
    },
    async (request) => service.ownReports(deps, caller(request)),
  );

  app.post(
    '/appeals',
    {
      // The demo account appeals nothing (spec section 6), before the body is read.
      onRequest: async (request) => {
        assertNotDemo(request);
      },
      schema: {
        tags,
        security,
        summary: `Appeal a decision about your content or account, once, within ${APPEAL_WINDOW_DAYS} days`,
        body: createAppealSchema,
        response: { 201: appealReceiptSchema, ...errors },
      },
    },
    async (request, reply) => {
      const appeal = await service.appeal(deps, caller(request), request.body.actionId, request.body.body);
      return reply.code(201).send({ appeal, message: APPEAL_MESSAGES.sent });
    },
  );

  app.get(
    '/moderation/appeals',
    {
      onRequest: requireModerator,
      schema: {
        tags,
        security,
        summary: 'Open appeals, oldest first, each with the decision it is about (moderators)',
        response: { 200: moderatorAppealsResponseSchema, ...errors },
      },
    },
    async (request) => service.openAppeals(deps, caller(request)),
  );

  app.post(
    '/moderation/appeals/:appealId/decision',
    {
      onRequest: requireModerator,
      schema: {
        tags,
        security,
        summary:
          "Decide an appeal (moderators; another moderator than the decision's where one exists): " +
          "'overturned' undoes the decision, 'upheld' keeps it; the appellant is told",
        params: appealParamsSchema,
        body: decideAppealSchema,
        response: { 200: appealDecisionSchema, ...errors },
      },
    },
    async (request) => ({
      appeal: await service.decideAppeal(
        deps,
        caller(request),
        request.params.appealId,
        request.body.outcome,
        request.body.explanation,
      ),
    }),
  );
};
