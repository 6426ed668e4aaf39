import { useInfiniteQuery } from '@tanstack/react-query';
import type { CatSightingsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { catKeys } from '../../../components/cats/api/query-keys.ts';

export const getCatSightings = (catId: string, cursor: string | null, signal?: AbortSignal) => {
  const query = new URLSearchParams();
  if (cursor) query.set('cursor', cursor);
  return api<CatSightingsResponse>(`/api/cats/${encodeURIComponent(catId)}/sightings?${query}`, { signal });
};

/**
 * Every sighting of the cat the viewer may see, newest first, page by page. Each is a post in the
 * feed's shape, so a like or a hide made anywhere patches it here too (components/post/api/post-cache.ts).
 */
export function useCatSightings(catId: string) {
  return useInfiniteQuery({
    queryKey: catKeys.sightings(catId),
    queryFn: ({ pageParam, signal }) => getCatSightings(catId, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.info.nextCursor ?? undefined,
  });
}
