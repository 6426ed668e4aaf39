import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  EXPLORE_ALL_MAX,
  clusterPostsParamsSchema,
  errorResponseSchema,
  explorePostsQuerySchema,
  explorePostsResponseSchema,
  exploreQuerySchema,
  exploreResponseSchema,
  mapConfigResponseSchema,
} from '@cats/contracts';
import { caller, requireAuth } from '../../plugins/auth.ts';
import { allMapPosts, clusterPosts, mapPostsById, viewportMap, type ExploreDeps } from './explore.service.ts';
import { MapStore } from './map-store.ts';

const security = [{ bearer: [] }];
const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema };

export const exploreRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps: ExploreDeps = {
    db: app.database.db,
    store: new MapStore(app.database.db),
    publicBase: app.config.S3_PUBLIC_URL,
  };
  // Load the map index in the background at start, so the first visitor does not wait for it.
  app.addHook('onReady', async () => {
    deps.store.current().catch((err: unknown) => app.log.warn({ err }, 'explore: map index warm-up failed'));
  });

  app.get(
    '/explore',
    {
      onRequest: [requireAuth],
      schema: {
        tags: ['explore'],
        summary: "The map of spotted cats: every post on the viewer's map, or one viewport's clusters",
        description:
          "Without parameters (the spec's call): {posts}, the posts whose location the viewer may see " +
          '(location switch on, valid coordinates, not hidden, no block either way), newest first, at most ' +
          `${EXPLORE_ALL_MAX}. With west, south, east, north (degrees) and zoom: {markers, clusters} for that ` +
          'viewport, where markers are the posts standing alone at that zoom (position, 64 px picture, ' +
          'cat name and author; the card loads the post from /api/explore/posts). Positions are the ' +
          '~500 m grid-cell centre unless the viewer owns the post or the owner chose exact public locations.',
        querystring: exploreQuerySchema,
        security,
        response: { 200: exploreResponseSchema, ...errors },
      },
    },
    async (request) => {
      const viewer = caller(request);
      const { west, south, east, north, zoom } = request.query;
      if (
        west === undefined ||
        south === undefined ||
        east === undefined ||
        north === undefined ||
        zoom === undefined
      ) {
        return { posts: await allMapPosts(deps, viewer) };
      }
      return viewportMap(deps, viewer, { west, south, east, north, zoom });
    },
  );

  app.get(
    '/explore/posts',
    {
      onRequest: [requireAuth],
      schema: {
        tags: ['explore'],
        summary: "Posts of the viewer's map by id (a marker's detail card, or a stack's)",
        description:
          "ids: comma-separated post ids, at most 50. Returns those on the viewer's map, newest first; " +
          'unknown, hidden, blocked or unlocated ones are left out.',
        querystring: explorePostsQuerySchema,
        security,
        response: { 200: explorePostsResponseSchema, ...errors },
      },
    },
    async (request) => {
      return { posts: await mapPostsById(deps, caller(request), request.query.ids) };
    },
  );

  app.get(
    '/explore/clusters/:clusterId/posts',
    {
      onRequest: [requireAuth],
      schema: {
        tags: ['explore'],
        summary: "The posts of a cluster of the viewer's map, newest first (at most 50)",
        description:
          'For a cluster whose expansionZoom is above the maximum zoom: its posts share one spot, so ' +
          'zooming in cannot show them apart. An id this server could not have produced answers 404.',
        params: clusterPostsParamsSchema,
        security,
        response: { 200: explorePostsResponseSchema, ...errors, 404: errorResponseSchema },
      },
    },
    async (request) => {
      return { posts: await clusterPosts(deps, caller(request), request.params.clusterId) };
    },
  );

  app.get(
    '/config/map',
    {
      schema: {
        tags: ['explore'],
        summary: 'Where the map tiles come from (public)',
        response: { 200: mapConfigResponseSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return { tileUrl: app.config.MAP_TILE_URL, attribution: app.config.MAP_TILE_ATTRIBUTION };
    },
  );
};
