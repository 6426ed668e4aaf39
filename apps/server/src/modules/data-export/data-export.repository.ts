import { and, asc, eq, lt, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { comments, dataExports, groupMembers, groups, likes, posts, users } from '../../db/schema/index.ts';

export type ExportRow = typeof dataExports.$inferSelect;

/** A timestamp to the microsecond as text: a keyset cursor that a JavaScript Date would round. */
const timeKey = (column: AnyColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export async function findExport(ex: Executor, userId: string): Promise<ExportRow | null> {
  const [row] = await ex.select().from(dataExports).where(eq(dataExports.userId, userId));
  return row ?? null;
}

/**
 * Marks the user's export running, unless one already runs (and is not older than `staleBefore`: its
 * instance died). Answers the file of the export it replaced, for deletion, or null when one runs. The
 * row lock and the upsert's condition make two simultaneous starts yield one export. `now` comes from
 * JavaScript (milliseconds), so the job can find its row again by it; now() has microseconds.
 */
export async function startExport(
  db: Database,
  userId: string,
  now: Date,
  staleBefore: Date,
): Promise<{ started: ExportRow; replacedKey: string | null } | null> {
  return db.transaction(async (tx) => {
    const [previous] = await tx
      .select({ fileKey: dataExports.fileKey })
      .from(dataExports)
      .where(eq(dataExports.userId, userId))
      .for('update');
    const [started] = await tx
      .insert(dataExports)
      .values({ userId, status: 'running', createdAt: now })
      .onConflictDoUpdate({
        target: dataExports.userId,
        set: {
          status: 'running',
          fileKey: null,
          sizeBytes: null,
          error: null,
          createdAt: now,
          finishedAt: null,
        },
        setWhere: or(sql`${dataExports.status} <> 'running'`, lt(dataExports.createdAt, staleBefore)),
      })
      .returning();
    if (!started) return null;
    return { started, replacedKey: previous?.fileKey ?? null };
  });
}

/** Records the written file; false when this export is no longer the user's (account deleted, say). */
export async function finishExport(
  ex: Executor,
  userId: string,
  startedAt: Date,
  file: { key: string; size: number },
): Promise<boolean> {
  const rows = await ex
    .update(dataExports)
    .set({ status: 'ready', fileKey: file.key, sizeBytes: file.size, finishedAt: sql`now()` })
    .where(
      and(
        eq(dataExports.userId, userId),
        eq(dataExports.status, 'running'),
        eq(dataExports.createdAt, startedAt),
      ),
    )
    .returning({ userId: dataExports.userId });
  return rows.length > 0;
}

export async function failExport(
  ex: Executor,
  userId: string,
  startedAt: Date,
  message: string,
): Promise<void> {
  await ex
    .update(dataExports)
    .set({ status: 'failed', error: message, finishedAt: sql`now()` })
    .where(
      and(
        eq(dataExports.userId, userId),
        eq(dataExports.status, 'running'),
        eq(dataExports.createdAt, startedAt),
      ),
    );
}

/** Exports finished before `before`, and running ones started before `staleBefore` (their instance died). */
export async function expiredExports(ex: Executor, before: Date, staleBefore: Date): Promise<ExportRow[]> {
  return ex
    .select()
    .from(dataExports)
    .where(
      or(
        lt(dataExports.finishedAt, before),
        and(eq(dataExports.status, 'running'), lt(dataExports.createdAt, staleBefore)),
      ),
    )
    .limit(500);
}

/** Removes the row if it is still the one the sweep read (a new export may have replaced it meanwhile). */
export async function deleteExport(ex: Executor, row: ExportRow): Promise<void> {
  await ex
    .delete(dataExports)
    .where(and(eq(dataExports.userId, row.userId), eq(dataExports.createdAt, row.createdAt)));
}

// What goes into the zip. Every query is the owner's own rows; nobody else's position is read.

export async function exportProfile(ex: Executor, userId: string) {
  const [row] = await ex
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      createdAt: users.createdAt,
      exactPublicLocation: users.exactPublicLocation,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

export interface ExportCursor {
  key: string;
  id: string;
}

const afterCursor = (
  timeColumn: AnyColumn,
  idColumn: AnyColumn,
  cursor: ExportCursor | null,
): SQL | undefined =>
  cursor ? sql`(${timeColumn}, ${idColumn}) > (${cursor.key}::timestamptz, ${cursor.id}::uuid)` : undefined;

/** A page of the owner's posts, the trashed ones too, oldest first. */
export async function ownPostsPage(ex: Executor, userId: string, cursor: ExportCursor | null, limit: number) {
  return ex
    .select({
      id: posts.id,
      caption: posts.caption,
      catName: posts.catName,
      altText: posts.altText,
      latitude: posts.latitude,
      longitude: posts.longitude,
      showLocation: posts.showLocation,
      createdAt: posts.createdAt,
      editedAt: posts.editedAt,
      deletedAt: posts.deletedAt,
      mediaKey: posts.mediaKey,
      key: timeKey(posts.createdAt),
      // posts.id spelt out: drizzle writes a single table's column unqualified ("id"), which inside
      // these subqueries would be the group's id.
      likeCount: sql<number>`(select count(*) from likes l where l.post_id = posts.id)`.mapWith(Number),
      groups: sql<string>`(select coalesce(json_agg(json_build_object('id', g.id, 'name', g.name)
        order by pg.shared_at, g.id)::text, '[]') from post_groups pg join groups g on g.id = pg.group_id
        where pg.post_id = posts.id)`,
    })
    .from(posts)
    .where(and(eq(posts.userId, userId), afterCursor(posts.createdAt, posts.id, cursor)))
    .orderBy(asc(posts.createdAt), asc(posts.id))
    .limit(limit);
}

export async function ownCommentsPage(
  ex: Executor,
  userId: string,
  cursor: ExportCursor | null,
  limit: number,
) {
  return ex
    .select({
      id: comments.id,
      postId: comments.postId,
      body: comments.body,
      createdAt: comments.createdAt,
      key: timeKey(comments.createdAt),
    })
    .from(comments)
    .where(and(eq(comments.userId, userId), afterCursor(comments.createdAt, comments.id, cursor)))
    .orderBy(asc(comments.createdAt), asc(comments.id))
    .limit(limit);
}

/** Post ids and dates only: a liked post's caption or position is someone else's. */
export async function ownLikesPage(ex: Executor, userId: string, cursor: ExportCursor | null, limit: number) {
  return ex
    .select({ postId: likes.postId, createdAt: likes.createdAt, key: timeKey(likes.createdAt) })
    .from(likes)
    .where(and(eq(likes.userId, userId), afterCursor(likes.createdAt, likes.postId, cursor)))
    .orderBy(asc(likes.createdAt), asc(likes.postId))
    .limit(limit);
}

export async function ownGroups(ex: Executor, userId: string) {
  return ex
    .select({ id: groups.id, name: groups.name, role: groupMembers.role, joinedAt: groupMembers.joinedAt })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(eq(groupMembers.userId, userId))
    .orderBy(asc(groupMembers.joinedAt), asc(groups.id));
}
