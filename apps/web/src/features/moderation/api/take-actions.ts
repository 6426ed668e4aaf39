import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TakeModerationActionsBody } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { moderationKeys } from './moderation-keys.ts';

/**
 * POST /api/moderation/reports/{reportId}/actions (takeModerationActionsSchema): one or more actions
 * on a reported thing; its reports leave the queue.
 */
export const takeActions = (reportId: string, body: TakeModerationActionsBody) =>
  api<unknown>(`/api/moderation/reports/${encodeURIComponent(reportId)}/actions`, { method: 'POST', body });

export function useTakeActions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reportId, body }: { reportId: string; body: TakeModerationActionsBody }) =>
      takeActions(reportId, body),
    // Not awaited: the refetch takes the decided card off the page, and a card gone before mutate()'s
    // own onSuccess runs would never show its 'decided' message.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: moderationKeys.all });
    },
  });
}
