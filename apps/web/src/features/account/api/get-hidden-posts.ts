import { useInfiniteQuery } from '@tanstack/react-query';
import type { PagedPostsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { accountKeys } from './query-keys.ts';

/** GET /api/profile/hiddenPosts: the posts the viewer hid, newest hide first, by cursor. */
export function useHiddenPosts() {
  return useInfiniteQuery({
    queryKey: accountKeys.hiddenPosts(),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      api<PagedPostsResponse>(
        `/api/profile/hiddenPosts${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`,
        { signal },
      ),
    getNextPageParam: (last) => last.info.nextCursor,
  });
}
