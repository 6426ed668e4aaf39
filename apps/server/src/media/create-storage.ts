import { resolve } from 'node:path';
import type { Config } from '../config.ts';
import { LocalStorage } from './local-storage.ts';
import { S3Storage } from './s3-storage.ts';
import type { MediaStorage } from './storage.ts';

/** S3-compatible storage when S3_BUCKET is set, else local disk under MEDIA_DIR or DATA_DIR/media. */
export function createStorage(config: Config): MediaStorage {
  if (config.S3_BUCKET) {
    return new S3Storage({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    });
  }
  return new LocalStorage(resolve(config.MEDIA_DIR ?? resolve(config.DATA_DIR, 'media')));
}
