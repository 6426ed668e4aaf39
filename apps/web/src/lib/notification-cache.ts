import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Notification, NotificationsResponse, UnreadCountResponse } from '@cats/contracts';

/**
 * The notification centre's cache (issue 25), shared by the bell in the navigation, the
 * /notifications screen and the live stream (lib/notification-stream.ts), which all write to it.
 */
export const notificationKeys = {
  all: ['notifications'] as const,
  /** GET /api/notifications, an infinite list paged by cursor. */
  list: ['notifications', 'list'] as const,
  /** GET /api/notifications/unread-count: the bell's number. */
  unreadCount: ['notifications', 'unread-count'] as const,
};

export type NotificationPages = InfiniteData<NotificationsResponse, string | null>;

export const setUnreadCount = (queryClient: QueryClient, count: number) =>
  queryClient.setQueryData<UnreadCountResponse>(notificationKeys.unreadCount, { count });

function mapEntries(
  data: NotificationPages,
  fn: (entries: Notification[], pageIndex: number) => Notification[],
): NotificationPages {
  return {
    ...data,
    pages: data.pages.map((page, i) => ({ ...page, notifications: fn(page.notifications, i) })),
  };
}

/**
 * A new or changed entry (the stream's `notification` event). The list is ordered by each entry's last
 * change (seq, newest first), so a changed entry leaves its old place and goes to the top. An event
 * older than the cached entry (a replay of a change already shown) changes nothing.
 */
export function upsertNotification(data: NotificationPages, entry: Notification): NotificationPages {
  const cached = data.pages.flatMap((p) => p.notifications).find((n) => n._id === entry._id);
  if (cached && cached.seq >= entry.seq) return data;
  return mapEntries(data, (entries, pageIndex) => {
    const rest = entries.filter((n) => n._id !== entry._id);
    if (pageIndex !== 0) return rest;
    const at = rest.findIndex((n) => n.seq < entry.seq);
    if (at !== -1) return [...rest.slice(0, at), entry, ...rest.slice(at)];
    // Older than the whole first page: its place is on a page not loaded yet, which will bring it.
    return data.pages[0]?.info.nextCursor ? rest : [...rest, entry];
  });
}

/** An entry whose cause was undone (an unlike, a deleted comment). */
export const removeNotification = (data: NotificationPages, id: string): NotificationPages =>
  mapEntries(data, (entries) => entries.filter((n) => n._id !== id));

/** Marks `ids` read, or every cached entry when `ids` is null. */
export const markReadInPages = (data: NotificationPages, ids: readonly string[] | null): NotificationPages =>
  mapEntries(data, (entries) =>
    entries.map((n) => (!n.read && (ids === null || ids.includes(n._id)) ? { ...n, read: true } : n)),
  );

/**
 * Applies a change the server announced to the cached list, if the list was ever loaded. A page load
 * in flight may have read the server before the change and would put the old list back when it
 * lands: it is started again instead.
 */
export function patchNotificationList(
  queryClient: QueryClient,
  fn: (data: NotificationPages) => NotificationPages,
): void {
  queryClient.setQueryData<NotificationPages>(notificationKeys.list, (data) => (data ? fn(data) : data));
  if (queryClient.isFetching({ queryKey: notificationKeys.list }) > 0)
    void queryClient.invalidateQueries({ queryKey: notificationKeys.list });
}
