import type { ChangePasswordRequest, MessageResponse } from '@cats/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** PUT /api/profile/settings/password {currentPassword, newPassword}; the server ends other sessions. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordRequest) =>
      api<MessageResponse | undefined>('/api/profile/settings/password', { method: 'PUT', body }),
  });
}
