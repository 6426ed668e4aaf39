import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { refetchAfterWrite } from '../../../lib/refetch-after-write.ts';

/** DELETE /api/profile/blockUser/{userId}: their posts come back in every list, so refetch them all. */
export function useUnblockUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      api<unknown>(`/api/profile/blockUser/${encodeURIComponent(userId)}`, { method: 'DELETE' }),
    onSuccess: () => refetchAfterWrite(queryClient),
  });
}
