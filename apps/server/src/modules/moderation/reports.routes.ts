import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createReportSchema, errorResponseSchema, reportReceiptSchema } from '@cats/contracts';
import { assertNotDemo, caller, requireAuth } from '../../plugins/auth.ts';
import * as reports from './reports.service.ts';

const security = [{ bearer: [] }];

/** The demo account writes nothing but likes (spec section 6): refused before the body is read. */
async function refuseDemo(request: FastifyRequest) {
  assertNotDemo(request);
}

/** Reporting a post, a comment, a person or a cat's page (issue 27, "Reporting"). */
export const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireAuth);
  const deps: reports.ReportsDeps = { db: app.database.db, storage: app.storage, log: app.log };

  app.post(
    '/reports',
    {
      onRequest: refuseDemo,
      schema: {
        tags: ['moderation'],
        security,
        summary:
          'Report a post, comment, person or cat to the moderators; a second report of the same thing ' +
          'updates the first (200). The reporter stops seeing a reported post or comment; blockAuthor ' +
          'also blocks its author',
        body: createReportSchema,
        response: {
          200: reportReceiptSchema,
          201: reportReceiptSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const outcome = await reports.report(deps, caller(request), request.body);
      return reply.status(outcome.created ? 201 : 200).send(outcome.receipt);
    },
  );
};
