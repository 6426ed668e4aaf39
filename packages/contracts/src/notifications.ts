import { z } from 'zod';
import { MODERATION_ACTIONS, REPORT_TARGET_TYPES } from './moderation-constants.ts';
import { userSummarySchema } from './users.ts';

/**
 * What a user is told about (issue 25). `like`: likes on your post, grouped per post per 12 h window;
 * `comment`: a comment on your post; `reply`: a comment on someone else's post you commented on;
 * `join_request`: someone asks to join a group you own; `request_accepted` / `request_declined`: the
 * answer to your request; `removed_from_group`: an owner removed you; `group_share`: a post shared with
 * a group you are in; `cat_sighting`: a post newly linked to a cat you follow or care for (issue 26);
 * `cat_missing_nearby`: a cat marked missing within 2 km of your home area; `cat_found`: a cat you were
 * told was missing, or that you follow or care for, is back home; `missing_report`: someone saw the
 * missing cat you care for ('I saw this cat' without a photo; a photo is a `cat_sighting`);
 * `cat_suggestion`: someone suggests which cat your picture shows; `cat_suggestion_accepted`: the
 * author of a picture agreed with your suggestion (issue 26). Moderation (issue 27):
 * `moderation_decision`: a moderator acted on your content or account, or undid such an action (the
 * statement of reasons is in Settings); `appeal_decided`: the answer to your appeal; `report_outcome`:
 * what came of something you reported ('We removed the post you reported').
 */
export const NOTIFICATION_TYPES = [
  'like',
  'comment',
  'reply',
  'join_request',
  'request_accepted',
  'request_declined',
  'removed_from_group',
  'group_share',
  'cat_sighting',
  'cat_missing_nearby',
  'cat_found',
  'missing_report',
  'cat_suggestion',
  'cat_suggestion_accepted',
  'moderation_decision',
  'appeal_decided',
  'report_outcome',
] as const;
export const notificationTypeSchema = z.enum(NOTIFICATION_TYPES);
export type NotificationType = z.infer<typeof notificationTypeSchema>;

/** Entries per page of GET /api/notifications. */
export const NOTIFICATIONS_PAGE_SIZE = 20;
/** Likes on one post within a window of this many hours make one entry. */
export const LIKE_GROUP_HOURS = 12;
/** How many of an entry's actors it names ('mariposa and 4 others'): the newest first. */
export const NOTIFICATION_ACTORS_SHOWN = 3;
/**
 * The unread count stops at this many: a count of UNREAD_COUNT_CAP means that many or more (the bell
 * shows '99+'). Counting a backlog of thousands exactly would cost every request its speed.
 */
export const UNREAD_COUNT_CAP = 100;
/** Seconds between two heartbeats on the notification stream. */
export const NOTIFICATION_HEARTBEAT_SECONDS = 25;
/** Seconds within which a stream ticket can be used, once, to open the stream. */
export const STREAM_TICKET_SECONDS = 60;
/**
 * At most this many entries are replayed when a stream opens: the newest changes after Last-Event-ID.
 * A client away for longer finds the older ones in GET /api/notifications.
 */
export const NOTIFICATION_REPLAY_LIMIT = 200;

export const notificationSchema = z.object({
  _id: z.string(),
  type: notificationTypeSchema,
  /** The stream's event id for this entry's latest change; a larger one is a later change. */
  seq: z.number().int().positive(),
  /** When it was first made, and when it last changed (a grouped like entry changes with each like). */
  createdAt: z.string(),
  updatedAt: z.string(),
  read: z.boolean(),
  /** Who did it, newest first, at most NOTIFICATION_ACTORS_SHOWN; actorCount counts them all. */
  actors: z.array(userSummarySchema),
  actorCount: z.number().int().nonnegative(),
  /** The post it is about: its id and a small image (never a location). */
  post: z
    .object({
      _id: z.string(),
      /** The smallest image variant, for a thumbnail. */
      thumbnailUrl: z.string(),
      catName: z.string().nullable(),
    })
    .nullable(),
  group: z.object({ _id: z.string(), name: z.string() }).nullable(),
  /** The cat a cat entry (sighting, suggestion, missing, found, report) is about (never its home or a place). */
  cat: z.object({ _id: z.string(), name: z.string() }).nullable(),
  /** The comment's text for comment and reply entries (as text, never HTML). */
  comment: z.object({ _id: z.string(), excerpt: z.string() }).nullable(),
  /**
   * Moderation entries (issue 27): the action taken, on what kind of thing, and for an appeal its
   * outcome. Never the moderator's name, nor the reporter's.
   */
  moderation: z
    .object({
      actionId: z.string(),
      action: z.enum(MODERATION_ACTIONS),
      targetType: z.enum(REPORT_TARGET_TYPES),
      /** For a suspension: when it ends (null for good). */
      suspendedUntil: z.string().nullable(),
      /** For appeal_decided: whether the decision was overturned or upheld. */
      appealOutcome: z.enum(['upheld', 'overturned']).nullable(),
      /** For a 'restore': the kind of action it undid. */
      revertedAction: z.enum(MODERATION_ACTIONS).nullable(),
    })
    .nullable(),
  /** The web app's page the entry opens: /posts/{id}, /groups/{id} and so on. */
  link: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationsQuerySchema = z.object({ cursor: z.string().max(200).optional() });
export const notificationsResponseSchema = z.object({
  notifications: z.array(notificationSchema),
  /** As GET /api/notifications/unread-count answers it: at most UNREAD_COUNT_CAP. */
  unreadCount: z.number().int().nonnegative().max(UNREAD_COUNT_CAP),
  info: z.object({ nextCursor: z.string().nullable() }),
});
export type NotificationsResponse = z.infer<typeof notificationsResponseSchema>;

export const unreadCountResponseSchema = z.object({
  count: z.number().int().nonnegative().max(UNREAD_COUNT_CAP),
});
export type UnreadCountResponse = z.infer<typeof unreadCountResponseSchema>;

/** Without `ids`, every entry is marked read. */
export const markReadRequestSchema = z.object({ ids: z.array(z.string()).min(1).max(100).optional() });
export type MarkReadRequest = z.infer<typeof markReadRequestSchema>;

export const channelPreferenceSchema = z.object({ inApp: z.boolean(), push: z.boolean() });
export const notificationPreferencesSchema = z.object(
  Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, channelPreferenceSchema])) as Record<
    NotificationType,
    typeof channelPreferenceSchema
  >,
);
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
export const notificationPreferencesResponseSchema = z.object({
  preferences: notificationPreferencesSchema,
});
/** PUT replaces the switches it names; types it leaves out keep theirs. */
export const updateNotificationPreferencesRequestSchema = z.object({
  preferences: notificationPreferencesSchema.partial(),
});

export const streamTicketResponseSchema = z.object({
  ticket: z.string(),
  expiresIn: z.number().int().positive(),
});
export type StreamTicketResponse = z.infer<typeof streamTicketResponseSchema>;
/**
 * GET /api/notifications/stream?ticket=…: Server-Sent Events for the ticket's user (EventSource cannot
 * send a bearer header, and an access token in a URL ends up in logs). A ticket opens one stream,
 * within STREAM_TICKET_SECONDS; using it again is refused (401), so on every reconnect the client
 * takes a new ticket and passes the last id it saw as `lastEventId` (a new EventSource cannot set the
 * Last-Event-ID header, which the server reads too). A user holds a few streams open per instance:
 * one more ends the oldest. Events:
 * - `notification` (id: the entry's seq; data: a Notification): new or changed, oldest first, first the
 *   replay of everything after Last-Event-ID (at most NOTIFICATION_REPLAY_LIMIT, the newest), then live;
 * - `removed` (data: {_id}): an entry whose cause was undone (live only: a removal while the client
 *   was away is not replayed, the replay's `unread` counts without it);
 * - `unread` (data: {count}; id: the last seq the stream has covered, so that a reconnect resumes
 *   there even when no notification came): once after the replay and whenever it changes;
 * - `superseded` (data: {}): the last event of a stream the server ends because the user opened one
 *   more than it keeps (NOTIFICATION_STREAMS_PER_USER). The client does not reconnect at once, which
 *   would end another of the user's streams in turn, but when its page is looked at again (the web
 *   app: visible or focused, or after about a minute if it was visible all along);
 * - a `:` comment line every NOTIFICATION_HEARTBEAT_SECONDS as a heartbeat.
 * Without Last-Event-ID (and lastEventId) nothing is replayed: the stream starts from now. A client
 * that has just loaded the list passes the largest seq in it to miss nothing in between.
 */
export const notificationStreamQuerySchema = z.object({
  ticket: z.string().max(1000).optional(),
  lastEventId: z.string().max(20).optional(),
});
export const unreadEventSchema = unreadCountResponseSchema;
export const removedEventSchema = z.object({ _id: z.string() });
export const supersededEventSchema = z.object({});

/** Web Push (issue 25): the server's VAPID public key, and a browser's PushSubscription.toJSON(). */
export const pushKeyResponseSchema = z.object({ publicKey: z.string() });
export const pushSubscriptionRequestSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2000),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
});
export type PushSubscriptionRequest = z.infer<typeof pushSubscriptionRequestSchema>;
export const pushUnsubscribeRequestSchema = z.object({ endpoint: z.string().max(2000) });
