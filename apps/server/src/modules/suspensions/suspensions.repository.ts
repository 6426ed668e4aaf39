import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-results.ts';
import { comments, missingAlerts, posts, users } from '../../db/schema/index.ts';

/**
 * SQL of suspensions (issue 27): an account's state that signing in reads (auth), moderators write
 * (moderation) and the sweep ends. Suspending hides what the account wrote; lifting shows it again.
 */

export interface Suspension {
  suspendedAt: Date | null;
  suspendedUntil: Date | null;
}

/** `lock`: FOR SHARE, so that a suspension being written is waited for (a refresh racing a suspension). */
export async function findSuspension(ex: Executor, userId: string, lock = false): Promise<Suspension | null> {
  const query = ex
    .select({ suspendedAt: users.suspendedAt, suspendedUntil: users.suspendedUntil })
    .from(users)
    .where(eq(users.id, userId));
  const [row] = await (lock ? query.for('share') : query);
  return row ?? null;
}

/**
 * Suspends the account and hides everything it wrote (posts.author_suspended, comments.author_suspended)
 * and the missing-cat alerts it raised (missing_alerts.raiser_suspended).
 */
export async function suspendUser(ex: Executor, userId: string, at: Date, until: Date | null): Promise<void> {
  await ex.update(users).set({ suspendedAt: at, suspendedUntil: until }).where(eq(users.id, userId));
  await ex
    .update(missingAlerts)
    .set({ raiserSuspended: true })
    .where(and(eq(missingAlerts.raisedBy, userId), eq(missingAlerts.raiserSuspended, false)));
  await ex
    .update(posts)
    .set({ authorSuspended: true })
    .where(and(eq(posts.userId, userId), eq(posts.authorSuspended, false)));
  await ex
    .update(comments)
    .set({ authorSuspended: true })
    .where(and(eq(comments.userId, userId), eq(comments.authorSuspended, false)));
}

/** Lifts the account's suspension, whatever its end, and shows what it wrote again. */
export async function liftSuspension(ex: Executor, userId: string): Promise<void> {
  await ex.update(users).set({ suspendedAt: null, suspendedUntil: null }).where(eq(users.id, userId));
  await clearAuthorSuspended(ex, userId);
}

async function clearAuthorSuspended(ex: Executor, userId: string): Promise<void> {
  await ex
    .update(missingAlerts)
    .set({ raiserSuspended: false })
    .where(and(eq(missingAlerts.raisedBy, userId), eq(missingAlerts.raiserSuspended, true)));
  await ex
    .update(posts)
    .set({ authorSuspended: false })
    .where(and(eq(posts.userId, userId), eq(posts.authorSuspended, true)));
  await ex
    .update(comments)
    .set({ authorSuspended: false })
    .where(and(eq(comments.userId, userId), eq(comments.authorSuspended, true)));
}

/**
 * Lifts up to `limit` suspensions that ended by `now` (all accounts, or one), in one statement: safe
 * with several instances sweeping at once, since each takes only the rows nobody else has locked and a
 * row lifted meanwhile no longer matches. Returns the accounts lifted.
 */
export async function liftEndedSuspensions(
  ex: Executor,
  now: Date,
  limit: number,
  userId: string | null = null,
): Promise<string[]> {
  const result = await ex.execute(sql`
    with ended as (
      select id from users
      where suspended_until <= ${now.toISOString()}::timestamptz
        and (${userId}::uuid is null or id = ${userId}::uuid)
      order by suspended_until
      limit ${limit}
      for update skip locked
    ), lifted as (
      update users u set suspended_at = null, suspended_until = null
      from ended where u.id = ended.id
      returning u.id
    ), shown_posts as (
      update posts set author_suspended = false
      where author_suspended and user_id in (select id from lifted)
    ), shown_comments as (
      update comments set author_suspended = false
      where author_suspended and user_id in (select id from lifted)
    ), shown_alerts as (
      update missing_alerts set raiser_suspended = false
      where raiser_suspended and raised_by in (select id from lifted)
    )
    select id::text as id from lifted`);
  return rowsOf(result).map((r) => String(r.id));
}
