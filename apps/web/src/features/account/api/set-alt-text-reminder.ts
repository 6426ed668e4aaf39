import type { MyProfileResponse } from '@cats/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { myProfileKey } from '../../../lib/my-profile.ts';

/**
 * PUT /api/profile/settings/alt-text-reminder {altTextReminder}. Optimistic: the switch moves at once
 * and moves back if the server refuses.
 */
export function useSetAltTextReminder() {
  const queryClient = useQueryClient();
  const key = myProfileKey;
  return useMutation({
    mutationFn: (altTextReminder: boolean) =>
      api<MyProfileResponse>('/api/profile/settings/alt-text-reminder', {
        method: 'PUT',
        body: { altTextReminder },
      }),
    onMutate: async (altTextReminder) => {
      const previous = queryClient.getQueryData<MyProfileResponse>(key);
      const move = () => {
        const current = queryClient.getQueryData<MyProfileResponse>(key);
        if (current) queryClient.setQueryData<MyProfileResponse>(key, { ...current, altTextReminder });
      };
      // At once, in the click's own render (a controlled switch would otherwise snap back until the
      // next tick), and again after cancelling a load in flight, which puts its older value back.
      move();
      await queryClient.cancelQueries({ queryKey: key });
      move();
      return { previous };
    },
    onError: (_err, _value, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (profile) => queryClient.setQueryData(key, profile),
  });
}
