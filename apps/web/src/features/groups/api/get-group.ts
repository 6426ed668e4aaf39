import { useQuery } from '@tanstack/react-query';
import type { GroupDetail } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { groupKeys } from '../../../components/groups/api/query-keys.ts';

export const getGroup = (groupId: string, signal?: AbortSignal) =>
  api<GroupDetail>(`/api/groups/${encodeURIComponent(groupId)}`, { signal });

export function useGroup(groupId: string) {
  return useQuery({
    queryKey: groupKeys.detail(groupId),
    queryFn: ({ signal }) => getGroup(groupId, signal),
  });
}
