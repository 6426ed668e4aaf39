import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import rateLimit, { type RateLimitOptions, type RateLimitPluginOptions } from '@fastify/rate-limit';
import { AUTH_MESSAGES } from '@cats/contracts';
import type { Config } from '../../config.ts';
import { RateLimitError } from '../../lib/http-errors.ts';
import { sharedRedis } from '../../lib/redis.ts';

/**
 * Where the counters live: process memory for one instance, Redis when REDIS_URL is set so that every
 * instance behind a load balancer counts against the same limit (buildApp acquires the client and closes
 * it on shutdown). The per-account login throttle lives in the database, so it is shared either way.
 */
export function rateLimitStore(
  config: Config,
  nameSpace = 'cats-rate-',
): Pick<RateLimitPluginOptions, 'redis' | 'nameSpace'> {
  if (!config.REDIS_URL) return {};
  return { redis: sharedRedis(config.REDIS_URL), nameSpace };
}

/**
 * The refusal of the limit named `limit` (the metrics count refusals by that name): {message} with
 * status 429 through our error handler; Retry-After is already set.
 */
const refusal = (limit: string) => () => new RateLimitError(limit, AUTH_MESSAGES.tooManyRequests);

export function rateLimitPluginOptions(
  config: Config,
  nameSpace?: string,
  limit = 'other',
): RateLimitPluginOptions {
  return {
    ...rateLimitStore(config, nameSpace),
    // Only the routes that ask for a limit (config.rateLimit) get one.
    global: false,
    // Redis unreachable: serve rather than refuse everyone; the database-backed login throttle still holds.
    skipOnError: true,
    errorResponseBuilder: refusal(limit),
  };
}

/** A route's own limit; `limit` names it in the metrics (`signup`, `login`). */
export const perMinute = (max: number, limit?: string): RateLimitOptions => ({
  max,
  timeWindow: 60_000,
  ...(limit ? { errorResponseBuilder: refusal(limit) } : {}),
});

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Writes count per signed-in user (from the token, set by requireAuth), else per client address. */
const perUserKey = (request: FastifyRequest) =>
  request.auth ? `user:${request.auth.userId}` : `ip:${request.ip}`;

const isWrite = (route: RouteOptions) =>
  (Array.isArray(route.method) ? route.method : [route.method]).some((m) => WRITE_METHODS.has(m));

const isUpload = (route: RouteOptions) =>
  ((route.schema as { consumes?: string[] } | undefined)?.consumes ?? []).includes('multipart/form-data');

/** One limiter with its own counters; registered in its own scope so it attaches to no route by itself. */
async function createLimiter(app: FastifyInstance, config: Config, name: string, max: number) {
  let handler: ReturnType<FastifyInstance['rateLimit']> | undefined;
  await app.register(async (scope) => {
    await scope.register(rateLimit, {
      ...rateLimitPluginOptions(config, `cats-${name}-`, name),
      ...perMinute(max),
      keyGenerator: perUserKey,
    });
    handler = scope.rateLimit();
  });
  if (!handler) throw new Error(`rate limiter ${name} was not created`);
  return handler;
}

/**
 * Per-user limits on every write under /api (RATE_LIMIT_WRITES_PER_MINUTE) and, on top, on uploads
 * (RATE_LIMIT_UPLOADS_PER_MINUTE): 429 {message} with Retry-After. Register before the feature modules:
 * the limiters join each write route's onRequest hooks after the route's own (authentication first, so
 * the key is the user), and before the body is read (a refused upload costs no bytes). Routes with
 * their own limit (sign-up, login) keep only theirs.
 */
export const writeRateLimitPlugin = fp(async (app: FastifyInstance, opts: { config: Config }) => {
  const { config } = opts;
  const writes = await createLimiter(app, config, 'writes', config.RATE_LIMIT_WRITES_PER_MINUTE);
  const uploads = await createLimiter(app, config, 'uploads', config.RATE_LIMIT_UPLOADS_PER_MINUTE);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || !isWrite(route)) return;
    if (route.config && 'rateLimit' in route.config) return;
    const limiters = isUpload(route) ? [writes, uploads] : [writes];
    const own = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    route.onRequest = [...own, ...limiters] as RouteOptions['onRequest'];
  });
});
