import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Appeal, CreateAppealBody, OwnReportsResponse, StatementsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { accountKeys } from './query-keys.ts';

/** GET /api/moderation/statements: every decision that affected the viewer, with how to appeal it. */
export function useStatements() {
  return useQuery({
    queryKey: accountKeys.statements(),
    queryFn: ({ signal }) => api<StatementsResponse>('/api/moderation/statements', { signal }),
  });
}

/** GET /api/reports/mine: what the viewer reported and what came of it. */
export function useOwnReports() {
  return useQuery({
    queryKey: accountKeys.ownReports(),
    queryFn: ({ signal }) => api<OwnReportsResponse>('/api/reports/mine', { signal }),
  });
}

/** POST /api/appeals: one appeal per decision, within the window; the answer carries the sentence to show. */
export const sendAppeal = (body: CreateAppealBody) =>
  api<{ appeal: Appeal; message: string }>('/api/appeals', { method: 'POST', body });

export function useSendAppeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendAppeal,
    onSuccess: ({ appeal }, { actionId }) => {
      // The statement shows its appeal at once; the refetch confirms it.
      queryClient.setQueryData<StatementsResponse>(accountKeys.statements(), (data) =>
        data
          ? {
              statements: data.statements.map((s) =>
                s._id === actionId ? { ...s, appeal, canAppeal: false } : s,
              ),
            }
          : data,
      );
      return queryClient.invalidateQueries({ queryKey: accountKeys.statements() });
    },
  });
}
