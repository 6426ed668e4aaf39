import type { Readable } from 'node:stream';

/**
 * Where image variants live. Keys are paths such as `posts/<random hex>/800.webp`, a new prefix for
 * every upload (newMediaPrefix), so an object never changes once written and may be cached forever.
 */
export interface MediaStorage {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Streams a file from disk into the storage (a data export: too large to hold in memory). */
  putFile(key: string, path: string, contentType: string): Promise<void>;
  /** Deletes one object (a data export); no error when it is already gone. */
  delete(key: string): Promise<void>;
  /** null when the object does not exist. */
  get(key: string): Promise<{ body: Readable; contentType: string; size?: number } | null>;
  exists(key: string): Promise<boolean>;
  /** Deletes every object under the prefix (a post's or avatar's variants). */
  deletePrefix(prefix: string): Promise<void>;
  /** Top-level media prefixes (`posts/<hash>`) with their newest write time, for the orphan sweep. */
  listPrefixes(root: string): AsyncIterable<{ prefix: string; modifiedAt: Date }>;
  /**
   * Throws when the storage cannot take writes now (readiness, /api/health/ready): local disk writes and
   * removes a small probe file; S3 asks for the bucket (HeadBucket). Touches no media.
   */
  probe(): Promise<void>;
  /** The keys under one prefix (a post's or avatar's variants), for backups. */
  listKeys(prefix: string): Promise<string[]>;
  close?(): Promise<void>;
}

/**
 * Keys the public /media route serves: posts' and profile pictures' variants. Keys come from our own
 * hashes; anything else is refused before it reaches a file system or bucket.
 */
export const MEDIA_KEY_PATTERN = /^(posts|avatars)\/[a-f0-9]{16,64}\/[a-z0-9]{1,12}\.(webp|jpg|png)$/;

/**
 * A reported picture as it was when reported (issue 46): a private copy, under a random prefix of its
 * own, that only moderators read (GET /api/moderation/reports/{reportId}/picture). Deliberately not a
 * MEDIA_KEY_PATTERN key, so the public /media route never serves one, and unguessable for a public
 * bucket: once the post is purged its own prefix goes, and nobody else reaches the picture.
 */
export const REPORT_PICTURE_KEY_PATTERN = /^reports\/[a-f0-9]{64}\/picture\.webp$/;

/** Roots under which media prefixes live; each prefix holds one upload's variants (or a report's copy). */
export const MEDIA_ROOTS = ['posts', 'avatars', 'reports'] as const;
export const MEDIA_PREFIX_PATTERN = /^(posts|avatars|reports)\/[a-f0-9]{16,64}$/;

/**
 * Data exports (issue 24): a random key per export. Deliberately not a MEDIA_KEY_PATTERN key, so the public
 * /media route never serves one; only the owner's download route reads them.
 */
export const EXPORT_KEY_PATTERN = /^exports\/[a-f0-9]{64}\.zip$/;

/** A key under a prefix: a public variant or a report's private copy. */
export const isPrefixedMediaKey = (key: string): boolean =>
  MEDIA_KEY_PATTERN.test(key) || REPORT_PICTURE_KEY_PATTERN.test(key);

/** Every key the storage accepts: media variants, reports' pictures and data exports. */
export function assertMediaKey(key: string): void {
  if (!isPrefixedMediaKey(key) && !EXPORT_KEY_PATTERN.test(key)) throw new Error(`Invalid media key: ${key}`);
}
