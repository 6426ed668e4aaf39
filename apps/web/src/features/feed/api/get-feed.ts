import { useInfiniteQuery } from '@tanstack/react-query';
import type { PagedPostsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { takeEarlyFeed } from '../../../lib/early-requests.ts';

export const feedKey = ['feed'] as const;

interface FeedPageParam {
  page: number;
  cursor: string | null;
}

/** GET /api/feed/{page}; later pages carry the server's cursor so nothing repeats while others post. */
export const getFeed = ({ page, cursor }: FeedPageParam, signal?: AbortSignal) =>
  api<PagedPostsResponse>(`/api/feed/${page}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, {
    signal,
  });

export function useFeed() {
  return useInfiniteQuery({
    queryKey: feedKey,
    queryFn: async ({ pageParam, signal }) => {
      // The first page may already be on its way (lib/early-requests.ts, started by boot.ts).
      if (pageParam.page === 1 && !pageParam.cursor) {
        const early = (await takeEarlyFeed()) as PagedPostsResponse | null;
        if (early) return early;
      }
      return getFeed(pageParam, signal);
    },
    initialPageParam: { page: 1, cursor: null } as FeedPageParam,
    getNextPageParam: (last): FeedPageParam | undefined =>
      last.info.next ? { page: last.info.next, cursor: last.info.nextCursor } : undefined,
  });
}
