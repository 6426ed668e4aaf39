import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf, toBoolean, toDate, type RawRow } from '../../db/raw-results.ts';

/** The actions that did something to a person's content or account: what they are told and may appeal. */
const APPEALABLE = sql.raw(`('remove', 'strip_location', 'warn', 'suspend')`);

/**
 * The content as it was first reported (reports.snapshot), for the statement: the earliest report of
 * the target that is still kept (a report goes with its reporter's account).
 */
const firstSnapshot = (alias: string) =>
  sql.raw(`(select r.snapshot from reports r where r.target_type = ${alias}.target_type
    and r.target_id = ${alias}.target_id order by r.created_at, r.id limit 1)`);

export interface DecisionRow {
  id: string;
  action: string;
  targetType: string;
  targetId: string;
  targetUserId: string | null;
  moderatorId: string;
  moderatorName: string;
  rule: string | null;
  explanation: string;
  suspendDays: number | null;
  createdAt: Date;
  reverted: boolean;
  snapshot: Record<string, unknown> | null;
  /**
   * The media key of the post the decision is about while its row exists (removed and trashed posts
   * keep their files); null once it is purged, its files gone (issue 46), or for any other target.
   */
  postMediaKey: string | null;
  appeal: AppealRow | null;
}

export interface AppealRow {
  id: string;
  actionId: string;
  userId: string;
  body: string;
  createdAt: Date;
  decidedAt: Date | null;
  outcome: 'upheld' | 'overturned' | null;
}

const toDateOrNull = (value: unknown): Date | null =>
  value === null || value === undefined ? null : toDate(value);

function toSnapshot(value: unknown): Record<string, unknown> | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
}

function toDecision(row: RawRow): DecisionRow {
  return {
    id: row.id as string,
    action: row.action as string,
    targetType: row.target_type as string,
    targetId: row.target_id as string,
    targetUserId: (row.target_user_id as string | null) ?? null,
    moderatorId: row.moderator_id as string,
    moderatorName: row.moderator_name as string,
    rule: (row.rule as string | null) ?? null,
    explanation: row.explanation as string,
    suspendDays:
      row.suspend_days === null || row.suspend_days === undefined ? null : Number(row.suspend_days),
    createdAt: toDate(row.created_at),
    reverted: toBoolean(row.reverted),
    snapshot: toSnapshot(row.snapshot),
    postMediaKey: (row.post_media_key as string | null) ?? null,
    appeal: row.appeal_id
      ? {
          id: row.appeal_id as string,
          actionId: row.id as string,
          userId: row.appeal_user_id as string,
          body: row.appeal_body as string,
          createdAt: toDate(row.appeal_created_at),
          decidedAt: toDateOrNull(row.appeal_decided_at),
          outcome: (row.appeal_outcome as 'upheld' | 'overturned' | null) ?? null,
        }
      : null,
  };
}

const decisionColumns = sql.raw(`a.id, a.action, a.target_type, a.target_id, a.target_user_id, a.moderator_id,
  a.moderator_name, a.rule, a.explanation, a.suspend_days, a.created_at,
  exists (select 1 from moderation_actions u where u.reverts_action_id = a.id) as reverted,
  (select p.media_key from posts p where a.target_type = 'post' and p.id = a.target_id) as post_media_key,
  ap.id as appeal_id, ap.user_id as appeal_user_id, ap.body as appeal_body, ap.created_at as appeal_created_at,
  ap.decided_at as appeal_decided_at, ap.outcome as appeal_outcome`);

/** How many statements a person's page lists: the newest. Decisions about one person are few. */
export const STATEMENTS_MAX = 100;

/** The decisions about a person's content or account, newest first, with their appeals. */
export async function decisionsAbout(
  ex: Executor,
  userId: string,
  limit = STATEMENTS_MAX,
): Promise<DecisionRow[]> {
  const rows = rowsOf(
    await ex.execute(sql`
      select ${decisionColumns}, ${firstSnapshot('a')} as snapshot
      from moderation_actions a left join appeals ap on ap.action_id = a.id
      where a.target_user_id = ${userId} and a.action in ${APPEALABLE}
      order by a.created_at desc, a.id desc
      limit ${limit}`),
  );
  return rows.map(toDecision);
}

/** One decision, locked against a concurrent appeal or undo when `forUpdate`. */
export async function findDecision(ex: Executor, actionId: string): Promise<DecisionRow | null> {
  const [row] = rowsOf(
    await ex.execute(sql`
      select ${decisionColumns}, ${firstSnapshot('a')} as snapshot
      from moderation_actions a left join appeals ap on ap.action_id = a.id
      where a.id = ${actionId}`),
  );
  return row ? toDecision(row) : null;
}

/** Records an appeal; null when the decision was appealed already (appeals_action_idx). */
export async function insertAppeal(
  ex: Executor,
  actionId: string,
  userId: string,
  body: string,
): Promise<AppealRow | null> {
  const [row] = rowsOf(
    await ex.execute(sql`
      insert into appeals (action_id, user_id, body) values (${actionId}, ${userId}, ${body})
      on conflict (action_id) do nothing
      returning id, action_id, user_id, body, created_at, decided_at, outcome`),
  );
  return row ? toAppeal(row) : null;
}

function toAppeal(row: RawRow): AppealRow {
  return {
    id: row.id as string,
    actionId: row.action_id as string,
    userId: row.user_id as string,
    body: row.body as string,
    createdAt: toDate(row.created_at),
    decidedAt: toDateOrNull(row.decided_at),
    outcome: (row.outcome as 'upheld' | 'overturned' | null) ?? null,
  };
}

/** An appeal, locked for its decision. */
export async function lockAppeal(ex: Executor, appealId: string): Promise<AppealRow | null> {
  const [row] = rowsOf(
    await ex.execute(sql`
      select id, action_id, user_id, body, created_at, decided_at, outcome from appeals
      where id = ${appealId} for update`),
  );
  return row ? toAppeal(row) : null;
}

export async function decideAppeal(
  ex: Executor,
  appealId: string,
  deciderId: string,
  outcome: 'upheld' | 'overturned',
): Promise<AppealRow> {
  const [row] = rowsOf(
    await ex.execute(sql`
      update appeals set decided_at = now(), decider_id = ${deciderId}, outcome = ${outcome}
      where id = ${appealId}
      returning id, action_id, user_id, body, created_at, decided_at, outcome`),
  );
  return toAppeal(row!);
}

/**
 * Whether someone other than `moderatorId` and `appellantId` can decide: a moderator or admin who is not
 * suspended. Where nobody else exists, the moderator who decided answers the appeal.
 */
export async function anotherModeratorExists(
  ex: Executor,
  moderatorId: string,
  appellantId: string,
): Promise<boolean> {
  const [row] = rowsOf(
    await ex.execute(sql`
      select exists (select 1 from users u where u.role in ('moderator', 'admin')
        and u.id <> ${moderatorId} and u.id <> ${appellantId}
        and (u.suspended_at is null or (u.suspended_until is not null and u.suspended_until <= now()))) as found`),
  );
  return toBoolean(row?.found);
}

export interface OpenAppealRow {
  appeal: AppealRow;
  appellantName: string;
  decision: DecisionRow;
}

/** Open appeals, oldest first (appeals_open_idx), each with its decision and the appellant's name. */
export async function openAppeals(ex: Executor, limit: number): Promise<OpenAppealRow[]> {
  const rows = rowsOf(
    await ex.execute(sql`
      select ${decisionColumns}, ${firstSnapshot('a')} as snapshot, u.username as appellant_name
      from appeals ap join moderation_actions a on a.id = ap.action_id join users u on u.id = ap.user_id
      where ap.decided_at is null
      order by ap.created_at, ap.id
      limit ${limit}`),
  );
  return rows.map((row) => {
    const decision = toDecision(row);
    return { appeal: decision.appeal!, appellantName: row.appellant_name as string, decision };
  });
}

export interface OwnReportRow {
  id: string;
  targetId: string;
  targetType: string;
  reason: string;
  note: string;
  createdAt: Date;
  updatedAt: Date;
  resolvedAt: Date | null;
  outcomes: string[];
}

/** How many of their reports a person's page lists: the newest. */
export const OWN_REPORTS_MAX = 100;

/**
 * The reports a person made, newest first, with the actions taken on each one's target since it was
 * made (restores left out: the reporter is told what was done, not the moderators' back and forth).
 */
export async function reportsBy(
  ex: Executor,
  reporterId: string,
  limit = OWN_REPORTS_MAX,
): Promise<OwnReportRow[]> {
  const rows = rowsOf(
    await ex.execute(sql`
      select r.id, r.target_type, r.target_id, r.reason, r.note, r.created_at, r.updated_at, r.resolved_at,
        coalesce((select array_agg(a.action order by a.created_at, a.id) from moderation_actions a
          where a.target_type = r.target_type and a.target_id = r.target_id and a.created_at >= r.created_at
            and a.action <> 'restore'), '{}') as outcomes
      from reports r where r.reporter_id = ${reporterId}
      order by r.updated_at desc, r.id desc
      limit ${limit}`),
  );
  return rows.map((row) => ({
    id: row.id as string,
    targetType: row.target_type as string,
    targetId: row.target_id as string,
    reason: row.reason as string,
    note: row.note as string,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    resolvedAt: toDateOrNull(row.resolved_at),
    outcomes: parseTextArray(row.outcomes),
  }));
}

/** A text[] as node-postgres (an array) or PGlite's text form ('{a,b}') answers it. */
function parseTextArray(value: unknown): string[] {
  if (Array.isArray(value)) return value as string[];
  if (typeof value === 'string') return value === '{}' ? [] : value.slice(1, -1).split(',');
  return [];
}
