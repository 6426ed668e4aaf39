import { useQuery } from '@tanstack/react-query';
import type { GroupsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { groupKeys } from './query-keys.ts';

export const getMyGroups = (signal?: AbortSignal) => api<GroupsResponse>('/api/groups', { signal });

/** The caller's groups: owned ones and the others they belong to (spec section 7). */
export function useMyGroups() {
  return useQuery({ queryKey: groupKeys.mine, queryFn: ({ signal }) => getMyGroups(signal) });
}
