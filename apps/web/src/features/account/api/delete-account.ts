import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** DELETE /api/profile/deleteUser/{userId} (spec section 7); the server refuses any id but the caller's. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (userId: string) =>
      api<unknown>(`/api/profile/deleteUser/${encodeURIComponent(userId)}`, { method: 'DELETE' }),
  });
}
