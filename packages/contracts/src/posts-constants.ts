// Constants and plain functions only: no zod here, so the web app can import them without loading
// the schema library (docs/performance.md). posts.ts re-exports them beside its schemas.

/** Widths every upload is re-encoded to (spec section 9, plus 1600 for high-density screens). */
export const IMAGE_WIDTHS = [64, 72, 300, 400, 800, 1600] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];
export const AVATAR_WIDTHS = [72, 300] as const;

export const ACCEPTED_IMAGE_TYPES = ['image/jpg', 'image/jpeg', 'image/png'] as const;
export const WRONG_FILE_TYPE_MESSAGE = 'Please check file is in jpg or png format';
export const MAX_UPLOAD_BYTES = 15 * 1024 * 1024;
export const MAX_UPLOAD_PIXELS = 40_000_000;
/**
 * Longest side of an upload, in pixels (issue 46). Decoding time grows with the rows, not only with the
 * pixels: a valid 1 x 39,000,000 PNG of 76 KB is under the pixel limit yet took 27 s to decode. Every
 * variant we serve is at most 1600 px, so WebP's own 16383 px limit does not bind; 20000 keeps a phone's
 * 40 MP panorama of about 8:1 (17900 x 2240) and is 20000 x 2000 at the aspect limit below, exactly
 * 40 MP. A 40 MP PNG of 20000 x 2000 or 2000 x 20000 decodes in ~0.6 s on one core of a busy 2-core machine.
 */
export const MAX_UPLOAD_SIDE = 20_000;
/**
 * How many times its short side an upload's long side may be. A phone's 360 degree panorama, about 8:1,
 * passes; a sliver a few pixels across, which shrinks to 1-pixel-wide variants and crops to a speck as a
 * profile picture, does not.
 */
export const MAX_UPLOAD_ASPECT_RATIO = 10;
export const CAPTION_MAX = 500;
export const CAT_NAME_MAX = 40;
export const COMMENT_MAX = 500;
/** Alt text: the photo described for people who cannot see it (issue 24). */
export const ALT_TEXT_MAX = 1500;
export const FEED_PAGE_SIZE = 20;
/** Comments per page of a post's comments (issue 24: the newest 20, then 'Show earlier comments'). */
export const COMMENTS_PAGE_SIZE = 20;
/** Users per page of a post's 'Liked by' list. */
export const LIKERS_PAGE_SIZE = 20;

/** Valid coordinates, in degrees: latitudeSchema, longitudeSchema (posts.ts) and isCoordinate use them. */
export const LATITUDE_LIMIT = 90;
export const LONGITUDE_LIMIT = 180;
/**
 * The two schemas' rule without zod, for the browser: a screen that only checks a photo's GPS tags
 * should not download the schema library (issue 8's JavaScript budgets; docs/performance.md).
 */
export function isCoordinate(value: unknown, axis: 'latitude' | 'longitude'): value is number {
  const limit = axis === 'latitude' ? LATITUDE_LIMIT : LONGITUDE_LIMIT;
  return typeof value === 'number' && Number.isFinite(value) && value >= -limit && value <= limit;
}

/** Days a deleted post stays in its owner's trash before the daily sweep purges it (issue 24). */
export const TRASH_DAYS = 30;
/** The trash lists at most this many posts, newest deletion first. */
export const TRASH_LIST_MAX = 500;

export const TRASH_MESSAGES = {
  postNotFound: 'Post not found',
  notOwner: 'You can only delete your own pictures',
  notInTrash: 'This picture is not in your trash',
  moved: 'Moved to the trash',
  restored: 'Picture restored',
} as const;

export const EDIT_MESSAGES = {
  postNotFound: 'Post not found',
  notOwner: 'You can only edit your own pictures',
  nothingToChange: 'Send a caption, a cat name, a description or a location to change',
  /** Both coordinates, or both null to remove the location: never half a place. */
  locationPair: 'Send latitude and longitude together, or both as null to remove the location',
  edited: 'Picture updated',
} as const;

/**
 * Control characters other than tab and line breaks. Captions and comments keep their lines (the web shows
 * them as text with white-space: pre-line); the rest (NUL, which PostgreSQL text cannot hold, terminal
 * escapes, bells) has no place in them and is refused.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNWANTED_CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
export const hasUnwantedControls = (text: string): boolean => UNWANTED_CONTROLS.test(text);

/**
 * Issue 28: createPost takes an optional Idempotency-Key header (as Stripe's and the IETF httpapi draft's),
 * so a sighting queued offline and sent again after a lost answer never makes two posts. A key is the
 * client's opaque string (the web app sends a random UUID per sighting), kept per user for this long.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set to "true" on an answer that replays the post an earlier request with the same key created. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;
export const IDEMPOTENCY_KEY_MAX = 255;
/** 1 to 255 printable ASCII characters (space to tilde). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

export const IDEMPOTENCY_MESSAGES = {
  invalid: 'The Idempotency-Key header must be 1 to 255 printable ASCII characters',
  trashed:
    'This picture was already sent with this Idempotency-Key and has since been deleted: it is in your trash.',
  unavailable: 'This picture was already sent with this Idempotency-Key but can no longer be shown.',
  mismatch:
    'This Idempotency-Key was already used for a different picture. Send a new picture with a new key.',
} as const;
