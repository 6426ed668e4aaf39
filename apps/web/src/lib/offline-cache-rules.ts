/**
 * What the service worker (apps/web/sw/sw.ts) keeps for offline use, shared with the page, which
 * empties the per-person caches at logout (lib/session.ts). Kept free of browser globals so that the
 * worker, the page and unit tests can all use it. docs/decisions/016-service-worker-caching.md says why.
 */

/** Answers of the API that are one person's: the feed, profiles, posts, cats. Emptied at logout. */
export const API_CACHE = 'cats-api-v1';
/** Photos and avatars: public, immutable URLs (the server sends them with a year's max-age). */
export const MEDIA_CACHE = 'cats-media-v1';
/** A photo shared to the app from another app (Web Share Target), until Spot picks it up. */
export const SHARED_PHOTO_CACHE = 'cats-shared-photo-v1';

/** Where Android's share sheet posts the photo (the manifest's share_target.action). */
export const SHARE_TARGET_PATH = '/share-target';
/** The form field the manifest names for the shared file. */
export const SHARE_TARGET_FIELD = 'photo';
/** Spot with a shared photo waiting: the service worker redirects here. */
export const SHARED_SPOT_URL = '/spot?shared=1';
/** The key under which the shared photo waits in SHARED_PHOTO_CACHE. */
export const SHARED_PHOTO_KEY = '/shared-photo';

/**
 * The reading requests worth having offline: the pages a person last saw (feed, profiles, post pages
 * with their comments, cat pages). An allow-list: anything else, and above all the session's routes
 * (/api/login, /api/refresh, /api/logout), the notification stream and data exports, always goes to
 * the network, and so does every request that is not a GET.
 */
const CACHED_API = [
  /^\/api\/feed\/\d+$/,
  /^\/api\/posts\/getComments\/[^/]+$/,
  /^\/api\/posts\/[^/]+$/,
  /^\/api\/profile\/getMyProfile$/,
  /^\/api\/profile\/getUserProfile\/[^/]+$/,
  /^\/api\/profile\/getPosts\/$/,
  /^\/api\/cats\/missing$/,
  /^\/api\/cats\/[^/]+(\/sightings)?$/,
];

/** Paths that are never cached, even should an allow-list entry above grow to match them. */
const NEVER_CACHED = [/^\/api\/(login|signup|refresh|logout)(\/|$)/, /^\/api\/notifications\/stream/];

export function isCachedApiRequest(method: string, url: URL, origin: string): boolean {
  if (method !== 'GET' || url.origin !== origin) return false;
  if (NEVER_CACHED.some((re) => re.test(url.pathname))) return false;
  return CACHED_API.some((re) => re.test(url.pathname));
}

/** Uploaded images served by the app itself (/media/...). Images on an S3 host are left to the browser. */
export function isCachedMediaRequest(method: string, url: URL, origin: string): boolean {
  return method === 'GET' && url.origin === origin && url.pathname.startsWith('/media/');
}
