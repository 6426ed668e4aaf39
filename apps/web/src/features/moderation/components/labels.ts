import type { ModerationActionKind, ReportReason, ReportTargetType } from '@cats/contracts';

/** How the moderation page words each report reason (the rule broken, when acting). */
export const REASON_LABELS: Record<ReportReason, string> = {
  spam: 'Spam',
  harassment: 'Harassment or bullying',
  off_topic: 'Not about cats',
  private_information: "Someone's home or private information",
  animal_cruelty: 'Animal cruelty',
  other: 'Something else',
};

export const TARGET_LABELS: Record<ReportTargetType, string> = {
  post: 'Post',
  comment: 'Comment',
  user: 'Profile',
  cat: 'Cat page',
};

export const ACTION_LABELS: Record<ModerationActionKind, string> = {
  dismiss: 'Dismissed',
  remove: 'Removed',
  strip_location: 'Location removed',
  warn: 'Warned',
  suspend: 'Suspended',
  restore: 'Restored',
};
