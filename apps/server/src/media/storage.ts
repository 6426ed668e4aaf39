import type { Readable } from 'node:stream';

/**
 * Where image variants live. Keys are paths such as `posts/<random hex>/800.webp`, a new prefix for
 * every upload (newMediaPrefix), so an object never changes once written and may be cached forever.
 */
export interface MediaStorage {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** null when the object does not exist. */
  get(key: string): Promise<{ body: Readable; contentType: string; size?: number } | null>;
  exists(key: string): Promise<boolean>;
  /** Deletes every object under the prefix (a post's or avatar's variants). */
  deletePrefix(prefix: string): Promise<void>;
  /** Top-level media prefixes (`posts/<hash>`) with their newest write time, for the orphan sweep. */
  listPrefixes(root: string): AsyncIterable<{ prefix: string; modifiedAt: Date }>;
  close?(): Promise<void>;
}

/** Keys come from our own hashes; anything else is refused before it reaches a file system or bucket. */
export const MEDIA_KEY_PATTERN = /^(posts|avatars)\/[a-f0-9]{16,64}\/[a-z0-9]{1,12}\.(webp|jpg|png)$/;

export function assertMediaKey(key: string): void {
  if (!MEDIA_KEY_PATTERN.test(key)) throw new Error(`Invalid media key: ${key}`);
}
