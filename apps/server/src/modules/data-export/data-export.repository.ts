import { and, asc, eq, isNull, lt, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { alias } from 'drizzle-orm/pg-core';
import {
  catCaretakers,
  catFollows,
  catMerges,
  cats,
  catSuggestions,
  comments,
  dataExports,
  groupMembers,
  groups,
  likes,
  missingAlerts,
  missingReports,
  posts,
  users,
} from '../../db/schema/index.ts';
import { notBlockedWith } from '../visibility/visibility.ts';

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
      homeAreaLatitude: users.homeAreaLatitude,
      homeAreaLongitude: users.homeAreaLongitude,
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
      catId: posts.catId,
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

/** The cats the user cares for (issue 26), with their home point: theirs as a caretaker. */
export async function caredForCats(ex: Executor, userId: string) {
  return ex
    .select({
      id: cats.id,
      name: cats.name,
      description: cats.description,
      coatColours: cats.coatColours,
      earTipped: cats.earTipped,
      neutered: cats.neutered,
      living: cats.living,
      homeLatitude: cats.homeLatitude,
      homeLongitude: cats.homeLongitude,
      createdBy: cats.createdBy,
      since: catCaretakers.createdAt,
    })
    .from(catCaretakers)
    .innerJoin(cats, eq(cats.id, catCaretakers.catId))
    .where(eq(catCaretakers.userId, userId))
    .orderBy(asc(catCaretakers.createdAt), asc(cats.id));
}

/** The cats the user follows: their names only (the rest is the caretakers'). */
export async function followedCats(ex: Executor, userId: string) {
  return ex
    .select({ id: cats.id, name: cats.name, since: catFollows.createdAt })
    .from(catFollows)
    .innerJoin(cats, eq(cats.id, catFollows.catId))
    .where(eq(catFollows.userId, userId))
    .orderBy(asc(catFollows.createdAt), asc(cats.id));
}

/**
 * Cats the user created and no longer cares for: their id and name only (the rest is the caretakers'
 * now, their home point above all). Profiles merged into another are in cat-merges.json instead.
 */
export async function createdCatsNotCaredFor(ex: Executor, userId: string) {
  return ex
    .select({ id: cats.id, name: cats.name, createdAt: cats.createdAt })
    .from(cats)
    .where(
      and(
        eq(cats.createdBy, userId),
        isNull(cats.mergedInto),
        // cats.id spelt out: a single table's column is written unqualified.
        sql`not exists (select 1 from cat_caretakers cc where cc.cat_id = cats.id and cc.user_id = ${userId})`,
      ),
    )
    .orderBy(asc(cats.createdAt), asc(cats.id));
}

/** A page of the missing-cat alerts the user raised (issue 26), oldest first, their place exact: theirs. */
export async function raisedAlertsPage(
  ex: Executor,
  userId: string,
  cursor: ExportCursor | null,
  limit: number,
) {
  return ex
    .select({
      alert: missingAlerts,
      catName: cats.name,
      key: timeKey(missingAlerts.createdAt),
    })
    .from(missingAlerts)
    .innerJoin(cats, eq(cats.id, missingAlerts.catId))
    .where(
      and(eq(missingAlerts.raisedBy, userId), afterCursor(missingAlerts.createdAt, missingAlerts.id, cursor)),
    )
    .orderBy(asc(missingAlerts.createdAt), asc(missingAlerts.id))
    .limit(limit);
}

/**
 * A page of the sighting reports ('I saw this cat' without a photo) the user sent, oldest first, with
 * the cat's name. Reports on an alert raised by someone the user shares a block with are left out: the
 * app no longer shows them that alert, and a block leaves no trace.
 */
export async function ownReportsPage(
  ex: Executor,
  userId: string,
  cursor: ExportCursor | null,
  limit: number,
) {
  return ex
    .select({
      id: missingReports.id,
      alertId: missingReports.alertId,
      catId: missingAlerts.catId,
      catName: cats.name,
      seenAt: missingReports.seenAt,
      latitude: missingReports.latitude,
      longitude: missingReports.longitude,
      note: missingReports.note,
      createdAt: missingReports.createdAt,
      key: timeKey(missingReports.createdAt),
    })
    .from(missingReports)
    .innerJoin(missingAlerts, eq(missingAlerts.id, missingReports.alertId))
    .innerJoin(cats, eq(cats.id, missingAlerts.catId))
    .where(
      and(
        eq(missingReports.reporterId, userId),
        notBlockedWith(userId, missingAlerts.raisedBy),
        afterCursor(missingReports.createdAt, missingReports.id, cursor),
      ),
    )
    .orderBy(asc(missingReports.createdAt), asc(missingReports.id))
    .limit(limit);
}

const suggestionColumns = {
  id: catSuggestions.id,
  postId: catSuggestions.postId,
  catId: catSuggestions.catId,
  catName: cats.name,
  status: catSuggestions.status,
  createdAt: catSuggestions.createdAt,
  answeredAt: catSuggestions.answeredAt,
  key: timeKey(catSuggestions.createdAt),
};

/**
 * 'This is Luna' suggestions the user made on others' pictures, oldest first: the picture's id only
 * (its caption and place are its author's). Those on pictures of someone the user shares a block with
 * are left out.
 */
export async function suggestionsMadePage(
  ex: Executor,
  userId: string,
  cursor: ExportCursor | null,
  limit: number,
) {
  return ex
    .select(suggestionColumns)
    .from(catSuggestions)
    .innerJoin(posts, eq(posts.id, catSuggestions.postId))
    .innerJoin(cats, eq(cats.id, catSuggestions.catId))
    .where(
      and(
        eq(catSuggestions.suggestedBy, userId),
        notBlockedWith(userId, posts.userId),
        afterCursor(catSuggestions.createdAt, catSuggestions.id, cursor),
      ),
    )
    .orderBy(asc(catSuggestions.createdAt), asc(catSuggestions.id))
    .limit(limit);
}

/**
 * Suggestions others made on the user's pictures (the trashed ones too), oldest first, with the
 * suggester's username (never their email); suggesters the user shares a block with are left out, as
 * the app leaves them out of the picture's list.
 */
export async function suggestionsReceivedPage(
  ex: Executor,
  userId: string,
  cursor: ExportCursor | null,
  limit: number,
) {
  return ex
    .select({ ...suggestionColumns, suggestedBy: users.username })
    .from(catSuggestions)
    .innerJoin(posts, eq(posts.id, catSuggestions.postId))
    .innerJoin(cats, eq(cats.id, catSuggestions.catId))
    .innerJoin(users, eq(users.id, catSuggestions.suggestedBy))
    .where(
      and(
        eq(posts.userId, userId),
        notBlockedWith(userId, catSuggestions.suggestedBy),
        afterCursor(catSuggestions.createdAt, catSuggestions.id, cursor),
      ),
    )
    .orderBy(asc(catSuggestions.createdAt), asc(catSuggestions.id))
    .limit(limit);
}

const duplicateCats = alias(cats, 'duplicate_cats');

/** The cat merges the user performed, oldest first: which profile went into which, and any undo. */
export async function mergesPerformedPage(
  ex: Executor,
  userId: string,
  cursor: ExportCursor | null,
  limit: number,
) {
  return ex
    .select({
      id: catMerges.id,
      catId: catMerges.catId,
      catName: cats.name,
      duplicateCatId: catMerges.duplicateCatId,
      duplicateCatName: duplicateCats.name,
      mergedAt: catMerges.mergedAt,
      undoneAt: catMerges.undoneAt,
      undoneBy: catMerges.undoneBy,
      key: timeKey(catMerges.mergedAt),
    })
    .from(catMerges)
    .innerJoin(cats, eq(cats.id, catMerges.catId))
    .innerJoin(duplicateCats, eq(duplicateCats.id, catMerges.duplicateCatId))
    .where(and(eq(catMerges.mergedBy, userId), afterCursor(catMerges.mergedAt, catMerges.id, cursor)))
    .orderBy(asc(catMerges.mergedAt), asc(catMerges.id))
    .limit(limit);
}
