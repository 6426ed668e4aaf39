import { and, count, eq } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { posts, users } from '../../db/schema/index.ts';
import { notBlockedWith, postVisibleTo } from '../visibility/visibility.ts';

export interface ProfileRow {
  id: string;
  username: string;
  email: string;
  profilePicKey: string | null;
  exactPublicLocation: boolean;
  altTextReminder: boolean;
}

const profileColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  profilePicKey: users.profilePicKey,
  exactPublicLocation: users.exactPublicLocation,
  altTextReminder: users.altTextReminder,
};

/** The caller's own profile: with the home area of Settings (issue 26), which nobody else is answered. */
export async function findProfile(
  ex: Executor,
  userId: string,
): Promise<
  (ProfileRow & { homeAreaLatitude: number | null; homeAreaLongitude: number | null; role: string }) | null
> {
  const [row] = await ex
    .select({
      ...profileColumns,
      homeAreaLatitude: users.homeAreaLatitude,
      homeAreaLongitude: users.homeAreaLongitude,
      role: users.role,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

/**
 * The user as the viewer may see them: null when unknown or when either blocked the other. postCount
 * counts the pictures their profile lists to this viewer (postVisibleTo: not trashed, not hidden by
 * the viewer, not moderated away), so the header's number matches the list under it.
 */
export async function findVisibleProfile(
  ex: Executor,
  userId: string,
  viewerId: string,
): Promise<(ProfileRow & { createdAt: Date; postCount: number }) | null> {
  const [row] = await ex
    .select({ ...profileColumns, createdAt: users.createdAt })
    .from(users)
    .where(and(eq(users.id, userId), notBlockedWith(viewerId, users.id)));
  if (!row) return null;
  const [counted] = await ex
    .select({ postCount: count() })
    .from(posts)
    .where(and(eq(posts.userId, userId), postVisibleTo(viewerId)));
  return { ...row, postCount: counted?.postCount ?? 0 };
}

/**
 * Points the user's picture at `key` and answers the key it replaced, read under a row lock so two
 * concurrent uploads each learn the one they replaced. null when the user no longer exists.
 */
export async function replaceProfilePic(
  db: Database,
  userId: string,
  key: string,
): Promise<{ previousKey: string | null } | null> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ key: users.profilePicKey })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!current) return null;
    await tx.update(users).set({ profilePicKey: key }).where(eq(users.id, userId));
    return { previousKey: current.key };
  });
}

/**
 * Whether any user shows this picture. New uploads get keys of their own, but keys were content-addressed
 * before issue 23, so two users may still share one from then.
 */
export async function avatarInUse(ex: Executor, key: string): Promise<boolean> {
  const [row] = await ex.select({ id: users.id }).from(users).where(eq(users.profilePicKey, key)).limit(1);
  return row !== undefined;
}
