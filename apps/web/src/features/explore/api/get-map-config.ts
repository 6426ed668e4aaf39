import { useQuery } from '@tanstack/react-query';
import type { MapConfigResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { takeEarlyMapConfig } from '../../../lib/early-requests.ts';

export const getMapConfig = (signal?: AbortSignal) =>
  api<MapConfigResponse>('/api/config/map', { signal, anonymous: true });

/** Where tiles come from (server config); fixed for the life of the page. */
export function useMapConfig() {
  return useQuery({
    queryKey: ['map-config'],
    queryFn: async ({ signal }) =>
      // On /explore it may already be on its way (lib/early-requests.ts, started by boot.ts).
      ((await takeEarlyMapConfig()) as MapConfigResponse | null) ?? getMapConfig(signal),
    staleTime: Infinity,
    gcTime: Infinity,
  });
}
