import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../test/build-app.ts';
import { createPost, createUser } from '../../test/factories.ts';
import { comments, likes, posts } from './schema/index.ts';
import { NestedRootQueryError } from './client.ts';

/**
 * Issue 2, point 12: the embedded database is one connection. 200 concurrent operations mixing reads,
 * writes and read-modify-write transactions all finish, and the counts come out exact.
 */
describe('database: concurrency on one connection', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('runs 200 concurrent reads, writes and transactions without interleaving or deadlock', async () => {
    const author = await createUser(t.db);
    const post = await createPost(t.db, author.id);
    const likers = await Promise.all(Array.from({ length: 50 }, () => createUser(t.db)));

    const operations: Promise<unknown>[] = [];
    for (let i = 0; i < 200; i += 1) {
      const kind = i % 4;
      if (kind === 0) {
        // Read.
        operations.push(t.db.select({ n: count() }).from(posts));
      } else if (kind === 1) {
        // Plain write.
        operations.push(
          t.db.insert(comments).values({ postId: post.id, userId: author.id, body: `comment ${i}` }),
        );
      } else if (kind === 2) {
        // Transaction: read then write inside it; another request's statements must not run in between.
        const liker = likers[(i - 2) / 4]!;
        operations.push(
          t.db.transaction(async (tx) => {
            const [before] = await tx.select({ n: count() }).from(likes).where(eq(likes.postId, post.id));
            await tx.insert(likes).values({ postId: post.id, userId: liker.id });
            const [after] = await tx.select({ n: count() }).from(likes).where(eq(likes.postId, post.id));
            if (t.database.kind === 'pglite') expect(after!.n).toBe(before!.n + 1);
          }),
        );
      } else {
        // Transaction that rolls back: its write must not be visible afterwards.
        operations.push(
          t.db
            .transaction(async (tx) => {
              await tx.insert(comments).values({ postId: post.id, userId: author.id, body: 'rolled back' });
              throw new Error('rollback');
            })
            .catch((err: Error) => expect(err.message).toBe('rollback')),
        );
      }
    }
    const results = await Promise.allSettled(operations);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);

    const [likeCount] = await t.db.select({ n: count() }).from(likes).where(eq(likes.postId, post.id));
    expect(likeCount!.n).toBe(50);
    const [commentCount] = await t.db
      .select({ n: count() })
      .from(comments)
      .where(eq(comments.postId, post.id));
    expect(commentCount!.n).toBe(50);
    const [rolledBack] = await t.db
      .select({ n: count() })
      .from(comments)
      .where(eq(comments.body, 'rolled back'));
    expect(rolledBack!.n).toBe(0);
  });

  it('turns a root-database query inside a transaction into an error instead of a deadlock', async () => {
    if (t.database.kind !== 'pglite') return;
    await expect(
      t.db.transaction(async () => {
        await t.db.execute(sql`select 1`);
      }),
    ).rejects.toSatisfy((err: Error) => (err.cause ?? err) instanceof NestedRootQueryError);
    // The connection is still usable afterwards.
    const [row] = await t.db.select({ n: count() }).from(posts);
    expect(row!.n).toBeGreaterThanOrEqual(0);
  });

  it('enforces invariants in the database', async () => {
    const user = await createUser(t.db);
    const post = await createPost(t.db, user.id);
    await t.db.insert(likes).values({ postId: post.id, userId: user.id });
    await expect(t.db.insert(likes).values({ postId: post.id, userId: user.id })).rejects.toThrow();
    await expect(createPost(t.db, user.id, { latitude: 91, longitude: 0 })).rejects.toThrow();
    await expect(createPost(t.db, user.id, { latitude: 10, longitude: null })).rejects.toThrow();
    await expect(createUser(t.db, { username: user.username.toUpperCase() })).rejects.toThrow();
    await expect(
      t.db.insert(comments).values({ postId: post.id, userId: user.id, body: '' }),
    ).rejects.toThrow();
  });
});
