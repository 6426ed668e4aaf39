import { buffer as readAll } from 'node:stream/consumers';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DISABLED_MESSAGE, DEMO_USER_ID, type DataExportStatus, type Post } from '@cats/contracts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createUser, type CreatedUser } from '../../../test/factories.ts';
import { unzip } from '../../../test/unzip.ts';
import { addComment, call, createGroup, smallJpeg, uploadPost } from '../../../test/hostile/support/world.ts';
import { dataExports, posts } from '../../db/schema/index.ts';
import { variantKey } from '../../media/urls.ts';
import { createDataExportService, DATA_EXPORT_MESSAGES, STALE_EXPORT_MS } from './data-export.service.ts';

type Headers = Record<string, string>;
let t: TestApp;
let seed = 9100;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const json = <T>(entries: Map<string, Buffer>, name: string): T => {
  const bytes = entries.get(name);
  expect(bytes, `${name} in the zip`).toBeDefined();
  return JSON.parse(bytes!.toString('utf8')) as T;
};

async function spot(
  headers: Headers,
  latitude: string,
  longitude: string,
  fields: Record<string, string> = {},
): Promise<Post> {
  return uploadPost(t.app, headers, await smallJpeg((seed += 1)), {
    comment: `A cat at ${latitude}`,
    showLocation: 'false',
    latitude,
    longitude,
    ...fields,
  });
}

async function statusOf(headers: Headers): Promise<DataExportStatus> {
  const res = await call(t.app, headers, 'GET', '/api/profile/export');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as DataExportStatus;
}

async function waitUntilFinished(headers: Headers): Promise<DataExportStatus> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const status = await statusOf(headers);
    if (status.status !== 'running') return status;
    if (Date.now() > deadline) throw new Error('export still running after 20 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('Download my data', () => {
  let owner: CreatedUser;
  let other: CreatedUser;
  let own: Headers;
  let others: Headers;
  let located: Post;
  let trashed: Post;
  let othersPost: Post;
  let groupId: string;
  let commentId: string;

  beforeAll(async () => {
    owner = await createUser(t.db);
    other = await createUser(t.db);
    own = await authHeader(t.app, owner.id);
    others = await authHeader(t.app, other.id);
    const group = await createGroup(t.app, own, 'Export club');
    groupId = group._id;
    located = await spot(own, '48.8566131', '2.3522219');
    const shared = await call(t.app, own, 'PUT', `/api/posts/${located._id}/groups`, { groupIds: [groupId] });
    expect(shared.statusCode, shared.body).toBe(200);
    trashed = await spot(own, '41.3873974', '2.1685091');
    expect((await call(t.app, own, 'DELETE', `/api/posts/${trashed._id}`)).statusCode).toBe(200);
    // Someone else's post, exact position shown to everyone: liked and commented on by the owner, and
    // still nowhere in the owner's export.
    othersPost = await spot(others, '52.5200066', '13.4049540', { showLocation: 'true' });
    expect((await call(t.app, own, 'PUT', `/api/posts/likePost/${othersPost._id}`)).statusCode).toBe(200);
    expect((await call(t.app, others, 'PUT', `/api/posts/likePost/${located._id}`)).statusCode).toBe(200);
    commentId = await addComment(t.app, own, othersPost._id, 'Lovely whiskers');
  });

  it('answers none before any export, and 404 for a download', async () => {
    expect(await statusOf(own)).toMatchObject({ status: 'none', sizeBytes: null, message: null });
    const res = await call(t.app, own, 'GET', '/api/profile/export/download');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: DATA_EXPORT_MESSAGES.noneReady });
  });

  it("prepares a zip of the owner's data that only the owner can download", async () => {
    const started = await call(t.app, own, 'POST', '/api/profile/export');
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toMatchObject({ status: 'running' });

    const ready = await waitUntilFinished(own);
    expect(ready.status).toBe('ready');
    expect(ready.sizeBytes).toBeGreaterThan(0);
    expect(Date.parse(ready.expiresAt!) - Date.parse(ready.finishedAt!)).toBe(24 * 60 * 60 * 1000);

    // Someone else sees no export of their own and cannot fetch the owner's.
    expect((await statusOf(others)).status).toBe('none');
    const stolen = await call(t.app, others, 'GET', '/api/profile/export/download');
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json()).toEqual({ message: DATA_EXPORT_MESSAGES.noneReady });

    const res = await call(t.app, own, 'GET', '/api/profile/export/download');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="neighbourhood-cats-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(res.rawPayload.length).toBe(ready.sizeBytes);

    const entries = await unzip(res.rawPayload);
    expect([...entries.keys()].sort()).toEqual(
      [
        'comments.json',
        'groups.json',
        `images/${located._id}.webp`,
        `images/${trashed._id}.webp`,
        'likes.json',
        'posts.json',
        'profile.json',
      ].sort(),
    );

    expect(json(entries, 'profile.json')).toMatchObject({
      id: owner.id,
      username: owner.username,
      email: owner.email,
      settings: { exactPublicLocation: false },
    });

    const exported = json<Record<string, unknown>[]>(entries, 'posts.json');
    expect(exported.map((p) => p.id)).toEqual([located._id, trashed._id]);
    expect(exported[0]).toMatchObject({
      caption: 'A cat at 48.8566131',
      latitude: 48.8566131,
      longitude: 2.3522219,
      showLocation: false,
      altText: null,
      editedAt: null,
      deletedAt: null,
      likeCount: 1,
      sharedWithGroups: [{ id: groupId, name: 'Export club' }],
      image: `images/${located._id}.webp`,
    });
    expect(exported[1]).toMatchObject({ latitude: 41.3873974, longitude: 2.1685091, likeCount: 0 });
    expect(typeof exported[1]!.deletedAt).toBe('string');

    expect(json(entries, 'comments.json')).toEqual([
      { id: commentId, postId: othersPost._id, body: 'Lovely whiskers', createdAt: expect.any(String) },
    ]);
    expect(json(entries, 'likes.json')).toEqual([{ postId: othersPost._id, createdAt: expect.any(String) }]);
    expect(json(entries, 'groups.json')).toEqual([
      { id: groupId, name: 'Export club', role: 'owner', joinedAt: expect.any(String) },
    ]);

    // Nobody else's position anywhere in the archive, in any spelling.
    const text = [...entries]
      .filter(([name]) => name.endsWith('.json'))
      .map(([, b]) => b.toString('utf8'))
      .join('\n');
    for (const needle of ['52.52', '13.40', othersPost.caption ?? 'A cat at 52'])
      expect(text).not.toContain(needle);

    // The images are the stored 1600 px variants, byte for byte.
    for (const post of [located, trashed]) {
      const [row] = await t.db.select({ mediaKey: posts.mediaKey }).from(posts).where(eq(posts.id, post._id));
      const stored = await t.storage.get(variantKey(row!.mediaKey, 1600));
      expect(entries.get(`images/${post._id}.webp`)!.equals(await readAll(stored!.body))).toBe(true);
    }
  });

  it('refuses a second export while one runs, and starts again after one finished', async () => {
    const [before] = await t.db.select().from(dataExports).where(eq(dataExports.userId, owner.id));
    expect(before?.status).toBe('ready');
    await t.db.update(dataExports).set({ status: 'running' }).where(eq(dataExports.userId, owner.id));
    const refused = await call(t.app, own, 'POST', '/api/profile/export');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: DATA_EXPORT_MESSAGES.alreadyRunning });
    await t.db.update(dataExports).set({ status: 'ready' }).where(eq(dataExports.userId, owner.id));

    const again = await call(t.app, own, 'POST', '/api/profile/export');
    expect(again.statusCode, again.body).toBe(202);
    expect((await waitUntilFinished(own)).status).toBe('ready');
    const [after] = await t.db.select().from(dataExports).where(eq(dataExports.userId, owner.id));
    expect(after!.fileKey).not.toBe(before!.fileKey);
    // The replaced file is gone from the storage.
    expect(await t.storage.exists(before!.fileKey!)).toBe(false);
    expect(await t.storage.exists(after!.fileKey!)).toBe(true);
  });

  it('shows an export whose instance died as interrupted, and lets it start again', async () => {
    const user = await createUser(t.db);
    const headers = await authHeader(t.app, user.id);
    await t.db.insert(dataExports).values({
      userId: user.id,
      status: 'running',
      createdAt: new Date(Date.now() - STALE_EXPORT_MS - 60_000),
    });
    expect(await statusOf(headers)).toMatchObject({
      status: 'failed',
      message: DATA_EXPORT_MESSAGES.interrupted,
    });
    expect((await call(t.app, headers, 'POST', '/api/profile/export')).statusCode).toBe(202);
    const finished = await waitUntilFinished(headers);
    expect(finished.status).toBe('ready');
    const entries = await unzip(
      (await call(t.app, headers, 'GET', '/api/profile/export/download')).rawPayload,
    );
    expect(json(entries, 'posts.json')).toEqual([]);
  });

  it('removes exports a day after they finished', async () => {
    const [row] = await t.db.select().from(dataExports).where(eq(dataExports.userId, owner.id));
    const service = createDataExportService({
      db: t.db,
      storage: t.storage,
      log: t.app.log,
      tmpDir: t.app.uploads.dir,
    });
    expect(await service.sweep(new Date())).toBe(0);
    const later = new Date(row!.finishedAt!.getTime() + 24 * 60 * 60 * 1000 + 1000);
    expect((await call(t.app, own, 'GET', '/api/profile/export')).json()).toMatchObject({ status: 'ready' });
    expect(await service.sweep(later)).toBeGreaterThanOrEqual(1);
    expect(await t.storage.exists(row!.fileKey!)).toBe(false);
    expect(await statusOf(own)).toMatchObject({ status: 'none' });
    expect((await call(t.app, own, 'GET', '/api/profile/export/download')).statusCode).toBe(404);
  });

  it("deleting the account removes its export's file", async () => {
    const user = await createUser(t.db);
    const headers = await authHeader(t.app, user.id);
    expect((await call(t.app, headers, 'POST', '/api/profile/export')).statusCode).toBe(202);
    expect((await waitUntilFinished(headers)).status).toBe('ready');
    const [row] = await t.db.select().from(dataExports).where(eq(dataExports.userId, user.id));
    expect(await t.storage.exists(row!.fileKey!)).toBe(true);
    const deleted = await call(t.app, headers, 'DELETE', `/api/profile/deleteUser/${user.id}`);
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect(await t.storage.exists(row!.fileKey!)).toBe(false);
    expect(await t.db.select().from(dataExports).where(eq(dataExports.userId, user.id))).toEqual([]);
  });

  it('refuses the demo account', async () => {
    const demo = await authHeader(t.app, DEMO_USER_ID);
    const res = await call(t.app, demo, 'POST', '/api/profile/export');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: DEMO_DISABLED_MESSAGE });
    expect(await t.db.select().from(dataExports).where(eq(dataExports.userId, DEMO_USER_ID))).toEqual([]);
  });

  it('needs a signed-in caller', async () => {
    for (const [method, url] of [
      ['POST', '/api/profile/export'],
      ['GET', '/api/profile/export'],
      ['GET', '/api/profile/export/download'],
    ] as const) {
      const res = await call(t.app, {}, method, url);
      expect(res.statusCode, url).toBe(401);
    }
  });
});
