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
  { to: '/feed', label: 'Feed', Icon: FeedIcon },
  { to: '/explore', label: 'Explore', Icon: MapIcon },
  { to: '/spot', label: 'Spot', Icon: CameraIcon },
  { to: '/groups', label: 'Groups', Icon: GroupsIcon },
] as const;

/** The Spot tab's name while pictures wait to be sent (issue 28); the badge only shows the count. */
const spotLabel = (waiting: number) =>
  waiting === 1 ? 'Spot, 1 upload waiting' : `Spot, ${waiting} uploads waiting`;

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
  const profile = useMyProfile();
  const avatarUrl = profile.data?.avatarUrl ?? profile.data?.profilePicUrl;
  const inProfile = pathname === '/profile' || pathname.startsWith('/profile/');
  // Issue 27: staff only (the server refuses everyone else on every moderation request).
  const isStaff = profile.data?.role === 'moderator' || profile.data?.role === 'admin';
  return (
    <nav className="member-nav" aria-label="Main">
      <ul className="member-nav__list">
        {TABS.map(({ to, label, Icon }) => (
          <li key={to}>
            <NavLink
              className="member-nav__tab"
              to={to}
              aria-label={to === '/spot' && waiting > 0 ? spotLabel(waiting) : undefined}
            >
              <Icon className="member-nav__icon" />
              <span>{label}</span>
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
                <span>Profile</span>
                <ChevronDownIcon className="member-nav__chevron" size={16} />
              </>
            }
          >
            <ul>
              <li>
                <NavLink className="dropdown__item" to="/profile/me">
                  <UserIcon size={20} />
                  My profile
                </NavLink>
              </li>
              <li>
                <NavLink className="dropdown__item" to="/profile/settings">
                  <SettingsIcon size={20} />
                  Settings
                </NavLink>
              </li>
              {isStaff && (
                <li>
                  <NavLink className="dropdown__item" to="/moderation">
                    <ShieldIcon size={20} />
                    Moderation
                  </NavLink>
                </li>
              )}
              <li>
                <NavLink className="dropdown__item" to="/about">
                  <InfoIcon size={20} />
                  About
                </NavLink>
              </li>
              <li className="dropdown__divided">
                <button type="button" className="dropdown__item" onClick={() => void logout()}>
                  <LogoutIcon size={20} />
                  Logout
                </button>
              </li>
            </ul>
          </Dropdown>
        </li>
      </ul>
    </nav>
  );
}
