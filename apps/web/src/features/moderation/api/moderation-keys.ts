/**
 * The moderation page's cache entries: the queue, its health, the team, the appeals, the audit log and
 * the reports' pictures.
 */
export const moderationKeys = {
  all: ['moderation'] as const,
  queue: ['moderation', 'queue'] as const,
  stats: ['moderation', 'stats'] as const,
  staff: ['moderation', 'staff'] as const,
  appeals: ['moderation', 'appeals'] as const,
  log: ['moderation', 'log'] as const,
  /** A report's picture, by its route (issue 46). */
  picture: (url: string) => ['moderation', 'picture', url] as const,
};
