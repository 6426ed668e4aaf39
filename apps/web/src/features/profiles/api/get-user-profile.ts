import { useQuery } from '@tanstack/react-query';
import type { UserProfileResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';

export const getUserProfile = (userId: string, signal?: AbortSignal) =>
  api<UserProfileResponse>(`/api/profile/getUserProfile/${encodeURIComponent(userId)}`, { signal });

export function useUserProfile(userId: string) {
  return useQuery({ queryKey: ['profile', userId], queryFn: ({ signal }) => getUserProfile(userId, signal) });
}
