import { and, desc, eq, sql } from 'drizzle-orm';
import type { ReportTargetType } from '@cats/contracts';
import type { Executor } from '../../db/client.ts';
import { cats, comments, moderationActions, posts, reports, users } from '../../db/schema/index.ts';
import { rowsOf, toBoolean } from '../../db/raw-results.ts';
import { violatesConstraint } from '../../lib/db-errors.ts';

/** SQL of the moderators' actions (issue 27): reports, targets, suspensions and the audit log. */

export interface ReportRow {
  id: string;
  targetType: ReportTargetType;
  targetId: string;
  targetUserId: string | null;
}

export async function findReport(ex: Executor, reportId: string): Promise<ReportRow | null> {
  const [row] = await ex
    .select({
      id: reports.id,
      targetType: reports.targetType,
      targetId: reports.targetId,
      targetUserId: reports.targetUserId,
    })
    .from(reports)
    .where(eq(reports.id, reportId))
    .limit(1);
  return row ? { ...row, targetType: row.targetType as ReportTargetType } : null;
}

/**
 * Resolves the report and every other open report on the same target, and marks them decided (their
 * reporters no longer count towards an automatic hide of it); answers who made them (the reporters
 * told what came of it).
 */
export async function resolveReports(ex: Executor, report: ReportRow, now: Date): Promise<string[]> {
  const rows = await ex
    .update(reports)
    .set({ resolvedAt: now, decidedAt: now })
    .where(
      sql`${reports.resolvedAt} is null and (${reports.id} = ${report.id} or (${reports.targetType} = ${report.targetType} and ${reports.targetId} = ${report.targetId}))`,
    )
    .returning({ reporterId: reports.reporterId });
  return [...new Set(rows.map((r) => r.reporterId))];
}

export interface StaffMember {
  id: string;
  username: string;
  role: string;
}

export async function findUser(ex: Executor, userId: string): Promise<StaffMember | null> {
  const [row] = await ex
    .select({ id: users.id, username: users.username, role: users.role })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

/**
 * What was reported, as it is now, locked until the transaction ends (two moderators acting on one
 * target take turns). `userId`: whose it is (author, the person, the cat's creator; null for a cat whose
 * creator left). null when it no longer exists.
 */
export interface TargetRow {
  userId: string | null;
  /** Posts and comments: 'pending_review', 'removed' or null. */
  moderation: string | null;
  /**
   * Posts: whether it has coordinates, and whether its owner chose to show them: while a moderator's
   * strip_location stands, the choice recorded by the first standing one (what a restore puts back).
   */
  located: boolean;
  showLocation: boolean;
  /** Cats: when a moderator removed the page. */
  removedAt: Date | null;
}

/**
 * A strip_location action `a` on the post that stands, i.e. no restore has reverted it, as a condition on
 * `moderation_actions a`. Takes the post id as a value: drizzle would render `${posts.id}` unqualified
 * inside a single-table select, where it would read as the subquery's own "id".
 */
const standingStripOf = (postId: string) => sql`(a.target_type = 'post' and a.target_id = ${postId}
  and a.action = 'strip_location'
  and not exists (select 1 from moderation_actions r where r.reverts_action_id = a.id))`;

export async function lockTarget(
  ex: Executor,
  type: ReportTargetType,
  id: string,
): Promise<TargetRow | null> {
  const none = { moderation: null, located: false, showLocation: false, removedAt: null };
  switch (type) {
    case 'post': {
      const [row] = await ex
        .select({
          userId: posts.userId,
          moderation: posts.moderation,
          located: sql<boolean>`${posts.latitude} is not null`,
          showLocation: sql<boolean>`case when not ${posts.locationLocked} then ${posts.showLocation} else coalesce((
            select (a.previous_state->>'showLocation')::boolean from moderation_actions a
            where ${standingStripOf(id)}
            order by a.created_at, a.id limit 1), false) end`,
        })
        .from(posts)
        .where(eq(posts.id, id))
        .for('update');
      return row
        ? { ...none, ...row, located: toBoolean(row.located), showLocation: toBoolean(row.showLocation) }
        : null;
    }
    case 'comment': {
      const [row] = await ex
        .select({ userId: comments.userId, moderation: comments.moderation })
        .from(comments)
        .where(eq(comments.id, id))
        .for('update');
      return row ? { ...none, ...row } : null;
    }
    case 'cat': {
      const [row] = await ex
        .select({ userId: cats.createdBy, removedAt: cats.removedAt })
        .from(cats)
        .where(eq(cats.id, id))
        .for('update');
      return row ? { ...none, ...row } : null;
    }
    case 'user': {
      const [row] = await ex.select({ userId: users.id }).from(users).where(eq(users.id, id)).for('update');
      return row ? { ...none, ...row } : null;
    }
  }
}

/** A post's or comment's moderation state ('removed', or null to show it again). */
export async function setModeration(
  ex: Executor,
  type: 'post' | 'comment',
  id: string,
  value: 'removed' | null,
): Promise<void> {
  if (type === 'post') await ex.update(posts).set({ moderation: value }).where(eq(posts.id, id));
  else await ex.update(comments).set({ moderation: value }).where(eq(comments.id, id));
}

/** A moderator looked at it and left it up: an automatic 'pending_review' hide ends. */
export async function endPendingReview(ex: Executor, type: 'post' | 'comment', id: string): Promise<void> {
  if (type === 'post') {
    await ex
      .update(posts)
      .set({ moderation: null })
      .where(and(eq(posts.id, id), eq(posts.moderation, 'pending_review')));
  } else {
    await ex
      .update(comments)
      .set({ moderation: null })
      .where(and(eq(comments.id, id), eq(comments.moderation, 'pending_review')));
  }
}

export async function setCatRemoved(ex: Executor, catId: string, at: Date | null): Promise<void> {
  await ex.update(cats).set({ removedAt: at }).where(eq(cats.id, catId));
}

/**
 * strip_location: the post's location hidden and locked, so that its owner cannot switch it back on
 * until the action is restored (the posts_location_locked check keeps show_location off meanwhile). The
 * explore map follows through its change log (migration 0002's trigger).
 */
export async function stripLocation(ex: Executor, postId: string): Promise<void> {
  await ex.update(posts).set({ showLocation: false, locationLocked: true }).where(eq(posts.id, postId));
}

/**
 * The restore of strip_location `actionId`: unless another strip_location on the post still stands,
 * the lock goes and the owner's own choice (`show`) comes back; a post whose owner has removed its
 * coordinates meanwhile keeps show_location off.
 */
export async function unstripLocation(
  ex: Executor,
  postId: string,
  actionId: string,
  show: boolean,
): Promise<void> {
  const another = await ex.execute(sql`
    select 1 from moderation_actions a where ${standingStripOf(postId)} and a.id <> ${actionId} limit 1`);
  if (rowsOf(another).length > 0) return;
  await ex
    .update(posts)
    .set({
      locationLocked: false,
      showLocation: show ? sql`${posts.latitude} is not null and ${posts.longitude} is not null` : false,
    })
    .where(eq(posts.id, postId));
}

// ---- the audit log ----------------------------------------------------------------------------------

export type ActionInsert = typeof moderationActions.$inferInsert;

export interface ActionRow {
  id: string;
  reportId: string | null;
  moderatorId: string;
  moderatorName: string;
  targetType: string;
  targetId: string;
  targetUserId: string | null;
  action: string;
  rule: string | null;
  explanation: string;
  suspendDays: number | null;
  revertsActionId: string | null;
  previousState: unknown;
  createdAt: Date;
  /** "<created_at with microseconds>|<id>": the log's keyset position. */
  createdKey: string;
  reverted: boolean;
}

// Spelled out: drizzle leaves a lone table's columns unqualified, which inside the subquery would be r's.
const revertedSql = sql<boolean>`exists (select 1 from moderation_actions r where r.reverts_action_id = "moderation_actions"."id")`;

const actionColumns = {
  id: moderationActions.id,
  reportId: moderationActions.reportId,
  moderatorId: moderationActions.moderatorId,
  moderatorName: moderationActions.moderatorName,
  targetType: moderationActions.targetType,
  targetId: moderationActions.targetId,
  targetUserId: moderationActions.targetUserId,
  action: moderationActions.action,
  rule: moderationActions.rule,
  explanation: moderationActions.explanation,
  suspendDays: moderationActions.suspendDays,
  revertsActionId: moderationActions.revertsActionId,
  previousState: moderationActions.previousState,
  createdAt: moderationActions.createdAt,
  createdKey: sql<string>`to_char(${moderationActions.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  reverted: revertedSql,
};

export async function insertActions(ex: Executor, rows: ActionInsert[]): Promise<ActionRow[]> {
  const inserted = await ex.insert(moderationActions).values(rows).returning({ id: moderationActions.id });
  const ids = inserted.map((r) => r.id);
  const found = await ex
    .select(actionColumns)
    .from(moderationActions)
    .where(
      sql`${moderationActions.id} in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
  // In the order given.
  return ids
    .map((id) => found.find((r) => r.id === id)!)
    .map((r) => ({ ...r, reverted: toBoolean(r.reverted) }));
}

export async function findAction(ex: Executor, actionId: string): Promise<ActionRow | null> {
  const [row] = await ex
    .select(actionColumns)
    .from(moderationActions)
    .where(eq(moderationActions.id, actionId));
  return row ? { ...row, reverted: toBoolean(row.reverted) } : null;
}

/** The log, newest first, `limit` entries after the cursor's position. */
export async function actionsPage(
  ex: Executor,
  after: { createdAt: string; id: string } | null,
  limit: number,
): Promise<ActionRow[]> {
  const rows = await ex
    .select(actionColumns)
    .from(moderationActions)
    .where(
      after
        ? sql`(${moderationActions.createdAt}, ${moderationActions.id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
        : undefined,
    )
    .orderBy(desc(moderationActions.createdAt), desc(moderationActions.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, reverted: toBoolean(r.reverted) }));
}

/** Whether the error is the second restore of one action (moderation_actions_reverts_idx). */
export const isSecondRestore = (err: unknown) => violatesConstraint(err, 'moderation_actions_reverts_idx');
