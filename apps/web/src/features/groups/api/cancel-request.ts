import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse, OwnJoinRequestsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { groupKeys } from '../../../components/groups/api/query-keys.ts';

export const cancelRequest = (groupId: string) =>
  api<MessageResponse>(`/api/groups/${encodeURIComponent(groupId)}/request`, { method: 'DELETE' });

/**
 * Withdraws the caller's request to join a group. The list drops it once the server agreed; a 404 means
 * it was already answered or withdrawn elsewhere, so the list is read again either way.
 */
export function useCancelRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelRequest,
    onSuccess: (_answer, groupId) =>
      queryClient.setQueryData<OwnJoinRequestsResponse>(groupKeys.ownRequests, (old) =>
        old ? { requests: old.requests.filter((r) => r.group._id !== groupId) } : old,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: groupKeys.ownRequests }),
  });
}
