import { useQuery } from '@tanstack/react-query';
import type { OwnJoinRequestsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { groupKeys } from '../../../components/groups/api/query-keys.ts';

export const getOwnRequests = (signal?: AbortSignal) =>
  api<OwnJoinRequestsResponse>('/api/groups/requests', { signal });

/** The caller's join requests that no owner has answered yet, newest first (issue 28, point 7). */
export function useOwnRequests() {
  return useQuery({ queryKey: groupKeys.ownRequests, queryFn: ({ signal }) => getOwnRequests(signal) });
}
