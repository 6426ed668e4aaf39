import type { DeleteAccountRequest } from '@cats/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * DELETE /api/profile/deleteUser/{userId} (spec section 7) with the password (issue 46: a stolen
 * access token alone must not end the account); the server refuses any id but the caller's.
 */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: ({ userId, password }: { userId: string; password: string }) =>
      api<unknown>(`/api/profile/deleteUser/${encodeURIComponent(userId)}`, {
        method: 'DELETE',
        body: { password } satisfies DeleteAccountRequest,
      }),
  });
}
