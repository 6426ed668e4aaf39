import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { EventBus } from '../../events/events.ts';
import {
  addModerationNotification,
  addNotification,
  notifyGroupShare,
  removeNotifications,
} from './notifications.repository.ts';

/**
 * What the notifications module writes when other modules act (issue 25's entries), as subscriptions to
 * their events (issue 47): groups, posts and moderation emit, and never import this module. Each handler
 * writes in the cause's transaction, so an entry exists exactly while its cause does.
 */
export function subscribeNotifications(events: EventBus): void {
  events.on('post.shared', ({ tx, postId, authorId, groupIds }) =>
    notifyGroupShare(tx, postId, authorId, groupIds),
  );
  events.on('post.unshared', async ({ tx, postId, groupIds }) => {
    for (const groupId of groupIds) await removeNotifications(tx, { type: 'group_share', postId, groupId });
  });
  events.on('group.joinRequested', async ({ tx, groupId, ownerId, requesterId }) => {
    await addNotification(tx, { recipientId: ownerId, type: 'join_request', actorId: requesterId, groupId });
  });
  events.on('group.joinRequestWithdrawn', ({ tx, groupId, requesterId }) =>
    removeNotifications(tx, { type: 'join_request', actorId: requesterId, groupId }),
  );
  events.on('group.joinRequestAnswered', async ({ tx, groupId, ownerId, requesterId, accepted }) => {
    await removeNotifications(tx, { type: 'join_request', actorId: requesterId, groupId });
    await addNotification(tx, {
      recipientId: requesterId,
      type: accepted ? 'request_accepted' : 'request_declined',
      actorId: ownerId,
      groupId,
    });
  });
  events.on('group.memberRemoved', async ({ tx, groupId, memberId, removedBy }) => {
    await removeNotifications(tx, { type: 'group_share', actorId: memberId, groupId });
    // Told when the owner removed them, not when they left themselves (issue 25).
    if (removedBy !== memberId) {
      await addNotification(tx, {
        recipientId: memberId,
        type: 'removed_from_group',
        actorId: removedBy,
        groupId,
      });
    }
  });
  events.on('moderation.outcome', async ({ tx, recipientId, type, actionId }) => {
    await addModerationNotification(tx, recipientId, type, actionId);
  });
}

/** Registers the subscriptions on the app's bus (app.ts, after the events plugin). */
export const notificationSubscriptionsPlugin = fp(
  async (app: FastifyInstance) => {
    subscribeNotifications(app.events);
  },
  { name: 'notification-subscriptions', dependencies: ['events'] },
);
