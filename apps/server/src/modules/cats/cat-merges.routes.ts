import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CAT_HISTORY_PAGE_SIZE,
  CAT_MERGE_UNDO_DAYS,
  catHistoryQuerySchema,
  catHistoryResponseSchema,
  catMergeParamsSchema,
  catParamsSchema,
  errorResponseSchema,
  mergeCatsResponseSchema,
  mergeCatsSchema,
  undoMergeResponseSchema,
} from '@cats/contracts';
import { assertNotDemo, caller, requireAuth } from '../../plugins/auth.ts';
import type { CatsDeps } from './cats.service.ts';
import * as merges from './cat-merges.service.ts';

const security = [{ bearer: [] }];
const tags = ['cats'];
const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
};

/** The demo account merges nothing (spec section 6; issue 26), before the body is read. */
async function refuseDemo(request: FastifyRequest) {
  assertNotDemo(request);
}

/**
 * Merges of two profiles of one cat (issue 26): a caretaker of both merges the duplicate into the
 * surviving cat, the history lists merges and undos, and an undo within CAT_MERGE_UNDO_DAYS moves
 * exactly what moved back. No answer here carries a place.
 */
export const catMergesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireAuth);
  const deps: CatsDeps = { db: app.database.db, publicBase: app.config.S3_PUBLIC_URL };

  app.post(
    '/cats/:catId/merge',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary:
          'Merge a duplicate profile into this cat (a caretaker of both): its sightings, followers and ' +
          `caretakers move here, its id leads here, and the merge can be undone for ${CAT_MERGE_UNDO_DAYS} days`,
        params: catParamsSchema,
        body: mergeCatsSchema,
        response: { 200: mergeCatsResponseSchema, ...errors },
      },
    },
    async (request) =>
      merges.mergeCats(deps, caller(request), request.params.catId, request.body.duplicateCatId),
  );

  app.get(
    '/cats/:catId/history',
    {
      schema: {
        tags,
        security,
        summary: `The merges a cat took part in and their undos, with who and when, newest first, ${CAT_HISTORY_PAGE_SIZE} a page by cursor`,
        params: catParamsSchema,
        querystring: catHistoryQuerySchema,
        response: { 200: catHistoryResponseSchema, ...errors },
      },
    },
    async (request) => merges.catHistory(deps, caller(request), request.params.catId, request.query.cursor),
  );

  app.post(
    '/cats/:catId/merges/:mergeId/undo',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary:
          `Undo a merge within ${CAT_MERGE_UNDO_DAYS} days (a caretaker of the surviving cat): the sightings, ` +
          'follows and caretakers it moved go back; sightings linked since stay',
        params: catMergeParamsSchema,
        response: { 200: undoMergeResponseSchema, ...errors },
      },
    },
    async (request) => merges.undoMerge(deps, caller(request), request.params.catId, request.params.mergeId),
  );
};
