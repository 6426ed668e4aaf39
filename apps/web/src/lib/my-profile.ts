import type { MyProfileResponse } from '@cats/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';

/**
 * The signed-in user's own profile (GET /api/profile/getMyProfile), shared by the top navigation's
 * avatar, the own profile page and the settings: one cache entry, so a change made on one screen shows
 * on the others.
 */
export const myProfileKey = ['profile', 'me'] as const;

export function useMyProfile(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: myProfileKey,
    queryFn: ({ signal }) => api<MyProfileResponse>('/api/profile/getMyProfile', { signal }),
    enabled: options.enabled ?? true,
  });
}
