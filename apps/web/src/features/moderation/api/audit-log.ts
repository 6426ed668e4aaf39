import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ModerationAction } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { moderationKeys } from './moderation-keys.ts';

/** GET /api/moderation/log (moderationLogPageSchema): newest first, by cursor. */
export interface ModerationLogPage {
  entries: ModerationAction[];
  nextCursor: string | null;
}

export const getLog = (cursor: string | null, signal?: AbortSignal) =>
  api<ModerationLogPage>(`/api/moderation/log${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, {
    signal,
  });

export function useAuditLog(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: moderationKeys.log,
    queryFn: ({ pageParam, signal }) => getLog(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
  });
}

/** POST /api/moderation/actions/{id}/restore: undo a removal, a hidden location, a warning or a suspension. */
export const restoreAction = (actionId: string, explanation: string) =>
  api<ModerationAction>(`/api/moderation/actions/${encodeURIComponent(actionId)}/restore`, {
    method: 'POST',
    body: { explanation },
  });

export function useRestoreAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ actionId, explanation }: { actionId: string; explanation: string }) =>
      restoreAction(actionId, explanation),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: moderationKeys.all });
    },
  });
}
