/** This feature's cache keys; the own profile's key is shared (lib/my-profile.ts). */
export const accountKeys = {
  all: ['account'] as const,
  blockedUsers: () => [...accountKeys.all, 'blocked-users'] as const,
  hiddenPosts: () => [...accountKeys.all, 'hidden-posts'] as const,
  dataExport: () => [...accountKeys.all, 'data-export'] as const,
  notificationPreferences: () => [...accountKeys.all, 'notification-preferences'] as const,
  statements: () => [...accountKeys.all, 'moderation-statements'] as const,
  ownReports: () => [...accountKeys.all, 'own-reports'] as const,
};
