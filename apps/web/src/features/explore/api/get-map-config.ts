import { useQuery } from '@tanstack/react-query';
import type { MapConfigResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';

export const getMapConfig = (signal?: AbortSignal) =>
  api<MapConfigResponse>('/api/config/map', { signal, anonymous: true });

/** Where tiles come from (server config); fixed for the life of the page. */
export function useMapConfig() {
  return useQuery({
    queryKey: ['map-config'],
    queryFn: ({ signal }) => getMapConfig(signal),
    staleTime: Infinity,
    gcTime: Infinity,
  });
}
