import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-results.ts';

/** An ISO time with microseconds (a timestamptz's full precision), so that cursors compare exactly. */
const isoMicros = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);

export interface QueuePosition {
  oldest: string;
  targetType: string;
  targetId: string;
}

/**
 * One page of reported targets with open reports, the target whose oldest open report is oldest first
 * (ties by type and id), after `after`. `limit` + 1 rows are read by the caller to know of a next page.
 */
export async function openTargets(
  ex: Executor,
  after: QueuePosition | null,
  limit: number,
): Promise<QueuePosition[]> {
  const rows = rowsOf(
    await ex.execute(sql`
      with g as (
        select target_type, target_id, min(created_at) as oldest
        from reports where resolved_at is null
        group by target_type, target_id
      )
      select target_type as "targetType", target_id::text as "targetId", ${isoMicros('oldest')} as oldest
      from g
      ${after ? sql`where (oldest, target_type, target_id) > (${after.oldest}::timestamptz, ${after.targetType}, ${after.targetId}::uuid)` : sql``}
      order by oldest, target_type, target_id
      limit ${limit}`),
  );
  return rows.map((r) => ({
    oldest: String(r.oldest),
    targetType: String(r.targetType),
    targetId: String(r.targetId),
  }));
}

export interface OpenReportRow {
  id: string;
  targetType: string;
  targetId: string;
  targetUserId: string | null;
  targetUsername: string | null;
  reporterId: string;
  reporterUsername: string;
  reason: string;
  note: string;
  snapshot: unknown;
  createdAt: string;
  updatedAt: string;
}

/** The open reports of the targets (by id; the caller keeps the type), oldest first. */
export async function openReportsOf(ex: Executor, targetIds: string[]): Promise<OpenReportRow[]> {
  if (targetIds.length === 0) return [];
  const rows = rowsOf(
    await ex.execute(sql`
      select r.id::text as id, r.target_type as "targetType", r.target_id::text as "targetId",
        r.target_user_id::text as "targetUserId", tu.username as "targetUsername",
        r.reporter_id::text as "reporterId", ru.username as "reporterUsername",
        r.reason, r.note, r.snapshot,
        ${isoMicros('r.created_at')} as "createdAt", ${isoMicros('r.updated_at')} as "updatedAt"
      from reports r
      join users ru on ru.id = r.reporter_id
      left join users tu on tu.id = r.target_user_id
      where r.resolved_at is null and r.target_id = any(${sql.param(targetIds)}::uuid[])
      order by r.created_at, r.id`),
  );
  return rows.map((r) => ({
    id: String(r.id),
    targetType: String(r.targetType),
    targetId: String(r.targetId),
    targetUserId: (r.targetUserId as string | null) ?? null,
    targetUsername: (r.targetUsername as string | null) ?? null,
    reporterId: String(r.reporterId),
    reporterUsername: String(r.reporterUsername),
    reason: String(r.reason),
    note: String(r.note ?? ''),
    // node-postgres parses jsonb; PGlite does too. A string is parsed here in case a driver does not.
    snapshot: typeof r.snapshot === 'string' ? (JSON.parse(r.snapshot) as unknown) : r.snapshot,
    createdAt: String(r.createdAt),
    updatedAt: String(r.updatedAt),
  }));
}

export interface StrikeRow {
  id: string;
  targetUserId: string;
  action: string;
  rule: string | null;
  targetType: string;
  explanation: string;
  createdAt: string;
}

/**
 * Strikes of the users: actions against their content or account (remove, strip_location, warn,
 * suspend) that no later 'restore' undid, newest first.
 */
export async function strikesOf(ex: Executor, userIds: string[]): Promise<StrikeRow[]> {
  if (userIds.length === 0) return [];
  const rows = rowsOf(
    await ex.execute(sql`
      select a.id::text as id, a.target_user_id::text as "targetUserId", a.action, a.rule,
        a.target_type as "targetType", a.explanation, ${isoMicros('a.created_at')} as "createdAt"
      from moderation_actions a
      where a.target_user_id = any(${sql.param(userIds)}::uuid[])
        and a.action in ('remove', 'strip_location', 'warn', 'suspend')
        and not exists (
          select 1 from moderation_actions r where r.action = 'restore' and r.reverts_action_id = a.id
        )
      order by a.created_at desc, a.id`),
  );
  return rows.map((r) => ({
    id: String(r.id),
    targetUserId: String(r.targetUserId),
    action: String(r.action),
    rule: (r.rule as string | null) ?? null,
    targetType: String(r.targetType),
    explanation: String(r.explanation ?? ''),
    createdAt: String(r.createdAt),
  }));
}

export interface NoteRow {
  id: string;
  targetType: string;
  targetId: string;
  authorId: string | null;
  authorUsername: string | null;
  body: string;
  createdAt: string;
}

const noteColumns = sql`n.id::text as id, n.target_type as "targetType", n.target_id::text as "targetId",
  n.author_id::text as "authorId", u.username as "authorUsername", n.body,
  ${isoMicros('n.created_at')} as "createdAt"`;

const toNote = (r: Record<string, unknown>): NoteRow => ({
  id: String(r.id),
  targetType: String(r.targetType),
  targetId: String(r.targetId),
  authorId: (r.authorId as string | null) ?? null,
  authorUsername: (r.authorUsername as string | null) ?? null,
  body: String(r.body),
  createdAt: String(r.createdAt),
});

/** Moderators' notes about the targets (by id), oldest first. */
export async function notesOf(ex: Executor, targetIds: string[]): Promise<NoteRow[]> {
  if (targetIds.length === 0) return [];
  const rows = rowsOf(
    await ex.execute(sql`
      select ${noteColumns}
      from moderation_notes n left join users u on u.id = n.author_id
      where n.target_id = any(${sql.param(targetIds)}::uuid[])
      order by n.created_at, n.id`),
  );
  return rows.map(toNote);
}

export async function insertNote(
  ex: Executor,
  note: { targetType: string; targetId: string; authorId: string; body: string },
): Promise<NoteRow> {
  const rows = rowsOf(
    await ex.execute(sql`
      with n as (
        insert into moderation_notes (target_type, target_id, author_id, body)
        values (${note.targetType}, ${note.targetId}::uuid, ${note.authorId}::uuid, ${note.body})
        returning *
      )
      select ${noteColumns} from n left join users u on u.id = n.author_id`),
  );
  return toNote(rows[0]!);
}

/** Whether anything was ever reported about the target (a note is about a reported thing). */
export async function targetWasReported(
  ex: Executor,
  targetType: string,
  targetId: string,
): Promise<boolean> {
  const rows = rowsOf(
    await ex.execute(
      sql`select 1 from reports where target_type = ${targetType} and target_id = ${targetId}::uuid limit 1`,
    ),
  );
  return rows.length > 0;
}

export interface QueueStatsRow {
  openReports: number;
  oldestOpenReportAt: string | null;
  oldestOpenReportAgeSeconds: number | null;
  medianSecondsToFirstAction: number | null;
}

/**
 * Open reports and the oldest one's age; the median time from a report to the first action taken on
 * it (the first moderation_actions row with its report_id), over reports made in the last 30 days.
 */
export async function queueStats(ex: Executor): Promise<QueueStatsRow> {
  const [open] = rowsOf(
    await ex.execute(sql`
      select count(*)::int as "openReports",
        ${isoMicros('min(created_at)')} as "oldestOpenReportAt",
        floor(extract(epoch from (now() - min(created_at))))::int as "oldestOpenReportAgeSeconds"
      from reports where resolved_at is null`),
  );
  const [median] = rowsOf(
    await ex.execute(sql`
      select percentile_cont(0.5) within group (order by extract(epoch from (f.first_at - r.created_at)))
        as median
      from reports r
      join (
        select report_id, min(created_at) as first_at from moderation_actions
        where report_id is not null group by report_id
      ) f on f.report_id = r.id
      where r.created_at > now() - interval '30 days'`),
  );
  const medianValue = median?.median;
  return {
    openReports: Number(open?.openReports ?? 0),
    oldestOpenReportAt: (open?.oldestOpenReportAt as string | null) ?? null,
    oldestOpenReportAgeSeconds:
      open?.oldestOpenReportAgeSeconds === null || open?.oldestOpenReportAgeSeconds === undefined
        ? null
        : Number(open.oldestOpenReportAgeSeconds),
    medianSecondsToFirstAction:
      medianValue === null || medianValue === undefined ? null : Math.round(Number(medianValue)),
  };
}
