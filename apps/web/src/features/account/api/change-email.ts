import type { ChangeEmailRequest, EmailChangeRequested } from '@cats/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * PUT /api/profile/settings/email {email, currentPassword}: 202, a confirmation link went to the new
 * address and nothing changed yet (issue 29); the /confirm-email page applies it.
 */
export function useChangeEmail() {
  return useMutation({
    mutationFn: (body: ChangeEmailRequest) =>
      api<EmailChangeRequested>('/api/profile/settings/email', { method: 'PUT', body }),
  });
}
