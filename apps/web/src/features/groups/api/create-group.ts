import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateGroupResponse, GroupsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { replaceQueryData } from '../../../lib/replace-query-data.ts';
import { groupKeys } from '../../../components/groups/api/query-keys.ts';

export const createGroup = (name: string) =>
  api<CreateGroupResponse>('/api/groups/createGroup', { method: 'POST', body: { submitData: name } });

/** The answer carries the updated lists, which replace the cached ones. */
export function useCreateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGroup,
    onSuccess: ({ ownedGroups, memberGroups }) =>
      replaceQueryData<GroupsResponse>(queryClient, groupKeys.mine, { ownedGroups, memberGroups }),
  });
}
