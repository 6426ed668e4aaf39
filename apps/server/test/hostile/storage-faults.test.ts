import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.ts';
import { STORE_FAILED_MESSAGE } from '../../src/media/image-pipeline.ts';
import { sweepOrphanMedia } from '../../src/media/orphan-sweep.ts';
import type { MediaStorage } from '../../src/media/storage.ts';
import { buildTestApp, type TestApp } from '../build-app.ts';
import { multipartBody } from '../fixtures/images.ts';
import { mediaFiles, rowCounts } from './support/snapshot.ts';
import { actor, smallJpeg, uploadPost, type Actor } from './support/world.ts';

/**
 * The media store failing in the middle of an upload (some variants written, then an error): the
 * client gets a clear, retryable 503 {message}, and nothing half-written remains (no row, no file).
 */

/**
 * Wraps the app's storage in place (the app holds this very object): the first `okWrites` puts
 * succeed, every later one fails, as a disk that fills up or a bucket that goes away mid-upload.
 */
function failingAfter(storage: MediaStorage, okWrites: number, opts: { failDeletes?: boolean } = {}) {
  const put = storage.put.bind(storage);
  const deletePrefix = storage.deletePrefix.bind(storage);
  let writes = 0;
  storage.put = async (key, body, type) => {
    writes += 1;
    if (writes > okWrites)
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    return put(key, body, type);
  };
  if (opts.failDeletes) {
    storage.deletePrefix = async () => {
      throw new Error('store unreachable');
    };
  }
  return {
    get attempted() {
      return writes;
    },
    restore() {
      storage.put = put;
      storage.deletePrefix = deletePrefix;
    },
  };
}

describe('storage faults during uploads', () => {
  let t: TestApp;
  let a: Actor;
  let restore: (() => void) | undefined;

  beforeAll(async () => {
    t = await buildTestApp();
    a = await actor(t.app, t);
  });
  afterEach(() => restore?.());
  afterAll(async () => {
    await t?.close();
  });

  const post = async (image: Buffer) => {
    const body = multipartBody(
      { comment: 'mid-upload failure' },
      { name: 'c.jpg', type: 'image/jpeg', data: image },
    );
    return t.app.inject({
      method: 'POST',
      url: '/api/posts/createPost',
      headers: { ...a.headers, ...body.headers },
      payload: body.payload,
    });
  };
  const picture = async (image: Buffer) => {
    const body = multipartBody({}, { name: 'me.jpg', type: 'image/jpeg', data: image });
    return t.app.inject({
      method: 'PUT',
      url: '/api/profile/updatePicture',
      headers: { ...a.headers, ...body.headers },
      payload: body.payload,
    });
  };

  it("answers 503 with a clear message and leaves no row and no file when a post's variants fail half-way", async () => {
    const [rowsBefore, filesBefore] = [await rowCounts(t.db), mediaFiles(t.mediaDir)];
    const fault = failingAfter(t.storage, 3);
    restore = fault.restore;
    const res = await post(await smallJpeg(1, 200));
    expect(fault.attempted).toBe(6);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: STORE_FAILED_MESSAGE });
    expect(await rowCounts(t.db)).toEqual(rowsBefore);
    expect(mediaFiles(t.mediaDir)).toEqual(filesBefore);

    // The same upload succeeds once the store is back.
    fault.restore();
    expect((await post(await smallJpeg(1, 200))).statusCode).toBe(201);
  });

  it("keeps an identical image's files that another post already uses", async () => {
    const image = await smallJpeg(2, 200);
    const existing = await uploadPost(t.app, a.headers, image);
    const filesBefore = mediaFiles(t.mediaDir);
    restore = failingAfter(t.storage, 2).restore;
    const res = await post(image);
    expect(res.statusCode).toBe(503);
    expect(mediaFiles(t.mediaDir)).toEqual(filesBefore);
    restore();
    for (const url of Object.values(existing.image.variants)) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    }
  });

  it('answers 503 for a profile picture and leaves the old picture in place', async () => {
    const first = await picture(await smallJpeg(3, 200));
    expect(first.statusCode).toBe(200);
    const [before] = await t.db
      .select({ key: users.profilePicKey })
      .from(users)
      .where(eq(users.id, a.user.id));
    const filesBefore = mediaFiles(t.mediaDir);
    restore = failingAfter(t.storage, 1).restore;
    const res = await picture(await smallJpeg(4, 200));
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: STORE_FAILED_MESSAGE });
    const [after] = await t.db
      .select({ key: users.profilePicKey })
      .from(users)
      .where(eq(users.id, a.user.id));
    expect(after!.key).toBe(before!.key);
    expect(mediaFiles(t.mediaDir)).toEqual(filesBefore);
  });

  it('leaves files for the orphan sweep when even the clean-up fails, and the sweep removes them', async () => {
    const [rowsBefore, filesBefore] = [await rowCounts(t.db), mediaFiles(t.mediaDir)];
    const fault = failingAfter(t.storage, 4, { failDeletes: true });
    restore = fault.restore;
    const res = await post(await smallJpeg(5, 200));
    expect(res.statusCode).toBe(503);
    expect(await rowCounts(t.db)).toEqual(rowsBefore);
    const left = mediaFiles(t.mediaDir).filter((f) => !filesBefore.includes(f));
    expect(left).toHaveLength(4);
    fault.restore();
    const deleted = await sweepOrphanMedia({ db: t.db, storage: t.storage, graceMs: 0 });
    expect(deleted).toEqual([left[0]!.split('/').slice(0, 2).join('/')]);
    expect(mediaFiles(t.mediaDir)).toEqual(filesBefore);
  });

  it('removes the written files when the row cannot be inserted after them', async () => {
    const [rowsBefore, filesBefore] = [await rowCounts(t.db), mediaFiles(t.mediaDir)];
    const transaction = t.db.transaction.bind(t.db);
    t.db.transaction = (async () => {
      throw new Error('insert failed');
    }) as typeof t.db.transaction;
    restore = () => {
      t.db.transaction = transaction;
    };
    const res = await post(await smallJpeg(6, 200));
    restore();
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Internal Server Error' });
    expect(await rowCounts(t.db)).toEqual(rowsBefore);
    expect(mediaFiles(t.mediaDir)).toEqual(filesBefore);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});
