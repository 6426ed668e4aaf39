import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  catParamsSchema,
  errorResponseSchema,
  markMissingSchema,
  MISSING_ALERT_DAYS,
  MISSING_ALERTS_PER_ACCOUNT,
  MISSING_MAP_LIMIT,
  MISSING_MESSAGES,
  MISSING_NEAR_LIMIT,
  MISSING_NEAR_METRES,
  MISSING_REPORTS_MAX,
  missingAlertChangedResponseSchema,
  missingAlertResponseSchema,
  missingFoundResponseSchema,
  missingMapQuerySchema,
  missingMapResponseSchema,
  missingNearQuerySchema,
  missingNearResponseSchema,
  missingReportCreatedResponseSchema,
  missingReportRequestSchema,
  missingReportsResponseSchema,
} from '@cats/contracts';
import { assertNotDemo, caller, requireAuth } from '../../../plugins/auth.ts';
import * as missing from './missing.service.ts';

const security = [{ bearer: [] }];
const tags = ['cats'];
const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
};

/** The demo account reads alerts but raises, ends and reports nothing (spec section 6), before the body. */
async function refuseDemo(request: FastifyRequest) {
  assertNotDemo(request);
}

/**
 * Missing cats (issue 26): a caretaker raises, renews and ends a cat's alert; people nearby find it
 * and answer 'I saw this cat'; the caretakers read the answers. Places: missing.service.ts.
 */
export const missingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireAuth);
  const deps: missing.MissingDeps = {
    db: app.database.db,
    publicBase: app.config.S3_PUBLIC_URL,
    alertsPerDay: app.config.MISSING_ALERTS_PER_DAY,
  };

  app.get(
    '/cats/missing',
    {
      schema: {
        tags,
        security,
        summary:
          `Missing cats whose last-seen ~500 m cell lies within ${MISSING_NEAR_METRES} m of near=lat,lng, or ` +
          "else of the caller's area (home area from Settings, else their newest located post), nearest " +
          `first, at most limit (1 to ${MISSING_NEAR_LIMIT}, the default), with how many there are in all; ` +
          "the exact place only to the cat's caretakers",
        querystring: missingNearQuerySchema,
        response: { 200: missingNearResponseSchema, ...errors },
      },
    },
    async (request) => missing.missingNear(deps, caller(request), request.query.near, request.query.limit),
  );

  app.get(
    '/cats/missing/map',
    {
      schema: {
        tags,
        security,
        summary:
          "Explore's missing-cat pins for one viewport: open alerts whose last-seen ~500 m cell lies in " +
          'west, south, east, north (degrees, as GET /api/explore takes them) at zoom',
        description:
          `Those whose cell lies nearest the viewport's centre first, at most ${MISSING_MAP_LIMIT}; truncated ` +
          'says that more lie in it (zooming in shows them). Bounds and order go by the cell, never the ' +
          "exact place, which only the cat's caretakers are shown. Alerts raised by someone the caller " +
          'shares a block with are left out. A viewport far larger than a screen at its zoom is refused, as ' +
          'GET /api/explore refuses it.',
        querystring: missingMapQuerySchema,
        response: { 200: missingMapResponseSchema, ...errors },
      },
    },
    async (request) => missing.missingOnMap(deps, caller(request), request.query),
  );

  app.get(
    '/cats/:catId/missing',
    {
      schema: {
        tags,
        security,
        summary: "The cat's missing alert as the caller may see it, or null when the cat is not missing",
        params: catParamsSchema,
        response: { 200: missingAlertResponseSchema, ...errors },
      },
    },
    async (request) => ({ alert: await missing.getAlert(deps, caller(request), request.params.catId) }),
  );

  app.post(
    '/cats/:catId/missing',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary:
          `Mark the cat missing (caretakers): last seen when and where, a note and how to be reached. Runs ` +
          `${MISSING_ALERT_DAYS} days unless renewed; one alert per cat, ${MISSING_ALERTS_PER_ACCOUNT} per account (409)`,
        params: catParamsSchema,
        body: markMissingSchema,
        response: { 201: missingAlertChangedResponseSchema, ...errors, 409: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const alert = await missing.markMissing(deps, caller(request), request.params.catId, request.body);
      return reply.status(201).send({ message: MISSING_MESSAGES.raised, alert });
    },
  );

  app.post(
    '/cats/:catId/missing/renew',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary: `Renew the cat's missing alert for ${MISSING_ALERT_DAYS} days from now (caretakers)`,
        params: catParamsSchema,
        response: { 200: missingAlertChangedResponseSchema, ...errors, 409: errorResponseSchema },
      },
    },
    async (request) => ({
      message: MISSING_MESSAGES.renewed,
      alert: await missing.renewAlert(deps, caller(request), request.params.catId),
    }),
  );

  app.delete(
    '/cats/:catId/missing',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary: "Mark the cat found, 'Back home!' (caretakers): everyone told it was missing is told",
        params: catParamsSchema,
        response: { 200: missingFoundResponseSchema, ...errors },
      },
    },
    async (request) => {
      await missing.markFound(deps, caller(request), request.params.catId);
      return { message: MISSING_MESSAGES.found };
    },
  );

  app.post(
    '/cats/:catId/missing/reports',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary:
          "'I saw this cat' without a photo: when and where, and a note, for the cat's caretakers alone " +
          '(a photo is a post linked to the cat)',
        params: catParamsSchema,
        body: missingReportRequestSchema,
        response: { 201: missingReportCreatedResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const report = await missing.reportSighting(deps, caller(request), request.params.catId, request.body);
      return reply.status(201).send({ message: MISSING_MESSAGES.reported, report });
    },
  );

  app.get(
    '/cats/:catId/missing/reports',
    {
      schema: {
        tags,
        security,
        summary:
          `Every answer to the cat's newest alert, newest sighting first, at most ${MISSING_REPORTS_MAX} ` +
          '(caretakers only): reports exactly placed, photos as their posts place them',
        params: catParamsSchema,
        response: { 200: missingReportsResponseSchema, ...errors },
      },
    },
    async (request) => missing.listReports(deps, caller(request), request.params.catId),
  );
};
