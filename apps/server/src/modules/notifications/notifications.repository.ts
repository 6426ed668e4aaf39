import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import {
  NOTIFICATION_ACTORS_SHOWN,
  UNREAD_COUNT_CAP,
  type ModerationActionKind,
  type NotificationType,
  type ReportTargetType,
} from '@cats/contracts';
import { ANNOUNCE_CHANNEL } from '../../db/announce-after-commit.ts';
import type { Database, Executor } from '../../db/client.ts';
import { preparedSql } from '../../db/prepared.ts';
import { rowsOf, toDate, type RawRow } from '../../db/raw-results.ts';
import { notificationPreferences, notifications } from '../../db/schema/index.ts';
import { commentShownTo, postShownTo, usersBlockedWith } from '../visibility/visibility.ts';
import { DAY_MS } from '../../lib/durations.ts';

/**
 * The channel notifications are announced on (announce_notification(), migration 0015): 'recipient seq',
 * 'recipient removed id' or 'recipient read'.
 */
export const NOTIFICATION_CHANNEL = ANNOUNCE_CHANNEL;

export interface NotificationCause {
  recipientId: string;
  type: NotificationType;
  actorId: string;
  postId?: string | null;
  commentId?: string | null;
  groupId?: string | null;
}

/**
 * Tells a user about something, inside the transaction of its cause; add_notification() (migration
 * 0012) leaves out own actions, blocked pairs, hidden posts and switched-off types. Returns the entry's
 * id, or null when nobody was told.
 */
export async function addNotification(ex: Executor, cause: NotificationCause): Promise<string | null> {
  const [row] = rowsOf(
    await ex.execute(
      sql`select add_notification(${cause.recipientId}::uuid, ${cause.type}, ${cause.actorId}::uuid,
        ${cause.postId ?? null}::uuid, ${cause.commentId ?? null}::uuid, ${cause.groupId ?? null}::uuid) as id`,
    ),
  );
  return (row?.id as string | null | undefined) ?? null;
}

/**
 * Tells every other member of the groups a post was just shared with (`groupIds`, shares that exist
 * now), inside the share's transaction: one statement however large the groups (add_notifications,
 * migration 0014). A member of two of the groups is told once for each.
 */
export async function notifyGroupShare(
  ex: Executor,
  postId: string,
  authorId: string,
  groupIds: readonly string[],
): Promise<void> {
  if (groupIds.length === 0) return;
  await ex.execute(sql`select add_notifications(
      coalesce(array_agg(gm.user_id), '{}'), coalesce(array_agg('group_share'::text), '{}'),
      coalesce(array_agg(gm.group_id), '{}'), ${authorId}::uuid, ${postId}::uuid, null, now())
    from post_groups pg join group_members gm on gm.group_id = pg.group_id
    where pg.post_id = ${postId} and pg.group_id = any(${sql.param([...groupIds])}::uuid[])
      and gm.user_id <> ${authorId}`);
}

/**
 * Tells a user of a moderation action (issue 27) inside the action's transaction
 * (add_moderation_notification, migration 0023): the person affected, an appellant, or a reporter.
 */
export async function addModerationNotification(
  ex: Executor,
  recipientId: string,
  type: 'moderation_decision' | 'appeal_decided' | 'report_outcome',
  actionId: string,
): Promise<string | null> {
  const [row] = rowsOf(
    await ex.execute(
      sql`select add_moderation_notification(${recipientId}::uuid, ${type}, ${actionId}::uuid) as id`,
    ),
  );
  return (row?.id as string | null | undefined) ?? null;
}

/** Removes the entries of a cause that was undone (a withdrawn request, an unshared post). */
export async function removeNotifications(
  ex: Executor,
  where: {
    type: NotificationType;
    actorId?: string;
    recipientId?: string;
    postId?: string;
    groupId?: string;
  },
): Promise<void> {
  const conditions: SQL[] = [eq(notifications.type, where.type)];
  if (where.actorId) conditions.push(eq(notifications.actorId, where.actorId));
  if (where.recipientId) conditions.push(eq(notifications.recipientId, where.recipientId));
  if (where.postId) conditions.push(eq(notifications.postId, where.postId));
  if (where.groupId) conditions.push(eq(notifications.groupId, where.groupId));
  await ex.delete(notifications).where(and(...conditions));
}

export interface ActorRow {
  id: string;
  username: string;
  profilePicKey: string | null;
}

export interface NotificationRow {
  id: string;
  type: NotificationType;
  seq: number;
  createdAt: Date;
  updatedAt: Date;
  read: boolean;
  actors: ActorRow[];
  actorCount: number;
  post: { id: string; mediaKey: string; catName: string | null } | null;
  group: { id: string; name: string } | null;
  comment: { id: string; body: string } | null;
  /** The cat of a cat entry (a sighting, a suggestion): its id and name, nothing of its home. */
  cat: { id: string; name: string } | null;
  /** A moderation entry's action (issue 27), with the appeal's outcome and the action a restore undid. */
  moderation: {
    actionId: string;
    action: ModerationActionKind;
    targetType: ReportTargetType;
    suspendedUntil: Date | null;
    appealOutcome: 'upheld' | 'overturned' | null;
    revertedAction: ModerationActionKind | null;
  } | null;
}

/**
 * The comments a reply entry `n` gathers (migration 0014): others' comments on the post from the entry's
 * first reply to the end of its 12 h window (comments_post_created_idx). Being others', a comment
 * moderation hides or by a suspended author is never shown to the recipient (issue 27).
 */
const entryReplies = (alias: string) =>
  sql.raw(`
  n.type = 'reply' and ${alias}.post_id = n.post_id and ${alias}.user_id <> n.recipient_id
    and ${alias}.created_at >= n.created_at and ${alias}.created_at < n.window_start + interval '12 hours'
    and ${alias}.moderation is null and not ${alias}.author_suspended`);

/**
 * Who is behind each entry `n`, as the recipient may see them: the likers of the entry's window, the
 * repliers of its window (each once), or its one actor, less everyone the recipient shares a block with
 * (a block made later leaves no trace). `rn` numbers them newest first.
 */
const entryActors = (recipientId: unknown) => sql`
  select y.id, y.at, row_number() over (order by y.at desc, y.id) as rn from (
    select l.user_id as id, l.created_at as at from likes l
      where n.type = 'like' and l.post_id = n.post_id and l.user_id <> n.recipient_id
        and l.created_at >= n.window_start and l.created_at < n.window_start + interval '12 hours'
    union all
    select r.user_id, max(r.created_at) from comments r where ${entryReplies('r')} group by r.user_id
    union all
    select n.actor_id, n.created_at where n.actor_id is not null
  ) y where y.id not in (${usersBlockedWith(recipientId)})`;

/**
 * The post an entry is about (if any) is live, not hidden by the recipient, nor by someone they share a
 * block with, and moderation leaves it shown to them (issue 27); so is its comment, and its cat is not
 * removed by a moderator (entries of a deleted comment or cat go with it: ON DELETE CASCADE).
 * The comment and the cat are looked up by id, one index probe per entry, as scalar subqueries: written
 * as EXISTS, PostgreSQL turned each into a hashed subplan that read every visible comment or live cat
 * of the site on every page (0.7 ms for 5,000 comments; the bench's 20,000 cats and 300,000 comments
 * would cost that many times over).
 */
const entryPostVisible = (recipientId: unknown) => sql`
  (n.post_id is null or (p.deleted_at is null
    and p.user_id not in (${usersBlockedWith(recipientId)})
    and n.post_id not in (select h.post_id from hidden_posts h where h.user_id = ${recipientId})
    and ${postShownTo(recipientId, 'p')}
    and (n.cat_id is null
      or not sighting_kept_from(n.cat_id, p.user_id, p.latitude, p.longitude, p.show_location, ${recipientId}))))
  and (n.comment_id is null or coalesce(
    (select ${commentShownTo(recipientId, 'mc')} from comments mc where mc.id = n.comment_id), false))
  and (n.cat_id is null
    or coalesce((select mct.removed_at is null from cats mct where mct.id = n.cat_id), false))`;

function toNotificationRow(row: RawRow): NotificationRow {
  const actors = (typeof row.actors === 'string' ? JSON.parse(row.actors) : row.actors) as ActorRow[] | null;
  return {
    id: row.id as string,
    type: row.type as NotificationType,
    seq: Number(row.seq),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    read: row.read_at !== null && row.read_at !== undefined,
    actors: actors ?? [],
    actorCount: Number(row.actor_count),
    post: row.post_id
      ? {
          id: row.post_id as string,
          mediaKey: row.media_key as string,
          catName: (row.cat_name as string) ?? null,
        }
      : null,
    group: row.group_id ? { id: row.group_id as string, name: row.group_name as string } : null,
    comment: row.comment_id ? { id: row.comment_id as string, body: row.comment_body as string } : null,
    cat: row.cat_id ? { id: row.cat_id as string, name: row.cat_name_of_entry as string } : null,
    moderation: row.moderation_action_id
      ? {
          actionId: row.moderation_action_id as string,
          action: row.ma_action as ModerationActionKind,
          targetType: row.ma_target_type as ReportTargetType,
          suspendedUntil:
            row.ma_action === 'suspend' && row.ma_suspend_days !== null && row.ma_suspend_days !== undefined
              ? new Date(toDate(row.ma_created_at).getTime() + Number(row.ma_suspend_days) * DAY_MS)
              : null,
          appealOutcome: (row.appeal_outcome as 'upheld' | 'overturned' | null | undefined) ?? null,
          revertedAction: (row.reverted_action as ModerationActionKind | null | undefined) ?? null,
        }
      : null,
  };
}

/**
 * The entries matching `condition` (on n) that the recipient may see: someone is still behind them and
 * their post is visible (entryPostVisible). `recipientId` and `limit` may be placeholders.
 */
function entriesQuery(recipientId: unknown, condition: SQL, order: 'newest' | 'oldest', limit: unknown): SQL {
  return sql`
    select n.id, n.type, n.seq, n.created_at, n.updated_at, n.read_at,
      n.post_id, p.media_key, p.cat_name, n.group_id, g.name as group_name,
      coalesce(c.id, lr.id) as comment_id, coalesce(c.body, lr.body) as comment_body,
      n.cat_id, ct.name as cat_name_of_entry, ua.actors, a.actor_count,
      n.moderation_action_id, ma.action as ma_action, ma.target_type as ma_target_type,
      ma.suspend_days as ma_suspend_days, ma.created_at as ma_created_at,
      ap.outcome as appeal_outcome, mr.action as reverted_action
    from notifications n
    left join moderation_actions ma on ma.id = n.moderation_action_id
    left join moderation_actions mr on mr.id = ma.reverts_action_id
    left join appeals ap on n.type = 'appeal_decided' and ap.action_id = n.moderation_action_id
    left join posts p on p.id = n.post_id
    left join groups g on g.id = n.group_id
    left join cats ct on ct.id = n.cat_id
    left join comments c on c.id = n.comment_id
    -- A reply entry shows (and links to) the latest reply it gathers that the recipient may see.
    left join lateral (
      select r.id, r.body from comments r
      where ${entryReplies('r')} and r.user_id not in (${usersBlockedWith(recipientId)})
      order by r.created_at desc, r.id desc limit 1
    ) lr on true
    cross join lateral (
      select count(*)::int as actor_count,
        array_agg(x.id order by x.rn) filter (where x.rn <= ${NOTIFICATION_ACTORS_SHOWN}) as shown
      from (${entryActors(recipientId)}) x
    ) a
    -- Only the names shown are read, each by its primary key (a join could scan users per entry).
    cross join lateral (
      select coalesce(json_agg((select json_build_object('id', u.id, 'username', u.username,
          'profilePicKey', u.profile_pic_key) from users u where u.id = s.id) order by s.ord), '[]'::json) as actors
      from unnest(a.shown) with ordinality s(id, ord)
    ) ua
    -- Moderation entries name nobody (moderators act unnamed); every other entry needs someone behind it.
    where n.recipient_id = ${recipientId} and ${condition}
      and (a.actor_count > 0 or n.moderation_action_id is not null)
      and ${entryPostVisible(recipientId)}
    order by n.seq ${order === 'newest' ? sql`desc` : sql`asc`}
    limit ${limit}`;
}

async function selectEntries(
  ex: Executor,
  recipientId: string,
  condition: SQL,
  order: 'newest' | 'oldest',
  limit: number,
): Promise<NotificationRow[]> {
  return rowsOf(await ex.execute(entriesQuery(recipientId, condition, order, limit))).map(toNotificationRow);
}

const recipientParam = sql.placeholder('recipientId');
const limitParam = sql.placeholder('limit');
/**
 * The list's pages run on every visit of the notification centre: prepared, so that PostgreSQL plans
 * them once per connection rather than on each request (a plan of this query costs more than its run).
 */
const newestEntriesStatement = preparedSql(
  'notifications_newest',
  entriesQuery(recipientParam, sql`true`, 'newest', limitParam),
);
const entriesBeforeStatement = preparedSql(
  'notifications_before',
  entriesQuery(recipientParam, sql`n.seq < ${sql.placeholder('beforeSeq')}`, 'newest', limitParam),
);

/** One page of the recipient's entries, newest change first, before event number `beforeSeq`. */
export async function listNotifications(
  ex: Executor,
  recipientId: string,
  limit: number,
  beforeSeq: number | null,
): Promise<NotificationRow[]> {
  const rows =
    beforeSeq === null
      ? await newestEntriesStatement(ex).execute({ recipientId, limit })
      : await entriesBeforeStatement(ex).execute({ recipientId, limit, beforeSeq });
  return rowsOf(rows).map(toNotificationRow);
}

/**
 * The newest `limit` entries changed after event number `afterSeq`, oldest first: a stream's replay,
 * which sends the latest changes when there are more (the rest are in the paged list).
 */
export async function newestNotificationsAfter(
  ex: Executor,
  recipientId: string,
  afterSeq: number,
  limit: number,
): Promise<NotificationRow[]> {
  const rows = await selectEntries(ex, recipientId, sql`n.seq > ${afterSeq}`, 'newest', limit);
  return rows.reverse();
}

/** The entries with these event numbers (what a NOTIFY announced), oldest first. */
export function notificationsWithSeq(
  ex: Executor,
  recipientId: string,
  seqs: number[],
): Promise<NotificationRow[]> {
  if (seqs.length === 0) return Promise.resolve([]);
  const list = sql.join(
    seqs.map((s) => sql`${s}`),
    sql`, `,
  );
  return selectEntries(ex, recipientId, sql`n.seq in (${list})`, 'oldest', seqs.length);
}

/**
 * Whether someone the recipient may see is still behind entry `n`: entryActors' test without naming
 * or ordering anyone, so that each branch stops at its first match.
 */
const entryHasVisibleActor = (recipientId: unknown) => sql`
  -- Without a block, someone always is: an entry goes with its actor, and a like or reply entry with
  -- its window's last like or reply (migrations 0012 and 0014).
  (not exists (select 1 from blocks b where b.blocker_id = ${recipientId} or b.blocked_id = ${recipientId})
  or case n.type
    when 'like' then exists (
      select 1 from likes l
      where l.post_id = n.post_id and l.user_id <> n.recipient_id
        and l.created_at >= n.window_start and l.created_at < n.window_start + interval '12 hours'
        and l.user_id not in (${usersBlockedWith(recipientId)}))
    when 'reply' then exists (
      select 1 from comments r where ${entryReplies('r')} and r.user_id not in (${usersBlockedWith(recipientId)}))
    else n.actor_id not in (${usersBlockedWith(recipientId)})
  end)`;

/**
 * How many entries the recipient may see and has not read, up to UNREAD_COUNT_CAP (the bell shows
 * '99+'). Each entry's visibility is a few index probes; a backlog of 10,000 unread entries would
 * cost every list and count request hundreds of milliseconds (bench/notifications.ts), so the count
 * stops where the bell stops.
 */
const unreadCountStatement = preparedSql(
  'notifications_unread_count',
  sql`select count(*)::int as count from (
    select 1 from notifications n left join posts p on p.id = n.post_id
    where n.recipient_id = ${recipientParam} and n.read_at is null
      and ${entryHasVisibleActor(recipientParam)} and ${entryPostVisible(recipientParam)}
    limit ${UNREAD_COUNT_CAP}
  ) unread`,
);

export async function countUnread(ex: Executor, recipientId: string): Promise<number> {
  const [row] = rowsOf(await unreadCountStatement(ex).execute({ recipientId }));
  return Number(row?.count ?? 0);
}

export interface StreamView {
  /** The recipient's last event number: every entry up to it is in this view. */
  last: number;
  /** Their entries after the `after` asked for, oldest first; none when it was null. */
  rows: NotificationRow[];
  unread: number;
}

/**
 * What an open stream sends at one moment: the last event number, the entries after `after` (taken as
 * `last` when beyond it: another database's Last-Event-ID) and the unread count, read in one snapshot.
 * Read apart, a like committing between the reads would be in the entries and not in the count (or
 * the reverse); the stream would then skip that like's own announcement as already sent, and the bell
 * would stay one behind until the next change.
 */
export function readStreamView(
  db: Database,
  recipientId: string,
  after: number | null,
  limit: number,
): Promise<StreamView> {
  return db.transaction(
    async (tx) => {
      const last = await lastSeq(tx, recipientId);
      const from = after === null ? last : Math.min(after, last);
      const rows = from < last ? await newestNotificationsAfter(tx, recipientId, from, limit) : [];
      return { last, rows, unread: await countUnread(tx, recipientId) };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** The recipient's last event number (0 before the first). */
export async function lastSeq(ex: Executor, recipientId: string): Promise<number> {
  const [row] = rowsOf(
    await ex.execute(sql`select seq from notification_counters where user_id = ${recipientId}`),
  );
  return row ? Number(row.seq) : 0;
}

/** Marks the recipient's entries read: those with `ids`, or all. Returns how many changed. */
export async function markRead(ex: Executor, recipientId: string, ids: string[] | null): Promise<number> {
  const conditions = [eq(notifications.recipientId, recipientId), isNull(notifications.readAt)];
  if (ids) conditions.push(inArray(notifications.id, ids));
  const changed = await ex
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(...conditions))
    .returning({ id: notifications.id });
  return changed.length;
}

/** Tells the recipient's open streams, on every instance, that their unread count changed. */
export async function announceRead(ex: Executor, recipientId: string): Promise<void> {
  // announce_notification() (migration 0015): NOTIFYed once the caller's transaction commits.
  await ex.execute(sql`select announce_notification(${`${recipientId} read`})`);
}

export interface PreferenceRow {
  type: NotificationType;
  inApp: boolean;
  push: boolean;
}

export function listPreferences(ex: Executor, userId: string): Promise<PreferenceRow[]> {
  return ex
    .select({
      type: notificationPreferences.type,
      inApp: notificationPreferences.inApp,
      push: notificationPreferences.push,
    })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
}

export async function savePreferences(ex: Executor, userId: string, rows: PreferenceRow[]): Promise<void> {
  if (rows.length === 0) return;
  await ex
    .insert(notificationPreferences)
    .values(rows.map((row) => ({ userId, ...row })))
    .onConflictDoUpdate({
      target: [notificationPreferences.userId, notificationPreferences.type],
      set: { inApp: sql`excluded.in_app`, push: sql`excluded.push` },
    });
}
