import { useInfiniteQuery } from '@tanstack/react-query';
import type { ModerationQueueResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { moderationKeys } from './moderation-keys.ts';

/** GET /api/moderation/reports?cursor=…: reported things, the one waiting longest first. */
export const getQueue = (cursor: string | null, signal?: AbortSignal) =>
  api<ModerationQueueResponse>(
    `/api/moderation/reports${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
    { signal },
  );

export function useQueue(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: moderationKeys.queue,
    queryFn: ({ pageParam, signal }) => getQueue(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
  });
}
