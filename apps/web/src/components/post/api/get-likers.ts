import { useInfiniteQuery } from '@tanstack/react-query';
import type { LikersResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { likerKeys } from './query-keys.ts';

export const getLikers = (postId: string, cursor: string | null, signal?: AbortSignal) =>
  api<LikersResponse>(
    `/api/posts/${encodeURIComponent(postId)}/likes${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
    { signal },
  );

/**
 * Who liked a post, newest like first, a page at a time (issue 24, 'Liked by'). Loaded afresh each time
 * the list opens: a like given a moment ago must be in it.
 */
export function useLikers(postId: string) {
  return useInfiniteQuery({
    queryKey: likerKeys.post(postId),
    queryFn: ({ pageParam, signal }) => getLikers(postId, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.info.nextCursor,
    staleTime: 0,
  });
}
