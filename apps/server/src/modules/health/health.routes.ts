import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  healthResponseSchema,
  healthUnavailableSchema,
  readinessResponseSchema,
  readinessUnavailableSchema,
} from '@cats/contracts';
import { readinessText } from './readiness.ts';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and database reachability',
        response: { 200: healthResponseSchema, 503: healthUnavailableSchema },
      },
    },
    async (request, reply) => {
      try {
        await app.database.ping();
        return { status: 'ok' as const };
      } catch (err) {
        request.log.warn({ err }, 'health check: database unreachable');
        return reply.status(503).send({ status: 'unavailable' as const, message: 'Database unavailable' });
      }
    },
  );

  // Issue 29: what a load balancer asks before sending traffic. Never cached: it changes by the second.
  app.get(
    '/health/ready',
    {
      schema: {
        tags: ['health'],
        summary:
          'Readiness: the database, the media storage and Redis (when configured) answer, and the server ' +
          'is not draining before a stop (503 then)',
        response: { 200: readinessResponseSchema, 503: readinessUnavailableSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (app.readiness.draining) {
        return reply
          .status(503)
          .send({ status: 'draining' as const, message: readinessText.draining, checks: {} });
      }
      const { checks, failed } = await app.readiness.check(request.log);
      if (failed.length > 0) {
        return reply
          .status(503)
          .send({ status: 'unavailable' as const, message: readinessText.notReady(failed), checks });
      }
      return { status: 'ready' as const, checks };
    },
  );
};
