import { useMutation } from '@tanstack/react-query';
import type { MessageResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';

export const joinGroup = (code: string) =>
  api<MessageResponse>('/api/groups/joinGroup', { method: 'POST', body: { submitData: code } });

/** A join request: the group appears in the list once its owner accepts. */
export function useJoinGroup() {
  return useMutation({ mutationFn: joinGroup });
}
