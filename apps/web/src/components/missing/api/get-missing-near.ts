import { useQuery } from '@tanstack/react-query';
import { MISSING_BANNER_SHOWN, type MissingNearResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { takeEarlyMissingNear } from '../../../lib/early-requests.ts';
import { missingKeys } from './query-keys.ts';

export const getMissingNear = (limit: number, signal?: AbortSignal) =>
  api<MissingNearResponse>(`/api/cats/missing?limit=${limit}`, { signal });

/**
 * GET /api/cats/missing: missing cats within 2 km of the viewer's area (the home area of Settings, else
 * their newest located post), the nearest `limit`, and how many there are in all. The feed's banner
 * asks for the MISSING_BANNER_SHOWN it shows (Explore's pins follow the map's view instead:
 * features/explore/api/get-missing-map.ts).
 */
export function useMissingNear(limit: number) {
  return useQuery({
    queryKey: missingKeys.nearUpTo(limit),
    queryFn: async ({ signal }) => {
      // The banner's list may already be on its way on /feed (lib/early-requests.ts, started by boot.ts).
      const early =
        limit === MISSING_BANNER_SHOWN
          ? ((await takeEarlyMissingNear()) as MissingNearResponse | null)
          : null;
      return early ?? getMissingNear(limit, signal);
    },
    staleTime: 60_000,
  });
}
