import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_MESSAGES,
  type Post,
} from '@cats/contracts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createUser } from '../../../test/factories.ts';
import { fixture, multipartBody } from '../../../test/fixtures/images.ts';
import { postIdempotencyKeys, posts } from '../../db/schema/index.ts';
import { deleteExpiredKeys } from './idempotency-keys.repository.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

async function newUser() {
  const user = await createUser(t.db);
  return { id: user.id, headers: await authHeader(t.app, user.id) };
}

function send(headers: Record<string, string>, key: string | undefined, fields: Record<string, string> = {}) {
  const body = multipartBody(
    { comment: 'Seen by the bins', ...fields },
    { name: 'photo-gps.jpg', type: 'image/jpeg', data: fixture('photo-gps.jpg') },
  );
  return t.app.inject({
    method: 'POST',
    url: '/api/posts/createPost',
    headers: { ...headers, ...body.headers, ...(key === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER]: key }) },
    payload: body.payload,
  });
}

async function postsOf(userId: string): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(posts).where(eq(posts.userId, userId));
  return row!.n;
}

async function keysOf(userId: string): Promise<number> {
  const [row] = await t.db
    .select({ n: count() })
    .from(postIdempotencyKeys)
    .where(eq(postIdempotencyKeys.userId, userId));
  return row!.n;
}

/** Media prefixes (one directory per post) on disk, to show a losing request leaves no files behind. */
function mediaPrefixes(): string[] {
  const root = join(t.mediaDir, 'posts');
  return existsSync(root) ? readdirSync(root) : [];
}

describe('POST /api/posts/createPost with an Idempotency-Key (issue 28)', () => {
  it('answers the same key twice with one post: 201, the same body, marked as a replay', async () => {
    const user = await newUser();
    const filesBefore = mediaPrefixes().length;
    const first = await send(user.headers, 'a6f1c0de-0000-4000-8000-000000000001');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await send(user.headers, 'a6f1c0de-0000-4000-8000-000000000001');
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    const a = first.json<{ message: string; post: Post }>();
    const b = second.json<{ message: string; post: Post }>();
    expect(b).toEqual(a);
    expect(await postsOf(user.id)).toBe(1);
    expect(mediaPrefixes().length).toBe(filesBefore + 1);
  });

  it('refuses the same key with another picture or other fields (422), storing nothing', async () => {
    const user = await newUser();
    const key = 'a6f1c0de-0000-4000-8000-00000000d1ff';
    expect((await send(user.headers, key)).statusCode).toBe(201);
    const filesBefore = mediaPrefixes().length;

    const otherCaption = await send(user.headers, key, { comment: 'Another cat altogether' });
    expect(otherCaption.statusCode).toBe(422);
    expect(otherCaption.json()).toEqual({ message: IDEMPOTENCY_MESSAGES.mismatch });

    const otherBody = multipartBody(
      { comment: 'Seen by the bins' },
      { name: 'photo-no-gps.jpg', type: 'image/jpeg', data: fixture('photo-no-gps.jpg') },
    );
    const otherPicture = await t.app.inject({
      method: 'POST',
      url: '/api/posts/createPost',
      headers: { ...user.headers, ...otherBody.headers, [IDEMPOTENCY_KEY_HEADER]: key },
      payload: otherBody.payload,
    });
    expect(otherPicture.statusCode).toBe(422);
    expect(otherPicture.json()).toEqual({ message: IDEMPOTENCY_MESSAGES.mismatch });

    expect(await postsOf(user.id)).toBe(1);
    expect(mediaPrefixes().length).toBe(filesBefore);
    // The true retry still gets its post.
    const retry = await send(user.headers, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
  });

  it('takes the draft standard quoted form as the same key', async () => {
    const user = await newUser();
    const first = await send(user.headers, 'quoted-key-1');
    const second = await send(user.headers, '"quoted-key-1"');
    expect(second.json<{ post: Post }>().post._id).toBe(first.json<{ post: Post }>().post._id);
    expect(await postsOf(user.id)).toBe(1);
  });

  it('keeps keys per user: the same key from two users makes two posts', async () => {
    const [alice, bob] = [await newUser(), await newUser()];
    const a = await send(alice.headers, 'shared-key');
    const b = await send(bob.headers, 'shared-key');
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(a.json<{ post: Post }>().post._id).not.toBe(b.json<{ post: Post }>().post._id);
    expect(await postsOf(alice.id)).toBe(1);
    expect(await postsOf(bob.id)).toBe(1);
  });

  it('makes one post of concurrent requests with one key, and the loser leaves no files', async () => {
    const user = await newUser();
    const filesBefore = mediaPrefixes().length;
    const answers = await Promise.all([1, 2, 3].map(() => send(user.headers, 'racing-key')));
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    const ids = new Set(answers.map((r) => r.json<{ post: Post }>().post._id));
    expect(ids.size).toBe(1);
    expect(answers.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(2);
    expect(await postsOf(user.id)).toBe(1);
    expect(await keysOf(user.id)).toBe(1);
    expect(mediaPrefixes().length).toBe(filesBefore + 1);
  });

  it('refuses a malformed key with 400 and a message, storing nothing', async () => {
    const user = await newUser();
    for (const key of ['', 'x'.repeat(256), 'clé', 'tab\there']) {
      const res = await send(user.headers, key);
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
      expect(res.json()).toEqual({ message: IDEMPOTENCY_MESSAGES.invalid });
    }
    const longest = await send(user.headers, '~'.repeat(255));
    expect(longest.statusCode).toBe(201);
    expect(await postsOf(user.id)).toBe(1);
  });

  it('keeps no key for a refused request, so the corrected retry with it posts', async () => {
    const user = await newUser();
    const refused = await send(user.headers, 'fix-and-retry', { catName: 'x'.repeat(41) });
    expect(refused.statusCode).toBe(400);
    expect(await keysOf(user.id)).toBe(0);
    const retried = await send(user.headers, 'fix-and-retry', { catName: 'Tom' });
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await postsOf(user.id)).toBe(1);
  });

  it('answers 409 with a message when the post was deleted meanwhile, and does not make it again', async () => {
    const user = await newUser();
    const first = await send(user.headers, 'deleted-meanwhile');
    const postId = first.json<{ post: Post }>().post._id;
    const del = await t.app.inject({ method: 'DELETE', url: `/api/posts/${postId}`, headers: user.headers });
    expect(del.statusCode).toBe(200);
    const again = await send(user.headers, 'deleted-meanwhile');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: IDEMPOTENCY_MESSAGES.trashed });
    expect(await postsOf(user.id)).toBe(1);
  });

  it('forgets a key after 24 hours: lookups ignore it, a new request takes it over, the sweep deletes it', async () => {
    const user = await newUser();
    await send(user.headers, 'old-key');
    await t.db
      .update(postIdempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(postIdempotencyKeys.userId, user.id));
    const later = await send(user.headers, 'old-key');
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await postsOf(user.id)).toBe(2);
    expect(await keysOf(user.id)).toBe(1);

    await t.db
      .update(postIdempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(postIdempotencyKeys.userId, user.id));
    expect(await deleteExpiredKeys(t.db, new Date())).toBeGreaterThanOrEqual(1);
    expect(await keysOf(user.id)).toBe(0);
  });

  it('keeps refusing the demo account, key or not', async () => {
    const res = await send(await authHeader(t.app, DEMO_USER_ID), 'demo-key');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: DEMO_DISABLED_MESSAGE });
    expect(await keysOf(DEMO_USER_ID)).toBe(0);
  });

  it("goes with the account: deleting it removes the user's keys", async () => {
    const user = await newUser();
    await send(user.headers, 'gone-with-account');
    expect(await keysOf(user.id)).toBe(1);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/profile/deleteUser/${user.id}`,
      headers: user.headers,
    });
    expect(res.statusCode).toBe(204);
    expect(await keysOf(user.id)).toBe(0);
  });
});
