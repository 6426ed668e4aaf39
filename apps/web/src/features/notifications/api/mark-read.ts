import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UnreadCountResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import {
  markReadInPages,
  notificationKeys,
  setUnreadCount,
  type NotificationPages,
} from '../../../lib/notification-cache.ts';

/** POST /api/notifications/read: the entries `ids`, or all of them; answers the unread count left. */
export const markRead = (ids?: string[]) =>
  api<UnreadCountResponse>('/api/notifications/read', { method: 'POST', body: ids ? { ids } : {} });

/**
 * Marks entries read (`ids`), or all (null). Optimistic: the entries and the bell change at once and
 * change back if the server refuses. It finishes even after its screen is gone (opening an entry
 * leaves the page).
 */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[] | null) => markRead(ids ?? undefined),
    onMutate: async (ids) => {
      const list = queryClient.getQueryData<NotificationPages>(notificationKeys.list);
      const unread = queryClient.getQueryData<UnreadCountResponse>(notificationKeys.unreadCount);
      const unreadHere = (list?.pages ?? [])
        .flatMap((p) => p.notifications)
        .filter((n) => !n.read && (!ids || ids.includes(n._id))).length;
      const apply = () => {
        queryClient.setQueryData<NotificationPages>(notificationKeys.list, (data) =>
          data ? markReadInPages(data, ids) : data,
        );
        if (unread) setUnreadCount(queryClient, ids ? Math.max(0, unread.count - unreadHere) : 0);
      };
      // Now, and again after cancelling a load in flight (which puts back what it had before it
      // started).
      apply();
      await queryClient.cancelQueries({ queryKey: notificationKeys.all });
      apply();
      return { list, unread };
    },
    onError: (_err, _ids, context) => {
      if (context?.list) queryClient.setQueryData(notificationKeys.list, context.list);
      if (context?.unread) queryClient.setQueryData(notificationKeys.unreadCount, context.unread);
    },
    onSuccess: ({ count }) => setUnreadCount(queryClient, count),
  });
}
