import { and, asc, desc, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { GroupRole } from '@cats/contracts';
import type { Executor } from '../../db/client.ts';
import { groupMembers, groups, joinRequests, postGroups, posts, users } from '../../db/schema/index.ts';

export interface GroupRow {
  id: string;
  name: string;
  code: string;
  ownerId: string;
}

export interface UserGroupRow {
  id: string;
  name: string;
  role: GroupRole;
}

export interface MemberRow {
  userId: string;
  username: string;
  profilePicKey: string | null;
  role: GroupRole;
  joinedAt: Date;
}

export interface RequestRow {
  userId: string;
  username: string;
  profilePicKey: string | null;
  requestedAt: Date;
}

/** PostgreSQL's unique_violation, whichever driver (pg or PGlite) and however drizzle wraps it. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

export async function insertGroup(db: Executor, values: { name: string; code: string; ownerId: string }) {
  const [row] = await db.insert(groups).values(values).returning({ id: groups.id });
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function insertMember(db: Executor, groupId: string, userId: string, role: GroupRole) {
  await db.insert(groupMembers).values({ groupId, userId, role }).onConflictDoNothing();
}

/** The user's groups with their role, oldest membership first. */
export async function listUserGroups(db: Executor, userId: string): Promise<UserGroupRow[]> {
  return db
    .select({ id: groups.id, name: groups.name, role: groupMembers.role })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(eq(groupMembers.userId, userId))
    .orderBy(asc(groupMembers.joinedAt), asc(groups.id));
}

/** The group whose code is any of `codes`, compared case-insensitively (groups_code_lower_idx). */
export async function findGroupByCode(db: Executor, codes: readonly string[]): Promise<GroupRow | null> {
  if (codes.length === 0) return null;
  const lowered = sql.join(
    codes.map((c) => sql`lower(${c})`),
    sql`, `,
  );
  const [row] = await db
    .select({ id: groups.id, name: groups.name, code: groups.code, ownerId: groups.ownerId })
    .from(groups)
    .where(sql`lower(${groups.code}) in (${lowered})`)
    .limit(1);
  return row ?? null;
}

/** The group and the user's role in it; null when the group does not exist or the user is no member. */
export async function findGroupForMember(
  db: Executor,
  groupId: string,
  userId: string,
): Promise<(GroupRow & { role: GroupRole }) | null> {
  const [row] = await db
    .select({
      id: groups.id,
      name: groups.name,
      code: groups.code,
      ownerId: groups.ownerId,
      role: groupMembers.role,
    })
    .from(groups)
    .innerJoin(groupMembers, and(eq(groupMembers.groupId, groups.id), eq(groupMembers.userId, userId)))
    .where(eq(groups.id, groupId))
    .limit(1);
  return row ?? null;
}

export async function findRole(db: Executor, groupId: string, userId: string): Promise<GroupRole | null> {
  const [row] = await db
    .select({ role: groupMembers.role })
    .from(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)))
    .limit(1);
  return row?.role ?? null;
}

/** Owner first, then members by joining date. */
export async function listMembers(db: Executor, groupId: string): Promise<MemberRow[]> {
  return db
    .select({
      userId: users.id,
      username: users.username,
      profilePicKey: users.profilePicKey,
      role: groupMembers.role,
      joinedAt: groupMembers.joinedAt,
    })
    .from(groupMembers)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(eq(groupMembers.groupId, groupId))
    .orderBy(sql`${groupMembers.role} = 'owner' desc`, asc(groupMembers.joinedAt), asc(users.id));
}

export async function listJoinRequests(db: Executor, groupId: string): Promise<RequestRow[]> {
  return db
    .select({
      userId: users.id,
      username: users.username,
      profilePicKey: users.profilePicKey,
      requestedAt: joinRequests.createdAt,
    })
    .from(joinRequests)
    .innerJoin(users, eq(users.id, joinRequests.userId))
    .where(eq(joinRequests.groupId, groupId))
    .orderBy(asc(joinRequests.createdAt), asc(users.id));
}

/** The user's own requests still waiting for an answer, newest first (issue 28, point 7). */
export async function listOwnJoinRequests(
  db: Executor,
  userId: string,
): Promise<{ groupId: string; groupName: string; requestedAt: Date }[]> {
  return db
    .select({ groupId: groups.id, groupName: groups.name, requestedAt: joinRequests.createdAt })
    .from(joinRequests)
    .innerJoin(groups, eq(groups.id, joinRequests.groupId))
    .where(eq(joinRequests.userId, userId))
    .orderBy(desc(joinRequests.createdAt), asc(groups.id));
}

/** False when the request already existed (the primary key keeps it single). */
export async function insertJoinRequest(db: Executor, groupId: string, userId: string): Promise<boolean> {
  const rows = await db
    .insert(joinRequests)
    .values({ groupId, userId })
    .onConflictDoNothing()
    .returning({ groupId: joinRequests.groupId });
  return rows.length > 0;
}

export async function hasJoinRequest(db: Executor, groupId: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: joinRequests.userId })
    .from(joinRequests)
    .where(and(eq(joinRequests.groupId, groupId), eq(joinRequests.userId, userId)))
    .limit(1);
  return rows.length > 0;
}

/** True when a request was there to delete. */
export async function deleteJoinRequest(db: Executor, groupId: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(joinRequests)
    .where(and(eq(joinRequests.groupId, groupId), eq(joinRequests.userId, userId)))
    .returning({ userId: joinRequests.userId });
  return rows.length > 0;
}

/** True when the user was a member. */
export async function deleteMember(db: Executor, groupId: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)))
    .returning({ userId: groupMembers.userId });
  return rows.length > 0;
}

export async function updateCode(db: Executor, groupId: string, code: string): Promise<void> {
  await db.update(groups).set({ code }).where(eq(groups.id, groupId));
}

export async function deleteGroup(db: Executor, groupId: string): Promise<void> {
  await db.delete(groups).where(eq(groups.id, groupId));
}

export async function findPostOwner(db: Executor, postId: string): Promise<string | null> {
  const [row] = await db
    .select({ userId: posts.userId })
    .from(posts)
    .where(and(eq(posts.id, postId), isNull(posts.deletedAt)))
    .limit(1);
  return row?.userId ?? null;
}

/** Of the given groups, those the user belongs to (any role). */
export async function memberGroupIds(
  db: Executor,
  userId: string,
  groupIds: readonly string[],
): Promise<string[]> {
  if (groupIds.length === 0) return [];
  const rows = await db
    .select({ groupId: groupMembers.groupId })
    .from(groupMembers)
    .where(and(eq(groupMembers.userId, userId), inArray(groupMembers.groupId, [...groupIds])));
  return rows.map((r) => r.groupId);
}

/**
 * Makes the post's shares exactly `groupIds`; existing shares keep their date. `userId` is the post's
 * author, whose membership of each group the database checks (post_groups_membership_fk). Returns the
 * groups the post was newly shared with and those it no longer is.
 */
export async function replacePostGroups(
  db: Executor,
  postId: string,
  userId: string,
  groupIds: readonly string[],
): Promise<{ added: string[]; removed: string[] }> {
  const removed = await db
    .delete(postGroups)
    .where(
      groupIds.length > 0
        ? and(eq(postGroups.postId, postId), notInArray(postGroups.groupId, [...groupIds]))
        : eq(postGroups.postId, postId),
    )
    .returning({ groupId: postGroups.groupId });
  const added =
    groupIds.length > 0
      ? await db
          .insert(postGroups)
          .values(groupIds.map((groupId) => ({ postId, groupId, userId })))
          .onConflictDoNothing()
          .returning({ groupId: postGroups.groupId })
      : [];
  return { added: added.map((r) => r.groupId), removed: removed.map((r) => r.groupId) };
}

export async function listPostGroupIds(db: Executor, postId: string): Promise<string[]> {
  const rows = await db
    .select({ groupId: postGroups.groupId })
    .from(postGroups)
    .where(eq(postGroups.postId, postId))
    .orderBy(asc(postGroups.sharedAt), asc(postGroups.groupId));
  return rows.map((r) => r.groupId);
}
