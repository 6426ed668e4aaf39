import type { MyProfileResponse } from '@cats/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { myProfileKey } from '../../../lib/my-profile.ts';
import { missingKeys } from '../../../components/missing/api/query-keys.ts';

/**
 * PUT /api/profile/settings/home-area {homeArea}: the server keeps the point's ~500 m cell and answers
 * the profile with it; the missing cats near the viewer load again around the new area.
 */
export function useSetHomeArea() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (homeArea: { latitude: number; longitude: number } | null) =>
      api<MyProfileResponse>('/api/profile/settings/home-area', { method: 'PUT', body: { homeArea } }),
    onSuccess: (profile) => {
      queryClient.setQueryData(myProfileKey, profile);
      void queryClient.invalidateQueries({ queryKey: missingKeys.near });
    },
  });
}
