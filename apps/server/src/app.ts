import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { MAX_UPLOAD_BYTES } from '@cats/contracts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { MediaStorage } from './media/storage.ts';
import { deferDeletionsDuringBackups } from './modules/backup/deferred-deletions.ts';
import { UploadSpool } from './media/upload-spool.ts';
import { acquireRedis, redisReady, releaseRedis } from './lib/redis.ts';
import { errorHandlerPlugin } from './plugins/error-handler.ts';
import { createResponseSerializerCompiler } from './plugins/response-serializer.ts';
import { OneLinePerRequest } from './plugins/request-log.ts';
import { authPlugin } from './plugins/auth.ts';
import { embeddedUpkeepPlugin } from './plugins/embedded-upkeep.ts';
import { idleGcPlugin } from './plugins/idle-gc.ts';
import { openApiPlugin } from './plugins/openapi.ts';
import { privateAnswersPlugin } from './plugins/private-answers.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { webPlugin } from './plugins/web.ts';
import { eventsPlugin } from './events/events.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { readinessPlugin } from './modules/health/readiness.ts';
import { metricsPlugin } from './modules/metrics/metrics.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { writeRateLimitPlugin } from './modules/auth/rate-limit.ts';
import { accountRoutes } from './modules/account/account.routes.ts';
import { mailPlugin } from './modules/mail/mail-plugin.ts';
import { passwordResetRoutes } from './modules/password-reset/password-reset.routes.ts';
import { emailChangeRoutes } from './modules/email-change/email-change.routes.ts';
import { mediaRoutes } from './modules/posts/media.routes.ts';
import { postsRoutes } from './modules/posts/posts.routes.ts';
import { postPreviewTags, publicOrigin } from './modules/posts/post-preview.ts';
import { trashSweepPlugin } from './modules/posts/trash-sweep.ts';
import { socialRoutes } from './modules/social/social.routes.ts';
import { profilesRoutes } from './modules/profiles/profiles.routes.ts';
import { exploreRoutes } from './modules/explore/explore.routes.ts';
import { groupsRoutes } from './modules/groups/groups.routes.ts';
import { catsRoutes } from './modules/cats/cats.routes.ts';
import { catForNewPost } from './modules/cats/cats.service.ts';
import { missingRoutes } from './modules/cats/missing/missing.routes.ts';
import { catMergesRoutes } from './modules/cats/cat-merges.routes.ts';
import { postCatSuggestionsRoutes } from './modules/cats/post-cat-suggestions.routes.ts';
import { dataExportRoutes } from './modules/data-export/data-export.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { notificationEventsPlugin } from './modules/notifications/notification-events.ts';
import { notificationSubscriptionsPlugin } from './modules/notifications/notification-subscriptions.ts';
import { pushRoutes } from './modules/push/push.routes.ts';
import { webPushPlugin } from './modules/push/web-push.ts';
import { notificationStreamsPlugin } from './modules/notifications/notification-streams.ts';
import { notificationStreamRoutes } from './modules/notifications/notification-stream.routes.ts';
import { reportsRoutes } from './modules/moderation/reports.routes.ts';
import { moderationActionsRoutes } from './modules/moderation/moderation-actions.routes.ts';
import { suspensionSweepPlugin } from './modules/suspensions/suspensions.ts';
import { moderationQueueRoutes } from './modules/moderation/moderation-queue.routes.ts';
import { staffRoutes } from './modules/moderation/staff.routes.ts';
import { appealsRoutes } from './modules/moderation/appeals.routes.ts';
import { suspendedAccountAppeals } from './modules/moderation/appeals.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    storage: MediaStorage;
    /** Temporary files of uploads in transit (removed when the app closes). */
    uploads: UploadSpool;
  }
}

export interface AppDependencies {
  config: Config;
  database: DatabaseHandle;
  storage: MediaStorage;
  jwtSecret: string;
  /** Built web app to serve; null serves the API only. */
  webDistDir: string | null;
  logger?: FastifyServerOptions['logger'];
  /** Between two heartbeats of a notification stream (tests); NOTIFICATION_HEARTBEAT_SECONDS otherwise. */
  streamHeartbeatMs?: number;
}

/** A safe incoming request id is kept (a load balancer's), anything else is replaced. */
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: deps.logger ?? false,
    logController: new OneLinePerRequest(),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // genReqId reads x-request-id itself so that an unsafe value is replaced, not echoed.
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(
    createResponseSerializerCompiler({ crossCheck: config.NODE_ENV !== 'production' }),
  );
  app.decorate('config', config);
  app.decorate('database', deps.database);
  // Media deletions wait while a backup runs (modules/backup/deferred-deletions.ts).
  app.decorate('storage', deferDeletionsDuringBackups(deps.storage, deps.database.db));
  const uploads = await UploadSpool.open();
  app.decorate('uploads', uploads);
  app.addHook('onClose', () => uploads.close());
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // 1. Infrastructure: errors first so every later plugin's failures answer {message}; then parsers.
  await app.register(errorHandlerPlugin);
  // Readiness and its drain (server.ts), then metrics (issue 29): their hooks must see every route, and
  // the metrics read the readiness.
  await app.register(readinessPlugin);
  await app.register(metricsPlugin);
  await app.register(securityHeadersPlugin);
  // JSON answers go compressed to clients that ask (a feed page: ~29 KB, ~5 KB as brotli; it matters on
  // phone networks). Quality 4: cheap on the CPU. The web build's files come pre-compressed (web.ts).
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(cookie);
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, fieldSize: 64 * 1024 },
  });
  await app.register(openApiPlugin);
  await app.register(idleGcPlugin);
  await app.register(embeddedUpkeepPlugin);

  // 2. App services shared by the feature modules. Redis (when configured) holds what instances share.
  if (config.REDIS_URL) {
    const redisUrl = config.REDIS_URL;
    app.addHook('onClose', () => releaseRedis(redisUrl));
    await redisReady(await acquireRedis(redisUrl));
  }
  await app.register(authPlugin, { secret: deps.jwtSecret });
  // Mail (SMTP, or DATA_DIR/outbox): password resets and email changes send after their answer.
  await app.register(mailPlugin);
  // Signed-in answers are never cached: needs request.auth, which requireAuth sets.
  await app.register(privateAnswersPlugin);
  // Before the routes: it attaches per-user write and upload limits to each write route as it is added.
  await app.register(writeRateLimitPlugin, { config });
  // Needs the database and storage only; it starts once the app is ready and stops before they close.
  await app.register(trashSweepPlugin);
  // Lifts ended suspensions every minute (issue 27); as the trash sweep, needs the database only.
  await app.register(suspensionSweepPlugin);
  // The in-process events one module emits and another reacts to (issue 47), and their subscribers:
  // before the routes that emit them.
  await app.register(eventsPlugin);
  await app.register(notificationSubscriptionsPlugin);
  // One database listener per instance for notifications (issue 25), which the stream and push share.
  await app.register(notificationEventsPlugin);
  // Web Push listens to those events: after them.
  await app.register(webPushPlugin);
  // The open notification streams of this instance, fed by that listener.
  await app.register(notificationStreamsPlugin, { heartbeatMs: deps.streamHeartbeatMs });

  // 3. Feature modules, all under /api; media is served beside them.
  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      // A suspended account's appeals are moderation's; auth serves them and moderation builds on auth,
      // so they are handed in here rather than imported (docs/architecture.md, issue 47).
      await api.register(authRoutes, {
        appeals: suspendedAccountAppeals({
          db: deps.database.db,
          publicBase: config.S3_PUBLIC_URL,
          events: app.events,
        }),
      });
      await api.register(accountRoutes);
      await api.register(passwordResetRoutes);
      await api.register(emailChangeRoutes);
      // Which cat a new post may name is the cats module's rule; cats builds on posts (the same reason).
      await api.register(postsRoutes, { catLinks: { catForNewPost } });
      await api.register(socialRoutes);
      await api.register(profilesRoutes);
      await api.register(exploreRoutes);
      await api.register(groupsRoutes);
      await api.register(catsRoutes);
      await api.register(missingRoutes);
      await api.register(postCatSuggestionsRoutes);
      await api.register(catMergesRoutes);
      await api.register(dataExportRoutes);
      await api.register(notificationsRoutes);
      await api.register(pushRoutes);
      await api.register(notificationStreamRoutes);
      await api.register(reportsRoutes);
      await api.register(moderationActionsRoutes);
      await api.register(moderationQueueRoutes);
      await api.register(staffRoutes);
      await api.register(appealsRoutes);
    },
    { prefix: '/api' },
  );
  await app.register(mediaRoutes);

  // 4. Last: the web app and the not-found answer for everything else. A post's page carries its link
  // preview tags (issue 24).
  await app.register(webPlugin, {
    distDir: deps.webDistDir,
    pages: [
      {
        url: '/posts/:postId',
        head: (request) =>
          postPreviewTags(app.database.db, (request.params as { postId: string }).postId, {
            publicBase: config.S3_PUBLIC_URL,
            origin: publicOrigin(config.PUBLIC_URL),
          }),
      },
    ],
  });
  return app;
}
