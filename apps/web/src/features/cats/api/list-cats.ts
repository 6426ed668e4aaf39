import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { CatsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { catKeys } from '../../../components/cats/api/query-keys.ts';

export interface CatsListFilter {
  /** Part of the name; empty lists every cat. */
  q: string;
  /** Nearest first from this point, else the most recently seen first. */
  near: { latitude: number; longitude: number } | null;
  /** Only the cats the viewer cares for. */
  caredFor: boolean;
}

export const listCats = (filter: CatsListFilter, cursor: string | null, signal?: AbortSignal) => {
  const query = new URLSearchParams();
  if (filter.q) query.set('q', filter.q);
  if (filter.near) query.set('near', `${filter.near.latitude},${filter.near.longitude}`);
  if (filter.caredFor) query.set('caredFor', 'true');
  if (cursor) query.set('cursor', cursor);
  return api<CatsResponse>(`/api/cats?${query}`, { signal });
};

/**
 * GET /api/cats, page by page: the neighbourhood's cats for the /cats page. Under catKeys.all, so a
 * cat created, renamed, linked or merged anywhere reloads it. The previous answer stays on screen
 * while a new search loads, so the list does not blink at every letter typed. Not `enabled` until the
 * page knows where to measure from.
 */
export function useCatsList(filter: CatsListFilter, enabled = true) {
  const near = filter.near ? `${filter.near.latitude},${filter.near.longitude}` : '';
  return useInfiniteQuery({
    queryKey: [...catKeys.all, 'list', filter.q, near, filter.caredFor],
    queryFn: ({ pageParam, signal }) => listCats(filter, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.info.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    enabled,
  });
}
