/** The moderation page's cache entries: the queue, its health, the team and the appeals. */
export const moderationKeys = {
  all: ['moderation'] as const,
  queue: ['moderation', 'queue'] as const,
  stats: ['moderation', 'stats'] as const,
  staff: ['moderation', 'staff'] as const,
  appeals: ['moderation', 'appeals'] as const,
};
