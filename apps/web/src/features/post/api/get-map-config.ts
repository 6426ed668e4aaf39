import { useQuery } from '@tanstack/react-query';
import type { MapConfigResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';

export const getMapConfig = (signal?: AbortSignal) => api<MapConfigResponse>('/api/config/map', { signal });

/** Where tiles come from (the server's MAP_TILE_URL, which its CSP allows); shared cache with the maps. */
export function useMapConfig() {
  return useQuery({
    queryKey: ['config', 'map'],
    queryFn: ({ signal }) => getMapConfig(signal),
    staleTime: Infinity,
  });
}
