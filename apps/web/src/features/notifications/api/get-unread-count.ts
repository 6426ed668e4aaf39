import { useQuery } from '@tanstack/react-query';
import type { UnreadCountResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { notificationKeys } from '../../../lib/notification-cache.ts';
import { useNotificationStreamStatus } from '../../../lib/notification-stream.ts';

export const getUnreadCount = (signal?: AbortSignal) =>
  api<UnreadCountResponse>('/api/notifications/unread-count', { signal });

/**
 * The bell's number. The live stream keeps it current while it is open; without it (not connected
 * yet, or a server without the stream), coming back to the window asks the server.
 */
export function useUnreadCount() {
  const live = useNotificationStreamStatus() === 'open';
  return useQuery({
    queryKey: notificationKeys.unreadCount,
    queryFn: ({ signal }) => getUnreadCount(signal),
    refetchOnWindowFocus: !live,
  });
}
