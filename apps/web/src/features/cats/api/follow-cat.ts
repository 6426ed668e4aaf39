import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CatResponse, FollowCatResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { catKeys } from '../../../components/cats/api/query-keys.ts';

export const followCat = (catId: string, follow: boolean) =>
  api<FollowCatResponse>(`/api/cats/${encodeURIComponent(catId)}/follow`, {
    method: follow ? 'PUT' : 'DELETE',
  });

/** PUT / DELETE /api/cats/{catId}/follow: the server's answer becomes the page's button and count. */
export function useFollowCat(catId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (follow: boolean) => followCat(catId, follow),
    onSuccess: ({ following, followerCount }) =>
      queryClient.setQueryData<CatResponse>(catKeys.detail(catId), (data) =>
        data ? { cat: { ...data.cat, followerCount, viewer: { ...data.cat.viewer, following } } } : data,
      ),
  });
}
