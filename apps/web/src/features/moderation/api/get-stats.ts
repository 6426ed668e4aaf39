import { useQuery } from '@tanstack/react-query';
import type { ModerationStats } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { moderationKeys } from './moderation-keys.ts';

/** GET /api/moderation/stats: open reports, the oldest one's age, the median time to a first action. */
export const getStats = (signal?: AbortSignal) => api<ModerationStats>('/api/moderation/stats', { signal });

export function useStats(enabled: boolean) {
  return useQuery({
    queryKey: moderationKeys.stats,
    queryFn: ({ signal }) => getStats(signal),
    enabled,
  });
}
