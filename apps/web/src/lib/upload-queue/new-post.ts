import { IDEMPOTENCY_KEY_HEADER, type Post } from '@cats/contracts';
import { apiUpload } from '../api-client.ts';

/** What the Spot form sends: kept here, beside the upload queue that sends it later too (issue 28). */
export interface NewPost {
  image: Blob;
  catName: string;
  comment: string;
  /** The photo described for people who cannot see it; empty for none. */
  altText: string;
  /** Sent only when both are numbers and the switch is on (spec section 5). */
  coordinates: { latitude: number; longitude: number } | null;
  showLocation: boolean;
  exifData: Record<string, unknown>;
  groupIds: string[];
  /** The cat the picture shows, chosen in 'Which cat is this?' (issue 26); null for none. */
  catId: string | null;
}

/**
 * A coordinate as the plain decimal the server accepts (it refuses `1e-7`, `0x10` and the like: issue
 * 23). String() writes numbers under 1e-6 with an exponent; 7 decimals are ~1 cm.
 */
export function decimalText(value: number): string {
  return value.toFixed(7).replace(/\.?0+$/, '');
}

export function toFormData(post: NewPost): FormData {
  const form = new FormData();
  // Fields first: the server reads them before the file streams in.
  form.append('catName', post.catName.trim());
  form.append('comment', post.comment.trim());
  form.append('altText', post.altText.trim());
  form.append('latitude', post.coordinates ? decimalText(post.coordinates.latitude) : '');
  form.append('longitude', post.coordinates ? decimalText(post.coordinates.longitude) : '');
  form.append('showLocation', String(post.coordinates !== null && post.showLocation));
  form.append('exifData', JSON.stringify(post.exifData));
  if (post.groupIds.length > 0) form.append('groupIds', JSON.stringify(post.groupIds));
  if (post.catId) form.append('catId', post.catId);
  form.append('file', post.image, 'cat.jpg');
  return form;
}

/**
 * POST /api/posts/createPost with the sighting's idempotency key: sent again after a lost answer, the
 * server answers with the post the first request made instead of making a second one.
 */
export const sendPost = (post: NewPost, idempotencyKey: string, onProgress: (fraction: number) => void) =>
  apiUpload<{ message: string; post: Post }>('/api/posts/createPost', toFormData(post), {
    onProgress,
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });

/** A new key per sighting. randomUUID needs a secure context; a page over plain http gets 128 random bits. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}
