import type { ChangeUsernameRequest, MessageResponse } from '@cats/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { refetchAfterWrite } from '../../../lib/refetch-after-write.ts';

/** PUT /api/profile/settings/username {username, currentPassword}. */
export function useChangeUsername() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangeUsernameRequest) =>
      api<MessageResponse | undefined>('/api/profile/settings/username', { method: 'PUT', body }),
    // The name shows on every post and comment: let every screen fetch it again.
    onSuccess: () => refetchAfterWrite(queryClient),
  });
}
