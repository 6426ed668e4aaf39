import type { Notification } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { InfiniteList } from '../../../components/post/infinite-list.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { useMyProfile } from '../../../lib/my-profile.ts';
import { useNotifications } from '../api/get-notifications.ts';
import { useMarkRead } from '../api/mark-read.ts';
import { NotificationItem } from '../components/notification-item.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import '../notifications.css';
import { LoadingSkeleton, RowListSkeleton } from '../../../components/skeleton/skeleton.tsx';

/**
 * /notifications (issue 25): everything that happened to the signed-in user, newest change first,
 * loading more on scroll. Opening the page marks nothing read; opening an entry marks that one, and
 * 'Mark all as read' the rest. The demo account's notifications are everyone's: it marks nothing.
 */
export default function NotificationsPage() {
  const list = useNotifications();
  const profile = useMyProfile();
  const markRead = useMarkRead();
  const t = useTranslate();
  const isDemo = profile.data?.isDemo ?? true;
  // An entry that changed moves to the top: one that was on a later page must not show twice.
  const entries = [
    ...new Map((list.data?.pages ?? []).flatMap((p) => p.notifications).map((n) => [n._id, n])).values(),
  ];
  const unread = entries.some((n) => !n.read);

  const open = (n: Notification) => {
    if (!n.read && !isDemo) markRead.mutate([n._id]);
  };

  return (
    <div className="page notifications-page">
      <title>
        {t({ id: 'notifications.page.documentTitle', defaultMessage: 'Notifications · Neighbourhood Cats' })}
      </title>
      <div className="notifications-page__header">
        <h1>
          <Message id="notifications.page.title" defaultMessage="Notifications" />
        </h1>
        {unread && !isDemo && (
          <Button variant="secondary" size="sm" onClick={() => markRead.mutate(null)}>
            <Message id="notifications.page.markAllRead" defaultMessage="Mark all as read" />
          </Button>
        )}
      </div>
      {markRead.isError && (
        <p className="notice notice--error" role="alert">
          <Message
            id="notifications.page.markReadFailed"
            defaultMessage="Could not mark your notifications as read: {message}"
            values={{ message: errorMessage(markRead.error) }}
          />
        </p>
      )}
      {list.isPending && (
        <LoadingSkeleton
          label={t({ id: 'notifications.page.loading', defaultMessage: 'Loading notifications...' })}
        >
          <RowListSkeleton count={6} />
        </LoadingSkeleton>
      )}
      {list.isError && !list.isFetchNextPageError && (
        <p className="notice notice--error" role="alert">
          <Message
            id="notifications.page.error"
            defaultMessage="Error: {message}"
            values={{ message: errorMessage(list.error) }}
          />
        </p>
      )}
      {list.data && entries.length === 0 && (
        <p className="notifications-page__empty">
          <Message
            id="notifications.page.empty"
            defaultMessage="No notifications yet. When someone likes or comments on your pictures, you will see it here."
          />
        </p>
      )}
      {entries.length > 0 && (
        <InfiniteList
          className="notifications"
          label={t({ id: 'notifications.page.listLabel', defaultMessage: 'Notifications' })}
          items={entries}
          getKey={(n) => n._id}
          renderItem={(n) => <NotificationItem notification={n} onOpen={open} />}
          hasNextPage={list.hasNextPage}
          isFetchingNextPage={list.isFetchingNextPage}
          fetchNextPage={list.fetchNextPage}
          loadingMessage={t({
            id: 'notifications.page.loadingMore',
            defaultMessage: 'Loading more notifications...',
          })}
        />
      )}
      {list.isFetchNextPageError && (
        <>
          <p className="notice notice--error" role="alert">
            <Message
              id="notifications.page.error"
              defaultMessage="Error: {message}"
              values={{ message: errorMessage(list.error) }}
            />
          </p>
          <Button className="notifications-page__retry" onClick={() => void list.fetchNextPage()}>
            <Message id="notifications.page.retry" defaultMessage="Try again" />
          </Button>
        </>
      )}
    </div>
  );
}
