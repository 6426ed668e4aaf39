/** Query keys of group data, shared by the Groups screens and the share picker. */
export const groupKeys = {
  all: ['groups'] as const,
  /** GET /api/groups: the caller's owned and member groups. */
  mine: ['groups', 'mine'] as const,
  /** GET /api/groups/requests: the caller's own join requests waiting for an answer (issue 28). */
  ownRequests: ['groups', 'requests'] as const,
  detail: (groupId: string) => ['groups', 'detail', groupId] as const,
  allPosts: ['groups', 'posts'] as const,
  posts: (groupId: string) => ['groups', 'posts', groupId] as const,
  allMaps: ['groups', 'map'] as const,
  map: (groupId: string) => ['groups', 'map', groupId] as const,
};
