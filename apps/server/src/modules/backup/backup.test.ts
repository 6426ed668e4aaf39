import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createUser } from '../../../test/factories.ts';
import { fixture, multipartBody, type FixtureName } from '../../../test/fixtures/images.ts';
import { openDatabase, type DatabaseHandle } from '../../db/client.ts';
import {
  backupLeases,
  comments,
  deferredMediaDeletions,
  likes,
  posts,
  reports,
  users,
} from '../../db/schema/index.ts';
import { LocalStorage } from '../../media/local-storage.ts';
import { S3Storage } from '../../media/s3-storage.ts';
import type { MediaStorage } from '../../media/storage.ts';
import * as repo from './backup.repository.ts';
import { runDeferredDeletions } from './deferred-deletions.ts';
import { finishBackup, writeBackup, type BackupSummary } from './backup.service.ts';
import { restoreBackup, type RestoreTarget } from './restore.service.ts';

/**
 * Backups under write load and restores (issue 29), on PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 * The restored instance must hold every row acknowledged before the backup began and, byte for byte,
 * every file they point at; writes acknowledged while it ran are wholly in (row and files) or wholly out.
 */

let t: TestApp;
const work = mkdtempSync(join(tmpdir(), 'cats-backup-test-'));
const adminUrl = process.env.TEST_DATABASE_URL;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

/** An empty place to restore into: a directory, and on PostgreSQL a new database. */
async function emptyTarget(
  storage?: MediaStorage,
): Promise<RestoreTarget & { open(): Promise<DatabaseHandle> }> {
  const dataDir = mkdtempSync(join(work, 'target-'));
  const mediaDir = join(dataDir, 'media');
  const store = storage ?? new LocalStorage(mediaDir);
  let databaseUrl: string | undefined;
  if (t.databaseUrl && adminUrl) {
    const name = `cats_r_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    cleanups.push(async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    });
  }
  return {
    kind: databaseUrl ? 'postgres' : 'pglite',
    dataDir,
    databaseUrl,
    storage: store,
    ...(storage ? {} : { mediaDir }),
    open: async () => {
      const handle = await openDatabase({ databaseUrl, dataDir });
      cleanups.push(() => handle.close());
      return handle;
    },
  };
}

async function backupTo(
  file: string,
  storage: MediaStorage = t.storage,
  database = t.database,
  url = t.databaseUrl,
) {
  const src = { database, databaseUrl: url ?? undefined, storage, dataDir: t.config.DATA_DIR };
  return finishBackup(src, await writeBackup(src, createWriteStream(file)));
}

async function upload(headers: { authorization: string }, name: FixtureName, caption: string) {
  const body = multipartBody(
    { comment: caption },
    { name, type: name.endsWith('.png') ? 'image/png' : 'image/jpeg', data: fixture(name) },
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/posts/createPost',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { post: { _id: string } }).post._id;
}

async function like(headers: { authorization: string }, postId: string) {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/posts/likePost/${postId}`,
    headers,
    payload: {},
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function comment(headers: { authorization: string }, postId: string, text: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/posts/createComment/${postId}`,
    headers,
    payload: { newComment: text },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
}

async function bytesOf(storage: MediaStorage, key: string): Promise<Buffer | null> {
  const object = await storage.get(key);
  if (!object) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Every file under a post's prefix, with its checksum. */
async function filesOf(storage: MediaStorage, prefix: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const key of await storage.listKeys(prefix)) files.set(key, sha((await bytesOf(storage, key))!));
  return files;
}

interface Acked {
  kind: 'post' | 'like' | 'comment';
  /** post id; for a like `postId:userId`; for a comment its text. */
  id: string;
  postId: string;
  startedAt: number;
  ackedAt: number;
}

describe('backup under write load, then restore', { timeout: 120_000 }, () => {
  it('restores every row acknowledged before the backup, its files byte for byte; later writes wholly in or out', async () => {
    const writers = await Promise.all([1, 2, 3].map(() => createUser(t.db)));
    const heads = await Promise.all(writers.map((w) => authHeader(t.app, w.id)));
    const leaving = await createUser(t.db);
    const leavingHead = await authHeader(t.app, leaving.id);
    const acked: Acked[] = [];
    const record = async (kind: Acked['kind'], postId: string, id: string, run: () => Promise<unknown>) => {
      const startedAt = performance.now();
      await run();
      acked.push({ kind, id, postId, startedAt, ackedAt: performance.now() });
    };

    // Seed: posts with real photos, likes and comments, all acknowledged before the backup.
    const seeded: string[] = [];
    for (const [i, head] of heads.entries()) {
      const id = await upload(head, i % 2 ? 'cat.png' : 'photo-gps.jpg', `seed ${i}`);
      seeded.push(id);
      acked.push({ kind: 'post', id, postId: id, startedAt: 0, ackedAt: 0 });
    }
    const leavingPosts = [
      await upload(leavingHead, 'photo-no-gps.jpg', 'going soon'),
      await upload(leavingHead, 'cat.png', 'going soon too'),
    ];
    for (const [i, head] of heads.entries()) {
      for (const postId of seeded) {
        await record('like', postId, `${postId}:${writers[i]!.id}`, () => like(head, postId));
        const text = `seed comment ${i} ${postId}`;
        await record('comment', postId, text, () => comment(head, postId, text));
      }
    }
    // What the seeded rows point at, read before the backup.
    const seededRows = await t.db.select().from(posts).where(inArray(posts.id, seeded));
    const seededFiles = new Map<string, Map<string, string>>();
    for (const row of seededRows) seededFiles.set(row.id, await filesOf(t.storage, row.mediaKey));
    const leavingRows = await t.db.select().from(posts).where(inArray(posts.id, leavingPosts));
    const leavingFiles = new Map<string, Map<string, string>>();
    for (const row of leavingRows) leavingFiles.set(row.id, await filesOf(t.storage, row.mediaKey));

    // Write load: each writer posts photos, likes and comments in a loop until the backup has finished.
    let stop = false;
    let n = 0;
    const postsByWriter = new Map<number, string[]>();
    const load = heads.map(async (head, w) => {
      while (!stop) {
        n += 1;
        const step = n % 3;
        if (step === 0) {
          const startedAt = performance.now();
          const id = await upload(head, n % 2 ? 'cat.png' : 'photo-no-gps.jpg', `load ${n}`);
          acked.push({ kind: 'post', id, postId: id, startedAt, ackedAt: performance.now() });
          postsByWriter.set(w, [...(postsByWriter.get(w) ?? []), id]);
        } else {
          const pool = [...seeded, ...[...postsByWriter.values()].flat()];
          const target = pool[n % pool.length]!;
          if (step === 1) {
            const text = `load comment ${n}`;
            await record('comment', target, text, () => comment(head, target, text));
          } else {
            // A post this writer has not liked yet (a second like would take the first back).
            const liked = new Set(acked.filter((a) => a.kind === 'like').map((a) => a.id));
            const fresh = pool.find((p) => !liked.has(`${p}:${writers[w]!.id}`));
            if (fresh) await record('like', fresh, `${fresh}:${writers[w]!.id}`, () => like(head, fresh));
          }
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 300));

    const file = join(work, 'load.tar');
    const backupStarted = performance.now();
    const ackedBefore = new Set(
      acked.filter((a) => a.ackedAt < backupStarted).map((a) => `${a.kind}:${a.id}`),
    );
    // An account deleted while the backup runs: its files are deleted after its rows, deferred by the lease.
    const deletion = t.app.inject({
      method: 'DELETE',
      url: `/api/profile/deleteUser/${leaving.id}`,
      headers: leavingHead,
    });
    const summary: BackupSummary = await backupTo(file);
    const backupEnded = performance.now();
    expect((await deletion).statusCode).toBe(204);
    stop = true;
    await Promise.all(load);

    // The load really overlapped the backup: some acknowledged write was in flight while it ran.
    expect(acked.some((a) => a.startedAt < backupEnded && a.ackedAt > backupStarted)).toBe(true);
    expect(summary.mediaFiles).toBeGreaterThan(0);
    // The lease is gone, and so are the deleted account's files (carried out once the backup ended).
    expect(await t.db.select().from(backupLeases)).toEqual([]);
    expect(await t.db.select().from(deferredMediaDeletions)).toEqual([]);
    for (const row of leavingRows) expect(await t.storage.listKeys(row.mediaKey)).toEqual([]);

    const target = await emptyTarget();
    const restored = await restoreBackup(file, target);
    expect(restored.databaseKind).toBe(t.database.kind);
    const handle = await target.open();
    const db = handle.db;

    // Every row acknowledged before the backup started is there.
    const restoredPosts = new Map((await db.select().from(posts)).map((p) => [p.id, p]));
    const restoredLikes = new Set((await db.select().from(likes)).map((l) => `${l.postId}:${l.userId}`));
    const restoredComments = new Set((await db.select().from(comments)).map((c) => c.body));
    const isIn = (a: Acked) =>
      a.kind === 'post'
        ? restoredPosts.has(a.id)
        : a.kind === 'like'
          ? restoredLikes.has(a.id)
          : restoredComments.has(a.id);
    for (const a of acked) {
      if (ackedBefore.has(`${a.kind}:${a.id}`))
        expect(isIn(a), `${a.kind} ${a.id} acknowledged before the backup`).toBe(true);
    }
    expect(ackedBefore.size).toBeGreaterThan(seeded.length);

    // Their files, byte for byte.
    for (const [postId, files] of seededFiles) {
      expect(files.size).toBeGreaterThan(0);
      expect(await filesOf(target.storage, restoredPosts.get(postId)!.mediaKey)).toEqual(files);
    }
    // Every post in the restored database, whenever it was written, has all its files; and the files of
    // a post that is not in are not either (wholly in or wholly out).
    for (const p of restoredPosts.values()) {
      const files = await filesOf(target.storage, p.mediaKey);
      expect(files.size, `files of restored post ${p.id}`).toBe(6);
      const live = leavingFiles.get(p.id) ?? (await filesOf(t.storage, p.mediaKey));
      expect(files).toEqual(live);
    }
    const livePosts = await t.db.select().from(posts);
    for (const p of livePosts) {
      if (!restoredPosts.has(p.id)) expect(await target.storage.listKeys(p.mediaKey)).toEqual([]);
    }
    // The deleted account: wholly in (its rows and files, the snapshot came first) or wholly out.
    const leavingIn = (await db.select().from(users).where(eq(users.id, leaving.id))).length === 1;
    for (const row of leavingRows) {
      expect(restoredPosts.has(row.id)).toBe(leavingIn);
      if (leavingIn) expect(await filesOf(target.storage, row.mediaKey)).toEqual(leavingFiles.get(row.id));
    }

    // A restored app serves the same image bytes.
    const { buildApp } = await import('../../app.ts');
    const restoredApp = await buildApp({
      config: t.config,
      database: handle,
      storage: target.storage,
      jwtSecret: t.jwtSecret,
      webDistDir: null,
    });
    cleanups.push(() => restoredApp.close());
    const first = restoredPosts.get(seeded[0]!)!;
    const res = await restoredApp.inject({ method: 'GET', url: `/media/${first.mediaKey}/800.webp` });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals((await bytesOf(t.storage, `${first.mediaKey}/800.webp`))!)).toBe(true);

    // Restoring into that same target again is refused, and changes nothing.
    const before = await db.select({ n: sql<number>`count(*)::int` }).from(posts);
    await expect(restoreBackup(file, target)).rejects.toThrow(
      /Restore refused: .*not empty.*Nothing was changed/,
    );
    expect(await db.select({ n: sql<number>`count(*)::int` }).from(posts)).toEqual(before);
  });

  it('refuses a corrupted archive with a clear message and writes nothing', async () => {
    await upload(
      await authHeader(t.app, (await createUser(t.db)).id),
      'cat.png',
      'for the corrupted archive',
    );
    const file = join(work, 'corrupt.tar');
    await backupTo(file);
    const bytes = readFileSync(file);
    // Flip one byte in the middle of the first media file's content.
    const at = bytes.indexOf(Buffer.from('media/posts/'));
    expect(at).toBeGreaterThan(0);
    bytes[at + 512 + 100] = bytes[at + 512 + 100]! ^ 0xff;
    writeFileSync(file, bytes);
    const target = await emptyTarget();
    await expect(restoreBackup(file, target)).rejects.toThrow(
      /is damaged: 1 file\(s\) do not match the manifest: media\/posts\/.*\(checksum\)\. Nothing was restored\./,
    );
    expect(await readdir(target.dataDir)).toEqual([]);
    if (target.databaseUrl) {
      const client = new pg.Client({ connectionString: target.databaseUrl });
      await client.connect();
      const { rows } = await client.query(
        `select count(*)::int as n from pg_tables where schemaname = 'public'`,
      );
      await client.end();
      expect(rows[0].n).toBe(0);
    }
  });

  it('defers media deletions while a backup holds its lease, and carries them out after', async () => {
    const head = await authHeader(t.app, (await createUser(t.db)).id);
    const postId = await upload(head, 'cat.png', 'deleted during a backup');
    const [row] = await t.db.select().from(posts).where(eq(posts.id, postId));
    await repo.holdLease(t.db, 'a3f5c1d2-0000-4000-8000-000000000001', 60);
    await t.app.storage.deletePrefix(row!.mediaKey);
    expect((await t.storage.listKeys(row!.mediaKey)).length).toBe(6);
    expect(await runDeferredDeletions(t.db, t.app.storage)).toBe(0);
    await repo.releaseLease(t.db, 'a3f5c1d2-0000-4000-8000-000000000001');
    await t.db.delete(posts).where(eq(posts.id, postId));
    expect(await runDeferredDeletions(t.db, t.app.storage)).toBe(1);
    expect(await t.storage.listKeys(row!.mediaKey)).toEqual([]);
  });
});

describe('media on S3', { timeout: 120_000 }, () => {
  let server: S3rver;
  let s3Dir: string;
  let s3: S3Storage;

  beforeAll(async () => {
    s3Dir = mkdtempSync(join(tmpdir(), 'cats-s3-backup-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: 'cats' }],
    });
    const { port } = await server.run();
    s3 = new S3Storage({
      endpoint: `http://127.0.0.1:${port}`,
      bucket: 'cats',
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
  });
  afterAll(async () => {
    await s3.close();
    await server.close();
    rmSync(s3Dir, { recursive: true, force: true });
  });

  it('round-trips: restored into a bucket, backed up from it, restored to disk, byte for byte', async () => {
    const postId = await upload(
      await authHeader(t.app, (await createUser(t.db)).id),
      'photo-gps.jpg',
      'to S3 and back',
    );
    // A report's private copy of the picture (issue 46) travels with the backup like a post's files.
    const reported = await t.app.inject({
      method: 'POST',
      url: '/api/reports',
      headers: await authHeader(t.app, (await createUser(t.db)).id),
      payload: { targetType: 'post', targetId: postId, reason: 'spam' },
    });
    expect(reported.statusCode, reported.body).toBe(201);
    const [report] = await t.db
      .select({ snapshot: reports.snapshot })
      .from(reports)
      .where(eq(reports.id, (reported.json() as { reportId: string }).reportId));
    const copy = (report!.snapshot as { mediaKey: string }).mediaKey;
    expect(copy).toMatch(/^reports\//);
    const copyFiles = await filesOf(t.storage, copy);
    expect(copyFiles.size).toBe(1);
    const local = join(work, 'to-s3.tar');
    await backupTo(local);
    const inBucket = await emptyTarget(s3);
    await restoreBackup(local, inBucket);
    const handle = await inBucket.open();
    const fromS3 = join(work, 'from-s3.tar');
    const summary = await backupTo(fromS3, s3, handle, inBucket.databaseUrl ?? null);
    const livePosts = await t.db.select().from(posts);
    expect(summary.mediaFiles).toBeGreaterThanOrEqual(livePosts.length * 6);
    const manifestText = readFileSync(fromS3).toString('latin1');
    expect(manifestText).toContain('"storage": "s3"');
    // A non-empty bucket is refused.
    await expect(restoreBackup(fromS3, await emptyTarget(s3))).rejects.toThrow(
      /the bucket \(it holds posts\//,
    );

    const back = await emptyTarget();
    await restoreBackup(fromS3, back);
    const db = (await back.open()).db;
    const restored = await db.select().from(posts);
    expect(restored.map((p) => p.id).sort()).toEqual(livePosts.map((p) => p.id).sort());
    for (const p of livePosts) {
      expect(await filesOf(back.storage, p.mediaKey)).toEqual(await filesOf(t.storage, p.mediaKey));
    }
    expect(await filesOf(s3, copy)).toEqual(copyFiles);
    expect(await filesOf(back.storage, copy)).toEqual(copyFiles);
  });
});
