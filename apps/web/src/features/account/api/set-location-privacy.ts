import type { MyProfileResponse } from '@cats/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { myProfileKey } from '../../../lib/my-profile.ts';
import { refetchAfterWrite } from '../../../lib/refetch-after-write.ts';

/**
 * PUT /api/profile/settings/location-privacy {exactPublicLocation}. Optimistic: the switch moves at once
 * and moves back if the server refuses.
 */
export function useSetLocationPrivacy() {
  const queryClient = useQueryClient();
  const key = myProfileKey;
  return useMutation({
    mutationFn: (exactPublicLocation: boolean) =>
      api<unknown>('/api/profile/settings/location-privacy', {
        method: 'PUT',
        body: { exactPublicLocation },
      }),
    onMutate: async (exactPublicLocation) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<MyProfileResponse>(key);
      if (previous) queryClient.setQueryData<MyProfileResponse>(key, { ...previous, exactPublicLocation });
      return { previous };
    },
    onError: (_err, _value, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    // Post locations everywhere are shown according to this choice.
    onSettled: () => refetchAfterWrite(queryClient),
  });
}
