import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ExploreViewportResponse, MapViewport } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';

export const exploreKeys = {
  all: ['explore'] as const,
  viewports: ['explore', 'viewport'] as const,
  viewport: (v: MapViewport) => ['explore', 'viewport', v] as const,
  posts: (ids: readonly string[]) => ['explore', 'posts', ids.join(',')] as const,
};

/** GET /api/explore for one viewport: lone markers and clusters. */
export const getExploreViewport = (v: MapViewport, signal?: AbortSignal) => {
  const query = new URLSearchParams({
    west: String(v.west),
    south: String(v.south),
    east: String(v.east),
    north: String(v.north),
    zoom: String(v.zoom),
  });
  return api<ExploreViewportResponse>(`/api/explore?${query}`, { signal });
};

/**
 * The markers of the current viewport. While the next viewport loads the previous answer stays on
 * screen, so markers that remain in view are never removed and re-added.
 */
export function useExploreViewport(viewport: MapViewport | null) {
  return useQuery({
    queryKey: viewport ? exploreKeys.viewport(viewport) : exploreKeys.viewports,
    queryFn: ({ signal }) => getExploreViewport(viewport!, signal),
    enabled: viewport !== null,
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  });
}
