import type { ChangeEmailRequest, MessageResponse } from '@cats/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { authStore } from '../../../lib/auth-store.ts';
import { myProfileKey } from '../../../lib/my-profile.ts';

/** PUT /api/profile/settings/email {email, currentPassword}. */
export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangeEmailRequest) =>
      api<MessageResponse | undefined>('/api/profile/settings/email', { method: 'PUT', body }),
    onSuccess: (_data, body) => {
      authStore.set({ email: body.email });
      return queryClient.invalidateQueries({ queryKey: myProfileKey });
    },
  });
}
