import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Appeal, DecideAppealBody, ModeratorAppealsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { moderationKeys } from './moderation-keys.ts';

/** GET /api/moderation/appeals: open appeals, for moderators. */
export const getAppeals = (signal?: AbortSignal) =>
  api<ModeratorAppealsResponse>('/api/moderation/appeals', { signal });

export function useAppeals(enabled: boolean) {
  return useQuery({ queryKey: moderationKeys.appeals, queryFn: ({ signal }) => getAppeals(signal), enabled });
}

/** POST /api/moderation/appeals/{id}/decision: the decision stands (upheld) or is undone (overturned). */
export const decideAppeal = (appealId: string, body: DecideAppealBody) =>
  api<{ appeal: Appeal }>(`/api/moderation/appeals/${encodeURIComponent(appealId)}/decision`, {
    method: 'POST',
    body,
  });

export function useDecideAppeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ appealId, body }: { appealId: string; body: DecideAppealBody }) =>
      decideAppeal(appealId, body),
    // Not awaited: the refetch takes the decided card off the page, and a card gone before mutate()'s
    // own onSuccess runs would never show its 'decided' message.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: moderationKeys.all });
    },
  });
}
