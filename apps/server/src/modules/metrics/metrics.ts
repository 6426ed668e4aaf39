import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { RateLimitError } from '../../lib/http-errors.ts';
import { sendMessage } from '../../plugins/error-handler.ts';
import { imagePipelineLoad, onImageProcessed } from '../../media/image-pipeline.ts';

/**
 * Prometheus metrics (issue 29; docs/operations.md, "Metrics and health"; decision 021). Off unless
 * METRICS_TOKEN (GET /metrics on the main port with `Authorization: Bearer <token>`) or METRICS_PORT (a
 * second listener on 127.0.0.1 only) is set. Every app has its own Registry, so that several apps in one
 * process (the tests) never share or collide on a metric.
 *
 * Labels are bounded and say nothing about a person: a route is Fastify's template
 * (`/api/posts/:postId`), never the URL; a rate-limit refusal is the limit's fixed name. Gauges read
 * live values when scraped (collect()), so the services keep no counters of their own for this.
 */

export const METRICS_PATH = '/metrics';
/** prom-client's text exposition format, version 0.0.4. */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

export const METRICS_MESSAGES = {
  tokenRequired: 'Metrics need the bearer token set in METRICS_TOKEN',
} as const;

/** Requests that matched no route (the not-found answer, the web app's pages) share one label. */
const UNMATCHED_ROUTE = '(unmatched)';
/** The limits that name themselves (rate-limit.ts, auth.service.ts), shown at 0 before any refusal. */
const KNOWN_LIMITS = [
  'signup',
  'login',
  'login_account',
  'writes',
  'uploads',
  'reports',
  'missing_alerts',
  'other',
] as const;

const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const WAIT_BUCKETS = [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const IMAGE_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32];

/** Compares a bearer token with the configured one in constant time (equal-length digests). */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const equal = timingSafeEqual(digest(given ?? ''), digest(token));
  return given !== undefined && equal;
}

/** Builds this app's registry with every metric; `app` is read when scraped, not now. */
function createMetrics(app: FastifyInstance) {
  const registry = new Registry();
  // Process memory, CPU, handles, GC and event-loop lag (nodejs_eventloop_lag_*), as prom-client names them.
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'],
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'],
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'cats_rate_limit_refusals_total',
    help: 'Requests refused with 429, by the limit that refused them',
    labelNames: ['limit'],
    registers: [registry],
  });
  for (const limit of KNOWN_LIMITS) refusals.inc({ limit }, 0);

  const { database } = app;
  const kind = database.usage().kind;
  const stops: (() => void)[] = [];
  if (kind === 'postgres') {
    const pool = () => {
      const usage = database.usage();
      return usage.kind === 'postgres' ? usage : null;
    };
    new Gauge({
      name: 'cats_db_pool_connections',
      help: 'PostgreSQL pool connections open now, by state (idle, in use)',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const usage = pool();
        if (!usage) return;
        this.set({ state: 'idle' }, usage.idle);
        this.set({ state: 'in_use' }, usage.total - usage.idle);
      },
    });
    new Gauge({
      name: 'cats_db_pool_max_connections',
      help: 'The PostgreSQL pool size (DATABASE_POOL_SIZE)',
      registers: [registry],
      collect() {
        this.set(pool()?.max ?? 0);
      },
    });
    new Gauge({
      name: 'cats_db_pool_waiting',
      help: 'Queries and transactions waiting for a PostgreSQL pool connection now',
      registers: [registry],
      collect() {
        this.set(pool()?.waiting ?? 0);
      },
    });
    const wait = new Histogram({
      name: 'cats_db_pool_wait_seconds',
      help: 'Time waiting to check a connection out of the PostgreSQL pool',
      buckets: WAIT_BUCKETS,
      registers: [registry],
    });
    stops.push(database.onWait((seconds) => wait.observe(seconds)));
  } else {
    new Gauge({
      name: 'cats_db_embedded_in_flight',
      help: 'Requests sent to the embedded database thread (PGlite, one connection) and not answered yet',
      registers: [registry],
      collect() {
        const usage = database.usage();
        this.set(usage.kind === 'pglite' ? usage.inFlight : 0);
      },
    });
    const answered = new Histogram({
      name: 'cats_db_embedded_request_seconds',
      help: 'Time from sending a request to the embedded database thread to its answer (waiting included)',
      buckets: WAIT_BUCKETS,
      registers: [registry],
    });
    stops.push(database.onWait((seconds) => answered.observe(seconds)));
  }

  new Gauge({
    name: 'cats_image_queue_length',
    help: 'Uploaded images waiting for a processing slot (IMAGE_CONCURRENCY slots, shared by the process)',
    registers: [registry],
    collect() {
      this.set(imagePipelineLoad().pending);
    },
  });
  new Gauge({
    name: 'cats_image_processing',
    help: 'Images being processed now',
    registers: [registry],
    collect() {
      this.set(imagePipelineLoad().active);
    },
  });
  const imageWait = new Histogram({
    name: 'cats_image_queue_wait_seconds',
    help: 'Time an uploaded image waited for a processing slot',
    buckets: WAIT_BUCKETS,
    registers: [registry],
  });
  const imageWork = new Histogram({
    name: 'cats_image_processing_seconds',
    help: 'Time to check and re-encode one image into its variants (in its slot)',
    buckets: IMAGE_BUCKETS,
    registers: [registry],
  });
  stops.push(
    onImageProcessed(({ waitSeconds, processSeconds }) => {
      imageWait.observe(waitSeconds);
      imageWork.observe(processSeconds);
    }),
  );
  new Gauge({
    name: 'cats_uploads_in_transit',
    help: 'Uploads received into temporary files and not yet finished with',
    registers: [registry],
    collect() {
      this.set(app.uploads.inTransit);
    },
  });
  new Gauge({
    name: 'cats_notification_streams_open',
    help: 'Notification streams (server-sent events) open on this instance',
    registers: [registry],
    collect() {
      // Registered after this plugin (app.ts): present by the time anyone scrapes.
      this.set(app.hasDecorator('notificationStreams') ? app.notificationStreams.size : 0);
    },
  });
  new Gauge({
    name: 'cats_draining',
    help: '1 while the server drains before stopping (readiness answers 503), else 0',
    registers: [registry],
    collect() {
      this.set(app.readiness.draining ? 1 : 0);
    },
  });

  return { registry, requests, durations, refusals, stop: () => stops.forEach((stop) => stop()) };
}

/** The second listener (METRICS_PORT): /metrics only, on 127.0.0.1 only, no token. */
async function listenForScrapes(registry: Registry, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ message: 'Not found' }));
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ message: 'Internal Server Error' }));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1' }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the METRICS_PORT listener listens, or null without one (tests read the port). */
    metricsAddress(): AddressInfo | null;
  }
}

/**
 * Registered among the infrastructure plugins (app.ts), before every route, so its hooks see them all.
 * GET /metrics always exists on the main port: 404 when metrics are off there (rather than the web
 * app's page), 401 without the right token.
 */
export const metricsPlugin = fp(async (app: FastifyInstance) => {
  const { METRICS_TOKEN: token, METRICS_PORT: port } = app.config;
  const metrics = token || port ? createMetrics(app) : null;
  let listener: Server | null = null;
  app.decorate('metricsAddress', () => (listener?.address() as AddressInfo | null) ?? null);

  if (metrics) {
    app.addHook('onClose', async () => metrics.stop());
    /** Which limit refused a request: its RateLimitError passes through here before the error handler. */
    const refusedBy = new WeakMap<FastifyRequest, string>();
    app.addHook('onError', async (request, _reply, error) => {
      if (error instanceof RateLimitError) refusedBy.set(request, error.limit);
    });
    app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      // Scrapes are not counted: they would make up much of a quiet instance's traffic.
      if (route === METRICS_PATH) return;
      const labels = { method: request.method, route, status_code: reply.statusCode };
      metrics.requests.inc(labels);
      metrics.durations.observe(labels, reply.elapsedTime / 1000);
      if (reply.statusCode === 429) metrics.refusals.inc({ limit: refusedBy.get(request) ?? 'other' });
    });
    if (port) {
      app.addHook('onReady', async () => {
        listener = await listenForScrapes(metrics.registry, port);
      });
      app.addHook('onClose', async () => {
        const server = listener;
        if (!server) return;
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      });
    }
  }

  app.get(
    METRICS_PATH,
    // Not part of the JSON API: kept out of the OpenAPI document (and so out of the route suites).
    { schema: { hide: true } },
    async (request, reply) => {
      if (!metrics || !token) return sendMessage(request, reply, 404, 'Not found');
      if (!bearerMatches(request.headers.authorization, token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        return sendMessage(request, reply, 401, METRICS_MESSAGES.tokenRequired);
      }
      const text = await metrics.registry.metrics();
      return reply.header('cache-control', 'no-store').type(METRICS_CONTENT_TYPE).send(text);
    },
  );
});
