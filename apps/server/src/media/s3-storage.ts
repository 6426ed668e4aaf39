import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type * as AwsS3 from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import type { MediaStorage } from './storage.ts';
import { assertMediaKey, MEDIA_PREFIX_PATTERN, MEDIA_ROOTS } from './storage.ts';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** Any S3-compatible endpoint (MinIO, R2, s3rver); omit for AWS itself. */
  endpoint?: string | undefined;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

type S3Sdk = typeof AwsS3;

/**
 * Media in an S3-compatible bucket. Objects are immutable (each key is written once).
 *
 * The AWS SDK is loaded when the first S3Storage is made, not when the server starts: it is ~11 MB of
 * resident memory that a server on local disk (the default) never needs (docs/performance.md, Memory).
 */
export class S3Storage implements MediaStorage {
  readonly kind = 's3' as const;
  private readonly ready: Promise<{ sdk: S3Sdk; client: S3Client }>;
  private readonly bucket: string;

  constructor(opts: S3StorageOptions) {
    this.bucket = opts.bucket;
    this.ready = import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: S3Storage.client(sdk, opts) }));
    // A failed load is reported by the first operation that awaits it, not as an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  private static client(sdk: S3Sdk, opts: S3StorageOptions): S3Client {
    return new sdk.S3Client({
      region: opts.region,
      ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
      // Path-style URLs work with every S3-compatible server (no wildcard DNS needed).
      forcePathStyle: true,
      // Without this, SDK v3 frames uploads with aws-chunked checksums that several S3-compatible
      // servers store verbatim: a silently corrupted object.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(opts.accessKeyId && opts.secretAccessKey
        ? { credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } }
        : {}),
    });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertMediaKey(key);
    const { sdk, client } = await this.ready;
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        ContentLength: body.length,
        CacheControl: 'public, max-age=31536000, immutable',
      }),
    );
  }

  /**
   * One PUT with the file's length, streamed from disk. Exports stay far below S3's 5 GB limit for one
   * PUT (a thousand posts make ~300 MB).
   */
  async putFile(key: string, path: string, contentType: string): Promise<void> {
    assertMediaKey(key);
    const { sdk, client } = await this.ready;
    const { size } = await stat(path);
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: createReadStream(path),
        ContentType: contentType,
        ContentLength: size,
        CacheControl: 'private, no-store',
      }),
    );
  }

  async delete(key: string): Promise<void> {
    assertMediaKey(key);
    const { sdk, client } = await this.ready;
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async get(key: string) {
    assertMediaKey(key);
    const { sdk, client } = await this.ready;
    try {
      const out = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!out.Body) return null;
      return {
        body: out.Body as Readable,
        contentType: out.ContentType ?? 'application/octet-stream',
        ...(out.ContentLength !== undefined ? { size: out.ContentLength } : {}),
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    assertMediaKey(key);
    const { sdk, client } = await this.ready;
    try {
      await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  private async *listObjects(prefix: string) {
    const { sdk, client } = await this.ready;
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) if (object.Key) yield object;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async deletePrefix(prefix: string): Promise<void> {
    if (!MEDIA_PREFIX_PATTERN.test(prefix)) throw new Error(`Invalid media prefix: ${prefix}`);
    const keys: string[] = [];
    for await (const object of this.listObjects(`${prefix}/`)) keys.push(object.Key!);
    const { sdk, client } = await this.ready;
    // One DELETE per object: a prefix holds a handful of variants, and DeleteObjects needs a
    // Content-MD5 that not every S3-compatible server accepts alike.
    await Promise.all(
      keys.map((Key) => client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key }))),
    );
  }

  async listKeys(prefix: string): Promise<string[]> {
    if (!MEDIA_PREFIX_PATTERN.test(prefix)) throw new Error(`Invalid media prefix: ${prefix}`);
    const keys: string[] = [];
    for await (const object of this.listObjects(`${prefix}/`)) keys.push(object.Key!);
    return keys.sort();
  }

  async *listPrefixes(root: string): AsyncIterable<{ prefix: string; modifiedAt: Date }> {
    if (!(MEDIA_ROOTS as readonly string[]).includes(root)) throw new Error(`Invalid media root: ${root}`);
    // Objects come back in key order, so one prefix's variants are contiguous.
    let current: { prefix: string; modifiedAt: Date } | null = null;
    for await (const object of this.listObjects(`${root}/`)) {
      const prefix = object.Key!.split('/').slice(0, 2).join('/');
      const modifiedAt = object.LastModified ?? new Date(0);
      if (current && current.prefix === prefix) {
        if (modifiedAt > current.modifiedAt) current.modifiedAt = modifiedAt;
        continue;
      }
      if (current) yield current;
      current = { prefix, modifiedAt };
    }
    if (current) yield current;
  }

  async probe(): Promise<void> {
    const { sdk, client } = await this.ready;
    await client.send(new sdk.HeadBucketCommand({ Bucket: this.bucket }));
  }

  async close(): Promise<void> {
    const loaded = await this.ready.catch(() => null);
    loaded?.client.destroy();
  }
}
