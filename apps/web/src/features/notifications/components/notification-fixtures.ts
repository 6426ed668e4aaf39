import type { Notification, UserSummary } from '@cats/contracts';

/** Test data: a notification as the API sends it, with what a test changes. */
export const user = (username: string): UserSummary => ({ _id: `id-${username}`, username });

export function notification(over: Partial<Notification> = {}): Notification {
  return {
    _id: 'n1',
    type: 'like',
    seq: 1,
    createdAt: '2026-05-01T10:00:00.000Z',
    updatedAt: '2026-05-01T10:00:00.000Z',
    read: false,
    actors: [user('mariposa')],
    actorCount: 1,
    post: { _id: 'p1', thumbnailUrl: '/media/p1-64.webp', catName: null },
    group: null,
    comment: null,
    cat: null,
    moderation: null,
    link: '/posts/p1',
    ...over,
  };
}
