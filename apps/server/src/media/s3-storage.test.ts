import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS } from '@cats/contracts';
import { fixture } from '../../test/fixtures/images.ts';
import { testConfig } from '../config.ts';
import { mediaRoutes } from '../modules/posts/media.routes.ts';
import { createStorage } from './create-storage.ts';
import { storeImageVariants } from './image-pipeline.ts';
import { S3Storage } from './s3-storage.ts';
import { variantKey } from './urls.ts';

let server: S3rver;
let dir: string;
let endpoint: string;
let storage: S3Storage;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cats-s3-'));
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'cats' }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  storage = new S3Storage({
    endpoint,
    bucket: 'cats',
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  });
});
afterAll(async () => {
  await storage.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const key = (hash: string, name: string) => `posts/${hash}/${name}`;

describe('S3 storage (against s3rver)', () => {
  it('streams a data export from a file, reads it back byte for byte, deletes it; /media never serves it', async () => {
    const body = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256));
    const path = join(dir, 'export.zip');
    writeFileSync(path, body);
    const k = `exports/${'c'.repeat(64)}.zip`;
    await storage.putFile(k, path, 'application/zip');
    const got = await storage.get(k);
    expect(got!.contentType).toBe('application/zip');
    const chunks: Buffer[] = [];
    for await (const chunk of got!.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(body)).toBe(true);

    const app = Fastify();
    app.decorate('storage', storage);
    await app.register(mediaRoutes);
    expect((await app.inject({ method: 'GET', url: `/media/${k}` })).statusCode).toBe(404);
    await app.close();

    await storage.delete(k);
    expect(await storage.exists(k)).toBe(false);
    // Another object's key shape is refused before it reaches the bucket.
    await expect(storage.putFile('exports/../posts/x.zip', path, 'application/zip')).rejects.toThrow(
      'Invalid media key',
    );
  });

  it('round-trips bytes exactly, with content type and size', async () => {
    const body = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    const k = key('a'.repeat(64), '800.webp');
    await storage.put(k, body, 'image/webp');
    expect(await storage.exists(k)).toBe(true);
    const got = await storage.get(k);
    expect(got).not.toBeNull();
    expect(got!.contentType).toBe('image/webp');
    expect(got!.size).toBe(body.length);
    const chunks: Buffer[] = [];
    for await (const chunk of got!.body) chunks.push(chunk as Buffer);
    // Byte-identical: no aws-chunked framing stored inside the object.
    expect(Buffer.concat(chunks).equals(body)).toBe(true);
  });

  it('answers null / false for missing objects and refuses foreign keys', async () => {
    expect(await storage.get(key('b'.repeat(64), '64.webp'))).toBeNull();
    expect(await storage.exists(key('b'.repeat(64), '64.webp'))).toBe(false);
    await expect(storage.put('../etc/passwd', Buffer.from('x'), 'text/plain')).rejects.toThrow(
      /Invalid media key/,
    );
    await expect(storage.deletePrefix('posts')).rejects.toThrow(/Invalid media prefix/);
  });

  it('lists prefixes with their newest write and deletes a whole prefix', async () => {
    const hash = 'c'.repeat(64);
    for (const w of [64, 72, 300])
      await storage.put(key(hash, `${w}.webp`), Buffer.from(`v${w}`), 'image/webp');
    const other = 'd'.repeat(64);
    await storage.put(key(other, '64.webp'), Buffer.from('x'), 'image/webp');
    const listed = [];
    for await (const entry of storage.listPrefixes('posts')) listed.push(entry);
    expect(listed.map((e) => e.prefix)).toEqual(expect.arrayContaining([`posts/${hash}`, `posts/${other}`]));
    expect(new Set(listed.map((e) => e.prefix)).size).toBe(listed.length);
    expect(listed.every((e) => e.modifiedAt.getTime() > Date.now() - 60_000)).toBe(true);

    await storage.deletePrefix(`posts/${hash}`);
    for (const w of [64, 72, 300]) expect(await storage.exists(key(hash, `${w}.webp`))).toBe(false);
    expect(await storage.exists(key(other, '64.webp'))).toBe(true);
  });

  it('answers the readiness probe when the bucket is there, and fails it when it is not (issue 29)', async () => {
    await expect(storage.probe()).resolves.toBeUndefined();
    const missing = new S3Storage({
      endpoint,
      bucket: 'no-such-bucket',
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
    try {
      await expect(missing.probe()).rejects.toThrow();
    } finally {
      await missing.close();
    }
  });

  it('is what createStorage builds when S3_BUCKET is set', async () => {
    const configured = createStorage(
      testConfig({
        S3_ENDPOINT: endpoint,
        S3_BUCKET: 'cats',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      }),
    );
    try {
      expect(configured.kind).toBe('s3');
      expect(await configured.exists(key('d'.repeat(64), '64.webp'))).toBe(true);
    } finally {
      await configured.close?.();
    }
  });

  it('stores upload variants in the bucket and /media serves them from there', async () => {
    const stored = await storeImageVariants(storage, fixture('photo-gps.jpg'), {
      kind: 'posts',
      widths: IMAGE_WIDTHS,
    });
    const app: FastifyInstance = Fastify();
    app.decorate('storage', storage);
    await app.register(mediaRoutes);
    try {
      for (const width of IMAGE_WIDTHS) {
        const res = await app.inject({ url: `/media/${variantKey(stored.prefix, width)}` });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('image/webp');
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        const meta = await sharp(res.rawPayload).metadata();
        expect(meta.format).toBe('webp');
        expect(meta.exif).toBeUndefined();
        expect(Math.max(meta.width!, meta.height!)).toBe(Math.min(width, 1600));
      }
      const missing = await app.inject({ url: `/media/posts/${'e'.repeat(64)}/800.webp` });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: 'Not found' });
    } finally {
      await app.close();
    }
  });
});
