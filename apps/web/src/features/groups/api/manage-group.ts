import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  GroupDetail,
  GroupUpdateResponse,
  MessageResponse,
  RegenerateCodeResponse,
  RemoveMemberResponse,
} from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { replaceQueryData } from '../../../lib/replace-query-data.ts';
import { groupKeys } from '../../../components/groups/api/query-keys.ts';

const groupPath = (groupId: string) => `/api/groups/${encodeURIComponent(groupId)}`;

export const answerRequest = (groupId: string, userId: string, answer: 'accept' | 'decline') =>
  api<GroupUpdateResponse>(`${groupPath(groupId)}/requests/${encodeURIComponent(userId)}/${answer}`, {
    method: 'POST',
  });
export const removeMember = (groupId: string, userId: string) =>
  api<RemoveMemberResponse>(`${groupPath(groupId)}/members/${encodeURIComponent(userId)}`, {
    method: 'DELETE',
  });
export const regenerateCode = (groupId: string) =>
  api<RegenerateCodeResponse>(`${groupPath(groupId)}/code`, { method: 'POST' });
export const deleteGroup = (groupId: string) =>
  api<MessageResponse>(groupPath(groupId), { method: 'DELETE' });

/** Accept or decline a join request (owner); the answer is the group as it now is. */
export function useAnswerRequest(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, answer }: { userId: string; answer: 'accept' | 'decline' }) =>
      answerRequest(groupId, userId, answer),
    onSuccess: ({ group }) => replaceQueryData<GroupDetail>(queryClient, groupKeys.detail(groupId), group),
  });
}

/**
 * Remove a member (owner) or leave (oneself). A removed member's pictures leave the group's feed and
 * map on the server, so those reload.
 */
export function useRemoveMember(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeMember(groupId, userId),
    onSuccess: async ({ group }) => {
      if (group) await replaceQueryData<GroupDetail>(queryClient, groupKeys.detail(groupId), group);
      void queryClient.invalidateQueries({ queryKey: groupKeys.posts(groupId) });
      void queryClient.invalidateQueries({ queryKey: groupKeys.map(groupId) });
      void queryClient.invalidateQueries({ queryKey: groupKeys.mine });
    },
  });
}

export function useRegenerateCode(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => regenerateCode(groupId),
    onSuccess: ({ code }) =>
      replaceQueryData<GroupDetail>(queryClient, groupKeys.detail(groupId), (old) =>
        old ? { ...old, code } : old,
      ),
  });
}

export function useDeleteGroup(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteGroup(groupId),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: groupKeys.detail(groupId) });
      void queryClient.invalidateQueries({ queryKey: groupKeys.mine });
    },
  });
}
