/** The moderation page's cache entries: the queue, its health, the team, the appeals and the audit log. */
export const moderationKeys = {
  all: ['moderation'] as const,
  queue: ['moderation', 'queue'] as const,
  stats: ['moderation', 'stats'] as const,
  staff: ['moderation', 'staff'] as const,
  appeals: ['moderation', 'appeals'] as const,
  log: ['moderation', 'log'] as const,
};
