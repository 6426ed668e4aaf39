import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IMAGE_WIDTHS,
  MODERATION_QUEUE_MESSAGES,
  type ModerationQueueResponse,
  type ReportReceipt,
} from '@cats/contracts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createUser, type CreatedUser } from '../../../test/factories.ts';
import { multipartBody } from '../../../test/fixtures/images.ts';
import { call, smallJpeg, uploadPost } from '../../../test/hostile/support/world.ts';
import { posts, reports, users } from '../../db/schema/index.ts';
import { sweepOrphanMedia } from '../../media/orphan-sweep.ts';
import { S3Storage } from '../../media/s3-storage.ts';
import type { MediaStorage } from '../../media/storage.ts';
import { sweepTrash } from '../posts/trash.service.ts';
import { privatiseOldReportPictures } from './reports.service.ts';

/**
 * Issue 46, "Files and links": a report's picture goes to moderators only, through an authenticated
 * route, and once the post is purged (or the profile picture changed) its public /media URLs answer
 * 404 for everyone, like any unknown key. On local disk and on S3 (s3rver) alike.
 */
const DAY = 24 * 60 * 60 * 1000;
let seed = 46_000;

let s3: { server: S3rver; dir: string; storage: S3Storage } | null = null;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cats-s3-reports-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'cats' }],
  });
  const { port } = await server.run();
  const storage = new S3Storage({
    endpoint: `http://127.0.0.1:${port}`,
    bucket: 'cats',
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  });
  s3 = { server, dir, storage };
});
afterAll(async () => {
  await s3?.storage.close();
  await s3?.server.close();
  if (s3) rmSync(s3.dir, { recursive: true, force: true });
});

describe.each(['local', 's3'] as const)('report pictures on %s storage (issue 46)', (kind) => {
  let t: TestApp;
  let moderator: CreatedUser;
  let admin: CreatedUser;
  let author: CreatedUser;
  let reporter: CreatedUser;

  beforeAll(async () => {
    t = await buildTestApp({}, kind === 's3' ? { storage: s3!.storage as MediaStorage } : {});
    moderator = await createUser(t.db, { role: 'moderator' });
    admin = await createUser(t.db, { role: 'admin' });
    author = await createUser(t.db);
    reporter = await createUser(t.db);
  });
  afterAll(async () => {
    // The S3 storage is closed with the bucket in the file's afterAll.
    await t?.close();
  });

  const as = async (user: { id: string } | null, url: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { ...(user ? await authHeader(t.app, user.id) : {}), ...headers },
    });

  async function reportOf(targetType: 'post' | 'user', targetId: string): Promise<string> {
    const res = await call(t.app, await authHeader(t.app, reporter.id), 'POST', '/api/reports', {
      targetType,
      targetId,
      reason: 'spam',
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return (res.json() as ReportReceipt).reportId;
  }

  /** The picture as a moderator gets it: 200, WebP, private and not stored; its width. */
  async function moderatorSees(reportId: string, user: { id: string } = moderator): Promise<number> {
    const res = await as(user, `/api/moderation/reports/${reportId}/picture`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    return meta.width!;
  }

  it("keeps a purged post's picture for moderators only: its public URLs answer 404", async () => {
    const post = await uploadPost(
      t.app,
      await authHeader(t.app, author.id),
      await smallJpeg((seed += 1), 900),
    );
    const [{ key }] = (await t.db
      .select({ key: posts.mediaKey })
      .from(posts)
      .where(eq(posts.id, post._id))) as [{ key: string }];
    const publicUrls = IMAGE_WIDTHS.map((w) => `/media/${key}/${w}.webp`);
    expect((await as(null, publicUrls[4]!)).statusCode).toBe(200);

    const reportId = await reportOf('post', post._id);
    // The queue points at the moderators' route, never at a public URL.
    const queue = (await as(moderator, '/api/moderation/reports')).json() as ModerationQueueResponse;
    const group = queue.groups.find((g) => g.targetId === post._id)!;
    expect(group.snapshot.pictureUrl).toBe(`/api/moderation/reports/${reportId}/picture`);
    expect(await moderatorSees(reportId)).toBe(800);

    // The author deletes the post; 30 days later the trash sweep purges it.
    expect(
      (await call(t.app, await authHeader(t.app, author.id), 'DELETE', `/api/posts/${post._id}`)).statusCode,
    ).toBe(200);
    await t.db
      .update(posts)
      .set({ deletedAt: new Date(Date.now() - 31 * DAY) })
      .where(eq(posts.id, post._id));
    expect(await sweepTrash({ db: t.db, storage: t.storage })).toBe(1);

    for (const url of publicUrls) {
      for (const who of [null, author, reporter, moderator]) {
        const res = await as(who, url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(404);
        expect(res.json()).toEqual({ message: 'Not found' });
        expect(String(res.headers['cache-control'] ?? '')).not.toMatch(/public|immutable/);
      }
    }
    // Moderators (and admins) still judge what was reported.
    expect(await moderatorSees(reportId)).toBe(800);
    expect(await moderatorSees(reportId, admin)).toBe(800);

    // Nobody else, whatever they know.
    const route = `/api/moderation/reports/${reportId}/picture`;
    const anonymous = await as(null, route);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toHaveProperty('message');
    for (const who of [author, reporter]) {
      const res = await as(who, route);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toHaveProperty('message');
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
    // The copy's key is no public media key either.
    const [row] = await t.db
      .select({ snapshot: reports.snapshot })
      .from(reports)
      .where(eq(reports.id, reportId));
    const copy = (row!.snapshot as { mediaKey: string }).mediaKey;
    expect(copy).toMatch(/^reports\/[a-f0-9]{64}$/);
    for (const url of [`/media/${copy}/picture.webp`, `/media/${copy}/800.webp`])
      expect((await as(null, url)).statusCode).toBe(404);
  });

  it('answers 404 with a clear message for a report without a picture, or none at all', async () => {
    const [commentless] = await t.db
      .insert(reports)
      .values({
        reporterId: reporter.id,
        targetType: 'user',
        targetId: author.id,
        reason: 'spam',
        snapshot: {},
      })
      .returning({ id: reports.id });
    for (const id of [commentless!.id, '0b5a3c1e-2f4d-4e6a-8b9c-0d1e2f3a4b5c', 'not-an-id']) {
      const res = await as(moderator, `/api/moderation/reports/${id}/picture`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: MODERATION_QUEUE_MESSAGES.pictureNotFound });
    }
    const es = await as(moderator, `/api/moderation/reports/${commentless!.id}/picture`, {
      'accept-language': 'es',
    });
    expect(es.json()).toEqual({ message: 'Esta denuncia no tiene foto' });
  });

  it("keeps a reported person's old profile picture for moderators only once they change it", async () => {
    const person = await createUser(t.db);
    const headers = await authHeader(t.app, person.id);
    const upload = async () => {
      const body = multipartBody(
        {},
        { name: 'me.jpg', type: 'image/jpeg', data: await smallJpeg((seed += 1), 400) },
      );
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/profile/updatePicture',
        headers: { ...headers, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode, res.body).toBe(200);
      const [row] = await t.db
        .select({ key: users.profilePicKey })
        .from(users)
        .where(eq(users.id, person.id));
      return row!.key!;
    };
    const first = await upload();
    const reportId = await reportOf('user', person.id);
    expect((await as(null, `/media/${first}/300.webp`)).statusCode).toBe(200);

    await upload();
    expect((await as(null, `/media/${first}/300.webp`)).statusCode).toBe(404);
    expect(await moderatorSees(reportId)).toBe(300);
  });

  it("takes an older report's picture private at start-up: the purged post's files then go", async () => {
    const post = await uploadPost(
      t.app,
      await authHeader(t.app, author.id),
      await smallJpeg((seed += 1), 900),
    );
    const [{ key }] = (await t.db
      .select({ key: posts.mediaKey })
      .from(posts)
      .where(eq(posts.id, post._id))) as [{ key: string }];
    // A report as made before issue 46: its snapshot names the post's own files, which kept them.
    const [old] = await t.db
      .insert(reports)
      .values({
        reporterId: reporter.id,
        targetType: 'post',
        targetId: post._id,
        targetUserId: author.id,
        reason: 'spam',
        snapshot: { caption: 'Old', mediaKey: key },
      })
      .returning({ id: reports.id });
    await t.db.delete(posts).where(eq(posts.id, post._id));
    const future = new Date(Date.now() + DAY);
    expect(await sweepOrphanMedia({ db: t.db, storage: t.storage, now: future })).not.toContain(key);
    expect((await as(null, `/media/${key}/800.webp`)).statusCode).toBe(200);

    // What bootstrap.ts runs before its orphan sweep; twice changes nothing more.
    expect(await privatiseOldReportPictures({ db: t.db, storage: t.storage })).toBeGreaterThanOrEqual(1);
    expect(await privatiseOldReportPictures({ db: t.db, storage: t.storage })).toBe(0);
    expect(await sweepOrphanMedia({ db: t.db, storage: t.storage, now: future })).toContain(key);
    expect((await as(null, `/media/${key}/800.webp`)).statusCode).toBe(404);
    expect(await moderatorSees(old!.id)).toBe(800);
    const [row] = await t.db
      .select({ snapshot: reports.snapshot })
      .from(reports)
      .where(eq(reports.id, old!.id));
    expect(row!.snapshot).toMatchObject({
      caption: 'Old',
      sourceKey: key,
      mediaKey: expect.stringMatching(/^reports\//),
    });
  });

  it("lets the orphan sweep remove a report's copy once no report names it", async () => {
    const post = await uploadPost(t.app, await authHeader(t.app, author.id), await smallJpeg((seed += 1)));
    const reportId = await reportOf('post', post._id);
    const [row] = await t.db
      .select({ snapshot: reports.snapshot })
      .from(reports)
      .where(eq(reports.id, reportId));
    const copy = (row!.snapshot as { mediaKey: string }).mediaKey;
    const future = new Date(Date.now() + DAY);
    // Named by its report: kept.
    expect(await sweepOrphanMedia({ db: t.db, storage: t.storage, now: future })).not.toContain(copy);
    expect(await t.storage.exists(`${copy}/picture.webp`)).toBe(true);
    await t.db.delete(reports).where(eq(reports.id, reportId));
    expect(await sweepOrphanMedia({ db: t.db, storage: t.storage, now: future })).toContain(copy);
    expect(await t.storage.exists(`${copy}/picture.webp`)).toBe(false);
  });
});
