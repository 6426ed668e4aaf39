import { useQuery } from '@tanstack/react-query';
import type { PagedPostsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth-store.ts';
import type { Coordinates } from '../geolocation.ts';

/**
 * Where the map picker opens: the place of the signer's newest located post among their latest page
 * of posts (the owner gets their own posts exactly placed). One request the profile's list makes
 * anyway, and no new route; someone whose last 20 posts have no place gets the default view.
 */
export const getLastSpot = async (userId: string, signal?: AbortSignal): Promise<Coordinates | null> => {
  const query = new URLSearchParams({ user: userId, pagenum: '1' });
  const page = await api<PagedPostsResponse>(`/api/profile/getPosts/?${query}`, { signal });
  const located = page.posts.find((p) => p.latitude !== null && p.longitude !== null);
  return located ? { latitude: located.latitude!, longitude: located.longitude! } : null;
};

/** Asked only when the map opens; under the profile list's key, so a new post refreshes it. */
export function useLastSpot(enabled: boolean) {
  const { userId } = useAuth();
  return useQuery({
    queryKey: ['profile-posts', userId, 'last-spot'],
    queryFn: ({ signal }) => getLastSpot(userId!, signal),
    enabled: enabled && userId !== null,
    staleTime: 5 * 60_000,
  });
}
