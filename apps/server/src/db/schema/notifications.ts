import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { NOTIFICATION_TYPES } from '@cats/contracts';
import { cats } from './cats.ts';
import { groups } from './groups.ts';
import { moderationActions } from './moderation.ts';
import { comments, posts } from './posts.ts';
import { users } from './users.ts';

const typeList = sql.raw(NOTIFICATION_TYPES.map((type) => `'${type}'`).join(', '));

/**
 * One entry of a user's notification centre (issue 25), written in the same transaction as its cause
 * by add_notification() (migration 'notifications') or add_notifications() (migration
 * 'notification_causes', for many recipients at once): from application code, and from triggers on
 * likes, comments and posts linked to cats. Deleting what an entry is about (a post, a comment, a group, the user who did it)
 * deletes the entry with it. Likes and replies have no actor: an entry stands for the likes of one post,
 * or the replies in its thread, in one 12 h window, and who did it is read from `likes` or `comments`,
 * so an unlike, a deleted comment or a block takes its author out without a counter to keep.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    recipientId: uuid('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: NOTIFICATION_TYPES }).notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'cascade' }),
    postId: uuid('post_id').references(() => posts.id, { onDelete: 'cascade' }),
    commentId: uuid('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'cascade' }),
    /**
     * The cat of a cat entry (issue 26): cat_sighting, the post was linked to it; cat_suggestion, someone
     * suggested it for the recipient's post; cat_suggestion_accepted, the post was linked to it as the
     * recipient had suggested; cat_missing_nearby, cat_found and missing_report, its missing alert.
     */
    catId: uuid('cat_id').references(() => cats.id, { onDelete: 'cascade' }),
    /**
     * Moderation entries (issue 27): the action of the audit log they are about (moderation_decision:
     * the action on the recipient's content or account; appeal_decided: the appealed action;
     * report_outcome: the action on what the recipient reported). No actor: moderators act unnamed.
     */
    moderationActionId: uuid('moderation_action_id').references(() => moderationActions.id, {
      onDelete: 'cascade',
    }),
    /**
     * Like and reply entries: the start of the 12 h window (aligned to the epoch) whose likes or replies
     * they gather (replies from the entry's created_at on).
     */
    windowStart: timestamp('window_start', { withTimezone: true }),
    /**
     * The recipient's event number of the entry's latest change: taken from notification_counters under
     * its row lock, so a user's numbers follow commit order, and a stream resumed after number n
     * (Last-Event-ID) misses nothing and repeats nothing.
     */
    seq: bigint('seq', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
    /**
     * The seq this entry was last sent by Web Push at (modules/push): an instance claims a send by
     * moving it up to `seq` (UPDATE … WHERE push_sent_seq < seq RETURNING), so of all the instances that
     * hear the same NOTIFY exactly one sends.
     */
    pushSentSeq: bigint('push_sent_seq', { mode: 'number' }),
  },
  (t) => [
    uniqueIndex('notifications_recipient_seq_idx').on(t.recipientId, t.seq),
    uniqueIndex('notifications_like_window_idx')
      .on(t.recipientId, t.postId, t.windowStart)
      .where(sql`${t.type} = 'like'`),
    // Led by the post: also how a deleted comment finds the reply entries of its window.
    uniqueIndex('notifications_reply_window_idx')
      .on(t.postId, t.windowStart, t.recipientId)
      .where(sql`${t.type} = 'reply'`),
    index('notifications_unread_idx')
      .on(t.recipientId)
      .where(sql`${t.readAt} is null`),
    index('notifications_actor_idx').on(t.actorId),
    index('notifications_post_idx').on(t.postId),
    index('notifications_comment_idx').on(t.commentId),
    index('notifications_group_idx').on(t.groupId),
    // Partial: only cat entries have a cat; the cat's ON DELETE CASCADE looks them up by it.
    index('notifications_cat_idx')
      .on(t.catId)
      .where(sql`${t.catId} is not null`),
    check('notifications_type', sql`${t.type} in (${typeList})`),
    check(
      'notifications_grouped_shape',
      sql`(${t.type} in ('like', 'reply')) = (${t.windowStart} is not null and ${t.actorId} is null)`,
    ),
    check(
      'notifications_post_types',
      sql`${t.type} not in ('like', 'comment', 'reply', 'group_share', 'cat_sighting', 'cat_suggestion', 'cat_suggestion_accepted') or ${t.postId} is not null`,
    ),
    check(
      'notifications_cat_types',
      sql`(${t.type} in ('cat_sighting', 'cat_suggestion', 'cat_suggestion_accepted', 'cat_missing_nearby', 'cat_found', 'missing_report')) = (${t.catId} is not null)`,
    ),
    check(
      'notifications_moderation_types',
      sql`(${t.type} in ('moderation_decision', 'appeal_decided', 'report_outcome')) = (${t.moderationActionId} is not null)`,
    ),
    index('notifications_moderation_action_idx')
      .on(t.moderationActionId)
      .where(sql`${t.moderationActionId} is not null`),
    check('notifications_comment_types', sql`${t.type} <> 'comment' or ${t.commentId} is not null`),
    check(
      'notifications_group_types',
      sql`${t.type} not in ('join_request', 'request_accepted', 'request_declined', 'removed_from_group', 'group_share') or ${t.groupId} is not null`,
    ),
    check('notifications_not_own', sql`${t.actorId} is null or ${t.actorId} <> ${t.recipientId}`),
  ],
);

/** Each user's last notification event number (see notifications.seq). */
export const notificationCounters = pgTable('notification_counters', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  seq: bigint('seq', { mode: 'number' }).notNull().default(0),
});

/** A user's switches per type; a type without a row is on for both channels. */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: NOTIFICATION_TYPES }).notNull(),
    inApp: boolean('in_app').notNull(),
    push: boolean('push').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.type] }),
    check('notification_preferences_type', sql`${t.type} in (${typeList})`),
  ],
);

/** A browser's Web Push subscription (issue 25); the push service's endpoint identifies it. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_idx').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId),
  ],
);

/**
 * Notification-stream tickets already used (issue 46): a ticket opens one stream, on whichever
 * instance, and is refused after that. A row is kept until a while after its ticket expired (then the
 * expiry refuses it anyway); each use deletes the long-expired rows (stream-tickets.repository.ts).
 */
export const streamTicketUses = pgTable(
  'stream_ticket_uses',
  {
    /** The ticket's random part. */
    nonce: text('nonce').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('stream_ticket_uses_expires_idx').on(t.expiresAt)],
);
