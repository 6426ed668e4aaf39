/**
 * The trash (issue 24): a post moved to its owner's trash and back, the trash's listing, and the purge
 * of what has been there past its time.
 */
import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-results.ts';
import { posts } from '../../db/schema/index.ts';

/** Moves the owner's live post to their trash; null when it is not theirs, unknown or already there. */
export async function trashPost(
  db: Executor,
  postId: string,
  ownerId: string,
  now: Date,
): Promise<{ id: string; deletedAt: Date } | null> {
  const [row] = await db
    .update(posts)
    .set({ deletedAt: now })
    .where(and(eq(posts.id, postId), eq(posts.userId, ownerId), isNull(posts.deletedAt)))
    .returning({ id: posts.id, deletedAt: posts.deletedAt });
  return row?.deletedAt ? { id: row.id, deletedAt: row.deletedAt } : null;
}

/** Takes the post out of its owner's trash, as it was; false when it is not in their trash. */
export async function restorePost(db: Executor, postId: string, ownerId: string): Promise<boolean> {
  const rows = await db
    .update(posts)
    .set({ deletedAt: null })
    .where(and(eq(posts.id, postId), eq(posts.userId, ownerId), isNotNull(posts.deletedAt)))
    .returning({ id: posts.id });
  return rows.length > 0;
}

/** The owner's trashed posts with when each was deleted, newest deletion first (posts_user_trash_idx). */
export async function trashedPostIds(
  db: Executor,
  ownerId: string,
  limit: number,
): Promise<{ id: string; deletedAt: Date }[]> {
  const rows = await db
    .select({ id: posts.id, deletedAt: posts.deletedAt })
    .from(posts)
    .where(and(eq(posts.userId, ownerId), isNotNull(posts.deletedAt)))
    .orderBy(desc(posts.deletedAt), desc(posts.id))
    .limit(limit);
  return rows.flatMap((r) => (r.deletedAt ? [{ id: r.id, deletedAt: r.deletedAt }] : []));
}

/**
 * Deletes up to `limit` posts trashed before `cutoff` (likes, comments, hides and group shares cascade)
 * and returns their media prefixes. SKIP LOCKED: instances sweeping at once take different rows, and a
 * row one of them deleted is simply gone for the others.
 */
export async function purgeTrashedBefore(db: Executor, cutoff: Date, limit: number): Promise<string[]> {
  const rows = rowsOf(
    await db.execute(sql`delete from ${posts} where ${posts.id} in (
        select p.id from ${posts} p where p.deleted_at is not null and p.deleted_at < ${cutoff.toISOString()}::timestamptz
        order by p.deleted_at limit ${limit} for update skip locked)
      returning ${posts.mediaKey} as media_key`),
  );
  return rows.map((row) => String(row.media_key));
}
