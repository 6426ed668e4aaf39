import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CatsResponse, Post } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { catKeys } from './query-keys.ts';

export interface CatSearch {
  /** Part of the name; empty lists every cat. */
  q: string;
  /** Nearest first from this point (the picture's own spot), else the newest seen first. */
  near?: { latitude: number; longitude: number } | null;
}

/** A picture's place as the search's `near` (as exact as the viewer may see it), or null without one. */
export const nearPicture = (post: Pick<Post, 'latitude' | 'longitude'>): CatSearch['near'] =>
  post.latitude !== null && post.longitude !== null
    ? { latitude: post.latitude, longitude: post.longitude }
    : null;

export const searchCats = ({ q, near }: CatSearch, signal?: AbortSignal) => {
  const query = new URLSearchParams();
  if (q) query.set('q', q);
  if (near) query.set('near', `${near.latitude},${near.longitude}`);
  return api<CatsResponse>(`/api/cats?${query}`, { signal });
};

/**
 * GET /api/cats?q=&near=: the first page of cats by name. The previous answer stays on screen while
 * the next one loads, so the list does not blink at every letter typed.
 */
export function useSearchCats(search: CatSearch) {
  const near = search.near ? `${search.near.latitude},${search.near.longitude}` : '';
  return useQuery({
    queryKey: [...catKeys.search(search.q), near],
    queryFn: ({ signal }) => searchCats(search, signal),
    placeholderData: keepPreviousData,
  });
}
