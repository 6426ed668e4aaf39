/** The moderation page's cache entries: the queue, its health and the team. */
export const moderationKeys = {
  all: ['moderation'] as const,
  queue: ['moderation', 'queue'] as const,
  stats: ['moderation', 'stats'] as const,
  staff: ['moderation', 'staff'] as const,
};
