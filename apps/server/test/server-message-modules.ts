// The server modules that export English {message} texts of their own (beside those of the contracts),
// for src/i18n/server-messages.test.ts. A test helper, not a part of i18n: the lower layers import no
// module (issue 47). english-messages.test.ts also greps the source, so a module missing here is found.
export * as errorHandler from '../src/plugins/error-handler.ts';
export * as social from '../src/modules/social/social.service.ts';
export * as profiles from '../src/modules/profiles/profiles.service.ts';
export * as postView from '../src/modules/posts/post-view.ts';
export * as posts from '../src/modules/posts/posts.service.ts';
export * as postRoutes from '../src/modules/posts/posts.routes.ts';
export * as dataExport from '../src/modules/data-export/data-export.service.ts';
export * as notificationStreamRoutes from '../src/modules/notifications/notification-stream.routes.ts';
export * as notifications from '../src/modules/notifications/notifications.service.ts';
export * as push from '../src/modules/push/push.service.ts';
export * as uploadSpool from '../src/media/upload-spool.ts';
export * as imagePipeline from '../src/media/image-pipeline.ts';
export * as cats from '../src/modules/cats/cats.service.ts';
export * as catMerges from '../src/modules/cats/cat-merges.service.ts';
export * as postCatSuggestions from '../src/modules/cats/post-cat-suggestions.service.ts';
export * as notificationStreams from '../src/modules/notifications/notification-streams.ts';
export * as metrics from '../src/modules/metrics/metrics.ts';
