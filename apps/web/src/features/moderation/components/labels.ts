import type { ModerationActionKind, ReportTargetType } from '@cats/contracts';
import { defineMessage, type MessageDescriptor } from '../../../i18n/i18n-store.ts';

export const TARGET_LABELS: Record<ReportTargetType, MessageDescriptor> = {
  post: defineMessage({ id: 'moderation.target.post', defaultMessage: 'Post' }),
  comment: defineMessage({ id: 'moderation.target.comment', defaultMessage: 'Comment' }),
  user: defineMessage({ id: 'moderation.target.user', defaultMessage: 'Profile' }),
  cat: defineMessage({ id: 'moderation.target.cat', defaultMessage: 'Cat page' }),
};

export const ACTION_LABELS: Record<ModerationActionKind, MessageDescriptor> = {
  dismiss: defineMessage({ id: 'moderation.action.dismiss', defaultMessage: 'Dismissed' }),
  remove: defineMessage({ id: 'moderation.action.remove', defaultMessage: 'Removed' }),
  strip_location: defineMessage({
    id: 'moderation.action.stripLocation',
    defaultMessage: 'Location removed',
  }),
  warn: defineMessage({ id: 'moderation.action.warn', defaultMessage: 'Warned' }),
  suspend: defineMessage({ id: 'moderation.action.suspend', defaultMessage: 'Suspended' }),
  restore: defineMessage({ id: 'moderation.action.restore', defaultMessage: 'Restored' }),
};
