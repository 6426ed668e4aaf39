import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  acceptCatSuggestionResponseSchema,
  catSuggestionParamsSchema,
  postCatSuggestionsResponseSchema,
  errorResponseSchema,
  messageResponseSchema,
  postCatParamsSchema,
  suggestCatResponseSchema,
  suggestCatSchema,
} from '@cats/contracts';
import { assertNotDemo, caller, requireAuth } from '../../plugins/auth.ts';
import type { CatsDeps } from './cats.service.ts';
import * as suggestions from './post-cat-suggestions.service.ts';

const security = [{ bearer: [] }];
const tags = ['cats'];
const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
};

/** The demo account suggests and answers nothing (spec section 6; issue 26), before the body is read. */
async function refuseDemo(request: FastifyRequest) {
  assertNotDemo(request);
}

/**
 * 'This is Luna' (issue 26, "Linking sightings"): others suggest which cat a picture shows, and its
 * author accepts or declines. No answer here carries a place: a suggestion names a post and a cat.
 */
export const postCatSuggestionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireAuth);
  const deps: CatsDeps = { db: app.database.db, publicBase: app.config.S3_PUBLIC_URL };

  app.post(
    '/posts/:postId/cat-suggestions',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary:
          "Suggest which cat someone else's picture shows (one open suggestion per picture and person); " +
          'its author is told',
        params: postCatParamsSchema,
        body: suggestCatSchema,
        response: { 201: suggestCatResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const suggestion = await suggestions.suggestCat(
        deps,
        caller(request),
        request.params.postId,
        request.body.catId,
      );
      return reply.status(201).send({ message: suggestions.SUGGESTION_SENT_MESSAGE, suggestion });
    },
  );

  app.get(
    '/posts/:postId/cat-suggestions',
    {
      schema: {
        tags,
        security,
        summary: "The open suggestions of which cat the caller's own picture shows, oldest first",
        params: postCatParamsSchema,
        response: { 200: postCatSuggestionsResponseSchema, ...errors },
      },
    },
    async (request) => suggestions.listSuggestions(deps, caller(request), request.params.postId),
  );

  app.post(
    '/posts/:postId/cat-suggestions/:suggestionId/accept',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary:
          "Accept a suggestion (the picture's author): the picture is linked to the cat as " +
          'PUT /api/posts/{postId}/cat links it, and the suggester is told',
        params: catSuggestionParamsSchema,
        response: { 200: acceptCatSuggestionResponseSchema, ...errors },
      },
    },
    async (request) =>
      suggestions.acceptSuggestion(deps, caller(request), request.params.postId, request.params.suggestionId),
  );

  app.post(
    '/posts/:postId/cat-suggestions/:suggestionId/decline',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary: "Decline a suggestion (the picture's author); the picture stays as it is",
        params: catSuggestionParamsSchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) =>
      suggestions.declineSuggestion(
        deps,
        caller(request),
        request.params.postId,
        request.params.suggestionId,
      ),
  );
};
