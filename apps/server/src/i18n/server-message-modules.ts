// The server modules that export English {message} texts of their own (beside those of the contracts).
// english-messages.test.ts also greps the source, so a module missing here is found.
export * as errorHandler from '../plugins/error-handler.ts';
export * as social from '../modules/social/social.service.ts';
export * as profiles from '../modules/profiles/profiles.service.ts';
export * as postView from '../modules/posts/post-view.ts';
export * as posts from '../modules/posts/posts.service.ts';
export * as postRoutes from '../modules/posts/posts.routes.ts';
export * as dataExport from '../modules/data-export/data-export.service.ts';
export * as notificationStreamRoutes from '../modules/notifications/notification-stream.routes.ts';
export * as notifications from '../modules/notifications/notifications.service.ts';
export * as push from '../modules/push/push.service.ts';
export * as uploadSpool from '../media/upload-spool.ts';
export * as imagePipeline from '../media/image-pipeline.ts';
export * as cats from '../modules/cats/cats.service.ts';
export * as catMerges from '../modules/cats/cat-merges.service.ts';
export * as postCatSuggestions from '../modules/cats/post-cat-suggestions.service.ts';
export * as notificationStreams from '../modules/notifications/notification-streams.ts';
export * as metrics from '../modules/metrics/metrics.ts';
