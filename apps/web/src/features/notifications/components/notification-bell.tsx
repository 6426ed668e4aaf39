import { NavLink } from 'react-router';
import { BellIcon } from '../../../components/icons.tsx';
import { useUnreadCount } from '../api/get-unread-count.ts';
import { translate } from '../../../i18n/i18n-store.ts';
import { Message, useLanguage } from '../../../i18n/message.tsx';
import './notification-bell.css';

/** Above this, the badge says '99+': a phone's tab has room for three characters. */
export const BADGE_MAX = 99;

/** The bell's accessible name: what it opens, and how many are waiting. */
export function bellLabel(count: number): string {
  if (count <= 0) return translate({ id: 'notifications.bell', defaultMessage: 'Notifications' });
  if (count > BADGE_MAX)
    return translate(
      { id: 'notifications.bell.overMax', defaultMessage: 'Notifications, more than {max} unread' },
      { max: BADGE_MAX },
    );
  return translate(
    { id: 'notifications.bell.unread', defaultMessage: 'Notifications, {count} unread' },
    { count },
  );
}

export const badgeText = (count: number): string => (count > BADGE_MAX ? `${BADGE_MAX}+` : String(count));

/**
 * The bell in the member navigation (issue 25): a link to /notifications with the unread count. The
 * count is in the link's name for screen readers; the badge only shows it.
 */
export function NotificationBell({ className }: { className: string }) {
  const { data } = useUnreadCount();
  const count = data?.count ?? 0;
  // The link's name is a plain string (bellLabel): render again when the language changes.
  useLanguage();
  return (
    <NavLink className={`${className} notification-bell`} to="/notifications" aria-label={bellLabel(count)}>
      <span className="notification-bell__icon">
        <BellIcon className="member-nav__icon" />
        {count > 0 && (
          <span className="notification-bell__badge" aria-hidden="true">
            {badgeText(count)}
          </span>
        )}
      </span>
      {/* The word under the bell in the phone's tab bar, where six tabs share 390 px: its own message,
          so that a language can give it a shorter word than the page's title. */}
      <span className="notification-bell__label">
        <Message id="notifications.bell.tab" defaultMessage="Notifications" />
      </span>
    </NavLink>
  );
}
