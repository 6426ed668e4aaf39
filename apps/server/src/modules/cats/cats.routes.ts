import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CAT_MAP_POINTS_MAX,
  CAT_SUGGESTION_DAYS,
  CAT_SUGGESTION_LIMIT,
  CAT_SUGGESTION_METRES,
  caretakersResponseSchema,
  catMapResponseSchema,
  catParamsSchema,
  catResponseSchema,
  catSightingsQuerySchema,
  catSightingsResponseSchema,
  catSuggestionsQuerySchema,
  catSuggestionsResponseSchema,
  catsQuerySchema,
  catsResponseSchema,
  catUserParamsSchema,
  createCatResponseSchema,
  createCatSchema,
  errorResponseSchema,
  followCatResponseSchema,
  linkPostCatResponseSchema,
  linkPostCatSchema,
  postCatParamsSchema,
  updateCatSchema,
} from '@cats/contracts';
import { assertNotDemo, caller, requireAuth } from '../../plugins/auth.ts';
import { CatsNearStore } from './cats-near-store.ts';
import * as cats from './cats.service.ts';
import { listCats } from './cats-list.service.ts';
import { listSightings, sightingsMap } from './cat-sightings.service.ts';
import { suggestCats } from './cat-suggestions.service.ts';

const security = [{ bearer: [] }];
const tags = ['cats'];
const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
};

/** The demo account browses cats but changes nothing (spec section 6; issue 26), before the body is read. */
async function refuseDemo(request: FastifyRequest) {
  assertNotDemo(request);
}

/**
 * Cat profiles (issue 26): create, read, edit, search; suggestions for Spot; a cat's sightings and
 * their map; linking a post to a cat; following; caretakers. Every place of a sighting in these answers goes through
 * cat-place.ts (the location rule, and a household cat's home kept out).
 */
export const catsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireAuth);
  const deps: cats.CatsDeps = {
    db: app.database.db,
    publicBase: app.config.S3_PUBLIC_URL,
    nearStore: new CatsNearStore(app.database.db),
  };
  // Load the near list's places in the background at start, so the first caller does not wait for them.
  app.addHook('onReady', async () => {
    deps.nearStore
      ?.current()
      .catch((err: unknown) => app.log.warn({ err }, 'cats: near list warm-up failed'));
  });

  app.post(
    '/cats',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary:
          "Create a cat's profile; the caller becomes its first caretaker. postId: one of the caller's own " +
          'posts, linked to the cat and made its cover',
        body: createCatSchema,
        response: { 201: createCatResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const cat = await cats.createCat(deps, caller(request), request.body);
      return reply.status(201).send({ message: cats.CAT_CREATED_MESSAGE, cat });
    },
  );

  app.get(
    '/cats',
    {
      schema: {
        tags,
        security,
        summary:
          'Cats by name (q: case-insensitive, names starting with it first), nearest first to near=lat,lng ' +
          "(by the newest sighting's place as the caller may see it) or else newest sighting first; paged by " +
          'cursor; caredFor=true: only the cats the caller cares for. Merged profiles are not listed',
        querystring: catsQuerySchema,
        response: { 200: catsResponseSchema, ...errors },
      },
    },
    async (request) => listCats(deps, caller(request), request.query),
  );

  app.get(
    '/cats/suggestions',
    {
      schema: {
        tags,
        security,
        summary:
          `'Which cat is this?' on Spot: at most ${CAT_SUGGESTION_LIMIT} cats seen within ${CAT_SUGGESTION_METRES} m ` +
          `of near=lat,lng in the last ${CAT_SUGGESTION_DAYS} days, nearest first, then the most recently seen. ` +
          'Only sightings the caller may see count, each measured from the place the caller may see ' +
          '(its ~500 m cell for most; none when its location is off), never from the exact spot',
        querystring: catSuggestionsQuerySchema,
        response: { 200: catSuggestionsResponseSchema, ...errors },
      },
    },
    async (request) => suggestCats(deps, caller(request), request.query.near),
  );

  app.get(
    '/cats/:catId',
    {
      schema: {
        tags,
        security,
        summary:
          "A cat's profile: last seen, sightings this week, caretakers; the home point for caretakers only. " +
          "A merged cat's id answers with the cat it was merged into, and mergedInto names it",
        params: catParamsSchema,
        response: { 200: catResponseSchema, ...errors },
      },
    },
    async (request) => cats.getCatAnswer(deps, caller(request), request.params.catId),
  );

  app.patch(
    '/cats/:catId',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary:
          "Change a cat's profile (caretakers): coverPostId must be one of its sightings; home: the home " +
          'point, or null to forget it',
        params: catParamsSchema,
        body: updateCatSchema,
        response: { 200: catResponseSchema, ...errors },
      },
    },
    async (request) => ({
      cat: await cats.updateCat(deps, caller(request), request.params.catId, request.body),
    }),
  );

  app.get(
    '/cats/:catId/sightings',
    {
      schema: {
        tags,
        security,
        summary: "A cat's sightings the caller may see, newest first, in the feed's shape; paged by cursor",
        params: catParamsSchema,
        querystring: catSightingsQuerySchema,
        response: { 200: catSightingsResponseSchema, ...errors },
      },
    },
    async (request) => listSightings(deps, caller(request), request.params.catId, request.query.cursor),
  );

  app.get(
    '/cats/:catId/map',
    {
      schema: {
        tags,
        security,
        summary:
          `Where the caller may place a cat's newest sightings (at most ${CAT_MAP_POINTS_MAX}), each as ` +
          'precisely as its post, and not near a household cat’s home unless they care for it',
        params: catParamsSchema,
        response: { 200: catMapResponseSchema, ...errors },
      },
    },
    async (request) => sightingsMap(deps, caller(request), request.params.catId),
  );

  app.put(
    '/posts/:postId/cat',
    {
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary: 'Say which cat a post shows (its author only), or none (catId: null)',
        params: postCatParamsSchema,
        body: linkPostCatSchema,
        response: { 200: linkPostCatResponseSchema, ...errors },
      },
    },
    async (request) => cats.linkPostToCat(deps, caller(request), request.params.postId, request.body.catId),
  );

  for (const method of ['PUT', 'DELETE'] as const) {
    app.route({
      method,
      url: '/cats/:catId/follow',
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary: method === 'PUT' ? 'Follow a cat' : 'Stop following a cat',
        params: catParamsSchema,
        response: { 200: followCatResponseSchema, ...errors },
      },
      handler: async (request) =>
        cats.setFollowing(deps, caller(request), request.params.catId, method === 'PUT'),
    });

    app.route({
      method,
      url: '/cats/:catId/caretakers/:userId',
      onRequest: refuseDemo,
      schema: {
        tags,
        security,
        summary:
          method === 'PUT'
            ? 'Add a caretaker (caretakers only)'
            : 'Remove a caretaker (caretakers only; a cat keeps at least one)',
        params: catUserParamsSchema,
        response: { 200: caretakersResponseSchema, ...errors, 409: errorResponseSchema },
      },
      handler: async (request) =>
        cats.changeCaretaker(
          deps,
          caller(request),
          request.params.catId,
          request.params.userId,
          method === 'PUT',
        ),
    });
  }
};
