import { NavLink, useLocation } from 'react-router';
import { Avatar } from '../../components/avatar.tsx';
import { Dropdown } from '../../components/dropdown.tsx';
import {
  CameraIcon,
  ChevronDownIcon,
  FeedIcon,
  GroupsIcon,
  InfoIcon,
  LogoutIcon,
  MapIcon,
  SettingsIcon,
  ShieldIcon,
  UserIcon,
} from '../../components/icons.tsx';
import { defineMessage } from '../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../i18n/message.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { useMyProfile } from '../../lib/my-profile.ts';
import { useNotificationStream } from '../../lib/notification-stream.ts';
import { NotificationBell } from '../../features/notifications/components/notification-bell.tsx';
import { useLogout } from '../use-logout.ts';
import {
  useUploadQueueRunner,
  useUploadsWaitingCount,
} from '../../components/upload-queue/use-upload-queue-runner.ts';
import '../../components/upload-queue/upload-queue.css';
import './top-nav.css';

const TABS = [
  { to: '/feed', label: defineMessage({ id: 'nav.feed', defaultMessage: 'Feed' }), Icon: FeedIcon },
  { to: '/explore', label: defineMessage({ id: 'nav.explore', defaultMessage: 'Explore' }), Icon: MapIcon },
  { to: '/spot', label: defineMessage({ id: 'nav.spot', defaultMessage: 'Spot' }), Icon: CameraIcon },
  { to: '/groups', label: defineMessage({ id: 'nav.groups', defaultMessage: 'Groups' }), Icon: GroupsIcon },
] as const;

/** The Spot tab's name while pictures wait to be sent (issue 28); the badge only shows the count. */
const SPOT_WAITING = defineMessage({
  id: 'nav.spotWaiting',
  defaultMessage: '{count, plural, one {Spot, # upload waiting} other {Spot, # uploads waiting}}',
});

/**
 * Loaded on its own with the query cache (root-layout.tsx): the landing page's JavaScript stays small.
 * The visitors' navigation is in visitor-nav.tsx.
 *
 * Spec section 2, top navigation for members: four sections, the notification bell (issue 25) and the
 * Profile dropdown, which is highlighted on /profile/*. On phones the same list becomes a bottom tab
 * bar (CSS only). It is on screen whenever someone is signed in, so it holds the live notification
 * stream, which closes when it goes (logout).
 */
export function MemberNav() {
  const { pathname } = useLocation();
  const { userId } = useAuth();
  useNotificationStream(userId);
  useUploadQueueRunner();
  const waiting = useUploadsWaitingCount();
  const logout = useLogout();
  const t = useTranslate();
  const profile = useMyProfile();
  const avatarUrl = profile.data?.avatarUrl ?? profile.data?.profilePicUrl;
  const inProfile = pathname === '/profile' || pathname.startsWith('/profile/');
  // Issue 27: staff only (the server refuses everyone else on every moderation request).
  const isStaff = profile.data?.role === 'moderator' || profile.data?.role === 'admin';
  return (
    <nav className="member-nav" aria-label={t({ id: 'nav.main', defaultMessage: 'Main' })}>
      <ul className="member-nav__list">
        {TABS.map(({ to, label, Icon }) => (
          <li key={to}>
            <NavLink
              className="member-nav__tab"
              to={to}
              aria-label={to === '/spot' && waiting > 0 ? t(SPOT_WAITING, { count: waiting }) : undefined}
            >
              <Icon className="member-nav__icon" />
              <span>{t(label)}</span>
              {to === '/spot' && waiting > 0 && (
                <span className="uploads-badge" aria-hidden="true">
                  {waiting}
                </span>
              )}
            </NavLink>
          </li>
        ))}
        <li>
          <NotificationBell className="member-nav__tab" />
        </li>
        <li>
          <Dropdown
            className="member-nav__profile"
            buttonClassName={`member-nav__tab${inProfile ? ' member-nav__tab--active' : ''}`}
            buttonProps={{ 'aria-current': inProfile ? 'true' : undefined }}
            label={
              <>
                {avatarUrl ? (
                  <Avatar className="member-nav__icon member-nav__avatar" src={avatarUrl} size={24} />
                ) : (
                  <UserIcon className="member-nav__icon" />
                )}
                <span>
                  <Message id="nav.profile" defaultMessage="Profile" />
                </span>
                <ChevronDownIcon className="member-nav__chevron" size={16} />
              </>
            }
          >
            <ul>
              <li>
                <NavLink className="dropdown__item" to="/profile/me">
                  <UserIcon size={20} />
                  <Message id="nav.myProfile" defaultMessage="My profile" />
                </NavLink>
              </li>
              <li>
                <NavLink className="dropdown__item" to="/profile/settings">
                  <SettingsIcon size={20} />
                  <Message id="nav.settings" defaultMessage="Settings" />
                </NavLink>
              </li>
              {isStaff && (
                <li>
                  <NavLink className="dropdown__item" to="/moderation">
                    <ShieldIcon size={20} />
                    <Message id="nav.moderation" defaultMessage="Moderation" />
                  </NavLink>
                </li>
              )}
              <li>
                <NavLink className="dropdown__item" to="/about">
                  <InfoIcon size={20} />
                  <Message id="nav.about" defaultMessage="About" />
                </NavLink>
              </li>
              <li className="dropdown__divided">
                <button type="button" className="dropdown__item" onClick={() => void logout()}>
                  <LogoutIcon size={20} />
                  <Message id="nav.logout" defaultMessage="Logout" />
                </button>
              </li>
            </ul>
          </Dropdown>
        </li>
      </ul>
    </nav>
  );
}
