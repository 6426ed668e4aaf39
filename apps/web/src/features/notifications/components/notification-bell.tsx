import { NavLink } from 'react-router';
import { BellIcon } from '../../../components/icons.tsx';
import { useUnreadCount } from '../api/get-unread-count.ts';
import './notification-bell.css';

/** Above this, the badge says '99+': a phone's tab has room for three characters. */
export const BADGE_MAX = 99;

/** The bell's accessible name: what it opens, and how many are waiting. */
export function bellLabel(count: number): string {
  if (count <= 0) return 'Notifications';
  if (count > BADGE_MAX) return `Notifications, more than ${BADGE_MAX} unread`;
  return `Notifications, ${count} unread`;
}

export const badgeText = (count: number): string => (count > BADGE_MAX ? `${BADGE_MAX}+` : String(count));

/**
 * The bell in the member navigation (issue 25): a link to /notifications with the unread count. The
 * count is in the link's name for screen readers; the badge only shows it.
 */
export function NotificationBell({ className }: { className: string }) {
  const { data } = useUnreadCount();
  const count = data?.count ?? 0;
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
      <span className="notification-bell__label">Notifications</span>
    </NavLink>
  );
}
