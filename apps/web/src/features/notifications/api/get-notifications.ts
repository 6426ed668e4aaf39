import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { notificationKeys, setUnreadCount } from '../../../lib/notification-cache.ts';

/** GET /api/notifications?cursor=…: newest change first; the cursor is the last entry's seq. */
export const getNotifications = (cursor: string | null, signal?: AbortSignal) =>
  api<NotificationsResponse>(`/api/notifications${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, {
    signal,
  });

export function useNotifications() {
  const queryClient = useQueryClient();
  return useInfiniteQuery({
    queryKey: notificationKeys.list,
    queryFn: async ({ pageParam, signal }) => {
      const page = await getNotifications(pageParam, signal);
      // Each page says how many are unread: the bell agrees with the list it sits above.
      setUnreadCount(queryClient, page.unreadCount);
      return page;
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.info.nextCursor ?? undefined,
  });
}
