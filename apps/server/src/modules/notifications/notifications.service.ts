import {
  isUuid,
  NOTIFICATION_TYPES,
  NOTIFICATIONS_PAGE_SIZE,
  type Notification,
  type NotificationPreferences,
  type NotificationsResponse,
} from '@cats/contracts';
import type { Database } from '../../db/client.ts';
import { badRequest } from '../../lib/http-errors.ts';
import { toUserSummary } from '../visibility/user-summary.ts';
import { mediaUrl, variantKey } from '../../media/urls.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { INVALID_CURSOR_MESSAGE } from '../posts/post-view.ts';
import * as repo from './notifications.repository.ts';

export interface NotificationsDeps {
  db: Database;
  /** S3_PUBLIC_URL or undefined: where media URLs point. */
  publicBase: string | undefined;
}

/** The smallest stored variant: a notification shows a thumbnail. */
const THUMBNAIL_WIDTH = 64;

/**
 * The web page an entry opens (issue 25: 'each entry linking to its post, group, request'). A sighting
 * opens its post, which shows its place as the location rule allows and the cat where the cat's home
 * rule allows (post-view.ts): the entry itself has no place.
 */
export function linkOf(row: repo.NotificationRow): string {
  switch (row.type) {
    case 'comment':
    case 'reply':
      return `/posts/${row.post!.id}#comment-${row.comment!.id}`;
    case 'like':
    case 'group_share':
    case 'cat_sighting':
    case 'cat_suggestion':
    case 'cat_suggestion_accepted':
      // A suggestion opens the picture, where its author accepts or declines it.
      return `/posts/${row.post!.id}`;
    case 'cat_missing_nearby':
    case 'cat_found':
    case 'missing_report':
      // The cat's page: its alert (the last-seen cell), and for its caretakers the reports.
      return `/cats/${row.cat!.id}`;
    case 'join_request':
    case 'request_accepted':
      return `/groups/${row.group!.id}`;
    case 'request_declined':
    case 'removed_from_group':
      // The group's page is members-only: the list of groups is where they can ask again.
      return '/groups';
    case 'moderation_decision':
    case 'appeal_decided':
      // The statement of reasons, where the decision can be appealed.
      return `/settings/moderation#decision-${row.moderation!.actionId}`;
    case 'report_outcome':
      return '/settings/moderation#reports';
  }
}

/** Comments are shown in one line beside the name; the full text is on the post's page. */
const EXCERPT_LENGTH = 140;
const excerpt = (body: string): string =>
  body.length <= EXCERPT_LENGTH ? body : `${body.slice(0, EXCERPT_LENGTH - 1).trimEnd()}…`;

export function toNotification(
  viewer: AuthContext,
  row: repo.NotificationRow,
  publicBase: string | undefined,
): Notification {
  return {
    _id: row.id,
    type: row.type,
    seq: row.seq,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    read: row.read,
    actors: row.actors.map((actor) => toUserSummary(viewer, actor, publicBase)),
    actorCount: row.actorCount,
    post: row.post
      ? {
          _id: row.post.id,
          thumbnailUrl: mediaUrl(publicBase, variantKey(row.post.mediaKey, THUMBNAIL_WIDTH)),
          catName: row.post.catName,
        }
      : null,
    group: row.group ? { _id: row.group.id, name: row.group.name } : null,
    comment: row.comment ? { _id: row.comment.id, excerpt: excerpt(row.comment.body) } : null,
    cat: row.cat ? { _id: row.cat.id, name: row.cat.name } : null,
    moderation: row.moderation
      ? {
          actionId: row.moderation.actionId,
          action: row.moderation.action,
          targetType: row.moderation.targetType,
          suspendedUntil: row.moderation.suspendedUntil?.toISOString() ?? null,
          appealOutcome: row.moderation.appealOutcome,
          revertedAction: row.moderation.revertedAction,
        }
      : null,
    link: linkOf(row),
  };
}

/** Cursors are the seq of the page's last entry. */
function decodeSeqCursor(cursor: string): number {
  if (!/^[1-9]\d{0,14}$/.test(cursor)) throw badRequest(INVALID_CURSOR_MESSAGE);
  return Number(cursor);
}

export const NOTIFICATION_MESSAGES = {
  unknownIds: 'Some of these notifications do not exist',
} as const;

export function createNotificationsService(deps: NotificationsDeps) {
  const { db, publicBase } = deps;
  return {
    async list(viewer: AuthContext, cursor: string | undefined): Promise<NotificationsResponse> {
      const before = cursor ? decodeSeqCursor(cursor) : null;
      const [rows, unreadCount] = await Promise.all([
        repo.listNotifications(db, viewer.userId, NOTIFICATIONS_PAGE_SIZE + 1, before),
        repo.countUnread(db, viewer.userId),
      ]);
      const page = rows.slice(0, NOTIFICATIONS_PAGE_SIZE);
      const last = page.at(-1);
      return {
        notifications: page.map((row) => toNotification(viewer, row, publicBase)),
        unreadCount,
        info: { nextCursor: rows.length > NOTIFICATIONS_PAGE_SIZE && last ? String(last.seq) : null },
      };
    },

    unreadCount: (viewer: AuthContext) => repo.countUnread(db, viewer.userId),

    /** Marks entries read (`ids`, or all) and tells the viewer's other open streams the new count. */
    async markRead(viewer: AuthContext, ids: string[] | undefined): Promise<number> {
      // Another user's id, or a malformed one, is answered as nothing to mark: ids are not secret,
      // but nothing tells whether one exists.
      const valid = ids ? ids.filter(isUuid).map((id) => id.toLowerCase()) : null;
      if (valid && valid.length === 0) return repo.countUnread(db, viewer.userId);
      await db.transaction(async (tx) => {
        const changed = await repo.markRead(tx, viewer.userId, valid);
        if (changed > 0) await repo.announceRead(tx, viewer.userId);
      });
      return repo.countUnread(db, viewer.userId);
    },

    async preferences(viewer: AuthContext): Promise<NotificationPreferences> {
      const saved = new Map((await repo.listPreferences(db, viewer.userId)).map((row) => [row.type, row]));
      return Object.fromEntries(
        NOTIFICATION_TYPES.map((type) => {
          const row = saved.get(type);
          return [type, { inApp: row?.inApp ?? true, push: row?.push ?? true }];
        }),
      ) as NotificationPreferences;
    },

    async savePreferences(
      viewer: AuthContext,
      changes: Partial<NotificationPreferences>,
    ): Promise<NotificationPreferences> {
      const rows = NOTIFICATION_TYPES.flatMap((type) => {
        const change = changes[type];
        return change ? [{ type, inApp: change.inApp, push: change.push }] : [];
      });
      await repo.savePreferences(db, viewer.userId, rows);
      return this.preferences(viewer);
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
