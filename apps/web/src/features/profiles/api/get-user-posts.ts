import { useInfiniteQuery } from '@tanstack/react-query';
import type { PagedPostsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';

interface PageParam {
  page: number;
  cursor: string | null;
}

export const getUserPosts = (userId: string, { page, cursor }: PageParam, signal?: AbortSignal) => {
  const query = new URLSearchParams({ user: userId, pagenum: String(page) });
  if (cursor) query.set('cursor', cursor);
  return api<PagedPostsResponse>(`/api/profile/getPosts/?${query}`, { signal });
};

/** One user's posts, newest first, page by page (spec section 7, getPosts). */
export function useUserPosts(userId: string) {
  return useInfiniteQuery({
    queryKey: ['profile-posts', userId],
    queryFn: ({ pageParam, signal }) => getUserPosts(userId, pageParam, signal),
    initialPageParam: { page: 1, cursor: null } as PageParam,
    getNextPageParam: (last): PageParam | undefined =>
      last.info.next ? { page: last.info.next, cursor: last.info.nextCursor } : undefined,
  });
}
