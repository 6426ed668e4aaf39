import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { MapViewport, MissingMapResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { missingKeys } from '../../../components/missing/api/query-keys.ts';

/** GET /api/cats/missing/map for one viewport, in the bounds format of GET /api/explore. */
export const getMissingMap = (v: MapViewport, signal?: AbortSignal) => {
  const query = new URLSearchParams({
    west: String(v.west),
    south: String(v.south),
    east: String(v.east),
    north: String(v.north),
    zoom: String(v.zoom),
  });
  return api<MissingMapResponse>(`/api/cats/missing/map?${query}`, { signal });
};

/**
 * Issue 26: the missing cats of the map's viewport (the same padded, debounced viewport as the post
 * markers). The previous answer stays while the next loads, so pins that remain in view stay put.
 */
export function useMissingMap(viewport: MapViewport | null) {
  return useQuery({
    queryKey: viewport ? missingKeys.map(viewport) : missingKeys.maps,
    queryFn: ({ signal }) => getMissingMap(viewport!, signal),
    enabled: viewport !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
