import { and, eq, gt, isNull, sql, type AnyColumn } from 'drizzle-orm';
import { AUTO_HIDE_REPORTERS, TRUSTED_REPORTER_DAYS, type ReportTargetType } from '@cats/contracts';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-results.ts';
import { cats, comments, posts, reports, users } from '../../db/schema/index.ts';
import { notBlockedWith, postVisibleTo } from '../visibility/visibility.ts';

/**
 * SQL of reporting (issue 27, "Reporting"). Targets are read as the reporter may see them; the report,
 * the reporter's hide and the auto-hide are written in the caller's transaction.
 */

/** One reporter's requests are taken one at a time, so that the hourly count cannot be raced past. */
export async function lockReporter(tx: Executor, reporterId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('reports'), hashtext(${reporterId}))`);
}

/**
 * Reports the reporter sent or updated in the last hour (reports_reporter_updated_idx), and the seconds
 * until the oldest of them leaves that hour.
 */
export async function reportsInLastHour(
  tx: Executor,
  reporterId: string,
): Promise<{ count: number; secondsToWait: number }> {
  const [row] = await tx
    .select({
      count: sql<number>`count(*)`.mapWith(Number),
      secondsToWait:
        sql<number>`coalesce(ceil(extract(epoch from (min(${reports.updatedAt}) + interval '1 hour' - now()))), 0)`.mapWith(
          Number,
        ),
    })
    .from(reports)
    .where(and(eq(reports.reporterId, reporterId), gt(reports.updatedAt, sql`now() - interval '1 hour'`)));
  return { count: row?.count ?? 0, secondsToWait: row?.secondsToWait ?? 0 };
}

/** What a report keeps of its target, and whose content it is. */
export interface ReportTarget {
  targetUserId: string | null;
  snapshot: Record<string, unknown>;
}

/**
 * Content hidden by moderation, or by its author's suspension, exists for nobody but its author, who
 * cannot report it anyway.
 */
const notModerated = (table: { moderation: AnyColumn; authorSuspended: AnyColumn }) =>
  sql`(${table.moderation} is null and not ${table.authorSuspended})`;

/**
 * A live post the reporter may see: not trashed, no block either way with its author, not hidden by
 * moderation. A post the reporter hid (or reported, which hides it) still counts: they reach it from
 * their hidden pictures, and reporting it again updates the report. Locked until the transaction ends,
 * so that concurrent reports of one post count each other for the auto-hide.
 */
export async function findReportablePost(
  tx: Executor,
  postId: string,
  reporterId: string,
): Promise<ReportTarget | null> {
  const [row] = await tx
    .select({
      userId: posts.userId,
      caption: posts.caption,
      catName: posts.catName,
      altText: posts.altText,
      mediaKey: posts.mediaKey,
      createdAt: posts.createdAt,
      username: users.username,
    })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.userId))
    .where(
      and(
        eq(posts.id, postId),
        isNull(posts.deletedAt),
        notModerated(posts),
        notBlockedWith(reporterId, posts.userId),
      ),
    )
    .for('no key update', { of: posts });
  if (!row) return null;
  return {
    targetUserId: row.userId,
    snapshot: {
      caption: row.caption,
      catName: row.catName,
      altText: row.altText,
      mediaKey: row.mediaKey,
      createdAt: row.createdAt.toISOString(),
      author: { id: row.userId, username: row.username },
    },
  };
}

/**
 * A comment the reporter may see: on a post they see (live, not hidden by them, no block with its
 * author), no block with the comment's author, neither hidden by moderation. Reporting it again stays
 * possible although the reporter no longer sees it in the list. Locked like a post.
 */
export async function findReportableComment(
  tx: Executor,
  commentId: string,
  reporterId: string,
): Promise<ReportTarget | null> {
  const [row] = await tx
    .select({
      userId: comments.userId,
      body: comments.body,
      postId: comments.postId,
      createdAt: comments.createdAt,
      username: users.username,
    })
    .from(comments)
    .innerJoin(posts, eq(posts.id, comments.postId))
    .innerJoin(users, eq(users.id, comments.userId))
    .where(
      and(
        eq(comments.id, commentId),
        postVisibleTo(reporterId),
        notModerated(posts),
        notModerated(comments),
        notBlockedWith(reporterId, comments.userId),
      ),
    )
    .for('no key update', { of: comments });
  if (!row) return null;
  return {
    targetUserId: row.userId,
    snapshot: {
      body: row.body,
      postId: row.postId,
      createdAt: row.createdAt.toISOString(),
      author: { id: row.userId, username: row.username },
    },
  };
}

/** A person the reporter may see: no block either way. */
export async function findReportableUser(
  tx: Executor,
  userId: string,
  reporterId: string,
): Promise<ReportTarget | null> {
  const [row] = await tx
    .select({ id: users.id, username: users.username, profilePicKey: users.profilePicKey })
    .from(users)
    .where(and(eq(users.id, userId), notBlockedWith(reporterId, users.id)));
  if (!row) return null;
  return { targetUserId: row.id, snapshot: { username: row.username, profilePicKey: row.profilePicKey } };
}

/**
 * A cat's page as anyone sees it: known, not merged into another (its id only leads on to the survivor,
 * which is what to report) and not removed by a moderator.
 */
export async function findReportableCat(tx: Executor, catId: string): Promise<ReportTarget | null> {
  const [row] = await tx
    .select({
      createdBy: cats.createdBy,
      name: cats.name,
      description: cats.description,
      coverPostId: cats.coverPostId,
    })
    .from(cats)
    .where(and(eq(cats.id, catId), isNull(cats.mergedInto), isNull(cats.removedAt)));
  if (!row) return null;
  return {
    targetUserId: row.createdBy,
    snapshot: { name: row.name, description: row.description, coverPostId: row.coverPostId },
  };
}

export interface ReportValues {
  reporterId: string;
  targetType: ReportTargetType;
  targetId: string;
  targetUserId: string | null;
  reason: string;
  note: string;
  snapshot: Record<string, unknown>;
}

/**
 * Inserts the report, or updates the reporter's earlier report of the same thing: new reason, note and
 * snapshot, open again. `updated` tells which (xmax is 0 on a freshly inserted row).
 */
export async function upsertReport(
  tx: Executor,
  values: ReportValues,
): Promise<{ id: string; updated: boolean }> {
  const [row] = await tx
    .insert(reports)
    .values(values)
    .onConflictDoUpdate({
      target: [reports.reporterId, reports.targetType, reports.targetId],
      set: {
        reason: values.reason,
        note: values.note,
        snapshot: values.snapshot,
        targetUserId: values.targetUserId,
        updatedAt: sql`now()`,
        resolvedAt: null,
      },
    })
    .returning({ id: reports.id, updated: sql<boolean>`(xmax <> 0)`.mapWith(Boolean) });
  if (!row) throw new Error('upsert returned no row');
  return row;
}

/**
 * Hides a post or comment from everyone but its author, pending review, once AUTO_HIDE_REPORTERS
 * distinct trusted reporters (accounts older than TRUSTED_REPORTER_DAYS) have open reports on it.
 * Reporters whose report on it a moderator already decided do not count (issue 46): otherwise the
 * same three would hide it again at once after every dismissal. Content already under moderation
 * stays as it is. True when it was hidden now.
 */
export async function autoHideIfTrustedReports(
  tx: Executor,
  targetType: 'post' | 'comment',
  targetId: string,
): Promise<boolean> {
  const table = targetType === 'post' ? posts : comments;
  const trusted = sql`(select count(distinct r.reporter_id) from ${reports} r
    join ${users} u on u.id = r.reporter_id
    where r.target_type = ${targetType} and r.target_id = ${targetId} and r.resolved_at is null
      and r.decided_at is null
      and u.created_at < now() - make_interval(days => ${sql.raw(String(TRUSTED_REPORTER_DAYS))}))`;
  const result = await tx.execute(
    sql`update ${table} set moderation = 'pending_review'
      where ${table.id} = ${targetId} and ${table.moderation} is null
        and ${trusted} >= ${sql.raw(String(AUTO_HIDE_REPORTERS))}
      returning ${table.id}`,
  );
  return rowsOf(result).length > 0;
}

/**
 * Points the report's snapshot at its private copy of the picture (issue 46), in place of the post's or
 * profile's own key, unless the snapshot changed meanwhile (a second report replaced it). The public
 * key stays as sourceKey, a plain name that keeps no file: the author's statement shows the picture
 * from it for as long as the post is there. True when done.
 */
export async function keepReportPicture(
  db: Executor,
  reportId: string,
  source: { field: 'mediaKey' | 'profilePicKey'; prefix: string },
  copyPrefix: string,
): Promise<boolean> {
  const result = await db.execute(sql`
    update ${reports}
    set snapshot = (snapshot - 'profilePicKey')
      || jsonb_build_object('mediaKey', ${copyPrefix}::text, 'sourceKey', ${source.prefix}::text)
    where id = ${reportId} and snapshot ->> ${source.field} = ${source.prefix}
    returning id`);
  return rowsOf(result).length > 0;
}

/** The key of the report's picture, or null when there is no such report or it has no picture. */
export async function findReportPictureKey(db: Executor, reportId: string): Promise<string | null> {
  const [row] = await db
    .select({
      key: sql<
        string | null
      >`coalesce(${reports.snapshot} ->> 'mediaKey', ${reports.snapshot} ->> 'profilePicKey', ${reports.snapshot} ->> 'coverMediaKey')`,
    })
    .from(reports)
    .where(eq(reports.id, reportId));
  return row?.key ?? null;
}

/**
 * Reports whose snapshot still names a post's or profile's own files (made before issue 46), after
 * `afterId` in id order, a page at a time.
 */
export async function reportsNamingPublicPictures(
  db: Executor,
  afterId: string,
  limit: number,
): Promise<{ id: string; snapshot: Record<string, unknown> }[]> {
  return db
    .select({ id: reports.id, snapshot: sql<Record<string, unknown>>`${reports.snapshot}` })
    .from(reports)
    .where(
      and(
        gt(reports.id, afterId),
        sql`(${reports.snapshot} ->> 'mediaKey' ~ '^(posts|avatars)/'
          or ${reports.snapshot} ->> 'profilePicKey' ~ '^(posts|avatars)/')`,
      ),
    )
    .orderBy(reports.id)
    .limit(limit);
}
