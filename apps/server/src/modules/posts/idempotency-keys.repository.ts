import { and, eq, gt, lte, sql } from 'drizzle-orm';
import { IDEMPOTENCY_KEY_TTL_HOURS } from '@cats/contracts';
import type { Executor } from '../../db/client.ts';
import { postIdempotencyKeys, posts } from '../../db/schema/index.ts';

const TTL = sql.raw(`interval '${IDEMPOTENCY_KEY_TTL_HOURS} hours'`);

/**
 * The post a user's unexpired key made, whether it now sits in the trash, and the hash of the request
 * that made it (null for keys recorded before hashes were kept); null when none.
 */
export async function findKeyedPost(
  db: Executor,
  userId: string,
  key: string,
): Promise<{ postId: string; trashed: boolean; requestHash: string | null } | null> {
  const [row] = await db
    .select({
      postId: postIdempotencyKeys.postId,
      deletedAt: posts.deletedAt,
      requestHash: postIdempotencyKeys.requestHash,
    })
    .from(postIdempotencyKeys)
    .innerJoin(posts, eq(posts.id, postIdempotencyKeys.postId))
    .where(
      and(
        eq(postIdempotencyKeys.userId, userId),
        eq(postIdempotencyKeys.key, key),
        gt(postIdempotencyKeys.createdAt, sql`now() - ${TTL}`),
      ),
    );
  return row ? { postId: row.postId, trashed: row.deletedAt !== null, requestHash: row.requestHash } : null;
}

/**
 * Records that this key made this post, in the post's own transaction. False when the key is taken by an
 * unexpired row: on PostgreSQL the insert first waits for a concurrent transaction holding the same key,
 * so false means that one committed. An expired row is taken over (the sweep may not have run yet).
 */
export async function claimKey(
  db: Executor,
  userId: string,
  key: string,
  postId: string,
  requestHash: string,
): Promise<boolean> {
  const rows = await db
    .insert(postIdempotencyKeys)
    .values({ userId, key, postId, requestHash })
    .onConflictDoUpdate({
      target: [postIdempotencyKeys.userId, postIdempotencyKeys.key],
      set: { postId, requestHash, createdAt: sql`now()` },
      setWhere: lte(postIdempotencyKeys.createdAt, sql`now() - ${TTL}`),
    })
    .returning({ postId: postIdempotencyKeys.postId });
  return rows.length > 0;
}

/** Deletes keys past their time (the daily trash sweep); returns how many. */
export async function deleteExpiredKeys(db: Executor, now: Date): Promise<number> {
  const rows = await db
    .delete(postIdempotencyKeys)
    .where(lte(postIdempotencyKeys.createdAt, sql`${now.toISOString()}::timestamptz - ${TTL}`))
    .returning({ key: postIdempotencyKeys.key });
  return rows.length;
}
