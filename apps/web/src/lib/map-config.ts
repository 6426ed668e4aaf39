import { useQuery } from '@tanstack/react-query';
import type { MapConfigResponse } from '@cats/contracts';
import { api } from './api-client.ts';

/**
 * Where tiles come from (the server's MAP_TILE_URL, which its CSP allows), for the maps of shared
 * components (the location picker) and the cat page's maps; the other features' maps keep their own
 * copy of this request under the same cache key, so the answer is fetched once.
 */
export function useMapConfig() {
  return useQuery({
    queryKey: ['config', 'map'],
    queryFn: ({ signal }) => api<MapConfigResponse>('/api/config/map', { signal, anonymous: true }),
    staleTime: Infinity,
  });
}
