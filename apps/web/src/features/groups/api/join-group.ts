import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { groupKeys } from '../../../components/groups/api/query-keys.ts';

export const joinGroup = (code: string) =>
  api<MessageResponse>('/api/groups/joinGroup', { method: 'POST', body: { submitData: code } });

/** A join request: it shows among the caller's pending requests until the owner answers it. */
export function useJoinGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: joinGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.ownRequests }),
  });
}
