import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { GroupMapResponse, PagedPostsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { groupKeys } from '../../../components/groups/api/query-keys.ts';

export const getGroupPosts = (groupId: string, cursor: string | null, signal?: AbortSignal) =>
  api<PagedPostsResponse>(
    `/api/groups/${encodeURIComponent(groupId)}/posts${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
    { signal },
  );

/** The pictures shared with the group, newest first, paged by cursor like the feed. */
export function useGroupPosts(groupId: string) {
  return useInfiniteQuery({
    queryKey: groupKeys.posts(groupId),
    queryFn: ({ pageParam, signal }) => getGroupPosts(groupId, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.info.nextCursor,
  });
}

export const getGroupMap = (groupId: string, signal?: AbortSignal) =>
  api<GroupMapResponse>(`/api/groups/${encodeURIComponent(groupId)}/map`, { signal });

/** Every located picture shared with the group, with exact coordinates (members only). */
export function useGroupMap(groupId: string, enabled = true) {
  return useQuery({
    queryKey: groupKeys.map(groupId),
    queryFn: ({ signal }) => getGroupMap(groupId, signal),
    enabled,
  });
}
