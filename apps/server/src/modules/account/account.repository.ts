import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { posts, users } from '../../db/schema/index.ts';

/** Storage prefixes of everything the user uploaded: each post's images and the profile picture. */
export async function mediaPrefixesOf(db: Executor, userId: string): Promise<string[]> {
  const postKeys = await db.select({ key: posts.mediaKey }).from(posts).where(eq(posts.userId, userId));
  const [user] = await db.select({ key: users.profilePicKey }).from(users).where(eq(users.id, userId));
  const keys = [...postKeys.map((r) => r.key), ...(user?.key ? [user.key] : [])];
  return [...new Set(keys)];
}

/**
 * Media was content-addressed before issue 23 (new uploads get random prefixes), so another user who
 * uploaded the same picture back then shares its prefix: those prefixes must survive the deletion.
 */
export async function prefixesStillInUse(db: Executor, prefixes: string[]): Promise<Set<string>> {
  if (prefixes.length === 0) return new Set();
  const byPosts = await db
    .selectDistinct({ key: posts.mediaKey })
    .from(posts)
    .where(inArray(posts.mediaKey, prefixes));
  const byUsers = await db
    .selectDistinct({ key: users.profilePicKey })
    .from(users)
    .where(inArray(users.profilePicKey, prefixes));
  return new Set([...byPosts, ...byUsers].map((r) => r.key).filter((k): k is string => k !== null));
}

/**
 * Deletes the account row; the foreign keys' ON DELETE CASCADE remove its posts (with their likes,
 * comments, hides and group shares), its own comments, likes, hides, blocks in both directions, owned
 * groups, memberships, join requests and refresh tokens.
 */
export async function deleteUser(db: Executor, userId: string): Promise<boolean> {
  const rows = await db.delete(users).where(eq(users.id, userId)).returning({ id: users.id });
  return rows.length > 0;
}

/** Accounts created before username_skeleton existed (or by an instance that predates it), oldest first. */
export async function usersWithoutSkeleton(db: Executor): Promise<{ id: string; username: string }[]> {
  return db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(isNull(users.usernameSkeleton))
    .orderBy(asc(users.createdAt), asc(users.id));
}

/** Stores the key unless another account holds it already; false then (the account keeps a null key). */
export async function setSkeletonIfFree(db: Executor, userId: string, skeleton: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ usernameSkeleton: skeleton })
    .where(
      and(
        eq(users.id, userId),
        sql`not exists (select 1 from ${users} as other where other.username_skeleton = ${skeleton})`,
      ),
    )
    .returning({ id: users.id });
  return rows.length > 0;
}
