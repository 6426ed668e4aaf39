import type { UserSummary } from '@cats/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { accountKeys } from './query-keys.ts';

/** GET /api/profile/blockedUsers. */
export function useBlockedUsers() {
  return useQuery({
    queryKey: accountKeys.blockedUsers(),
    queryFn: ({ signal }) =>
      api<{ blockedUsers: UserSummary[] }>('/api/profile/blockedUsers', { signal }).then(
        (r) => r.blockedUsers,
      ),
  });
}
