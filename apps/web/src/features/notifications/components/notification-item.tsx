import { Link } from 'react-router';
import type { Notification } from '@cats/contracts';
import { Avatar } from '../../../components/avatar.tsx';
import { GroupsIcon } from '../../../components/icons.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { NotificationText } from './notification-text.tsx';
import { Message } from '../../../i18n/message.tsx';

/** Entries about a group's answer to you show the group, not a person. */
const ABOUT_A_GROUP = new Set<Notification['type']>([
  'request_accepted',
  'request_declined',
  'removed_from_group',
]);

/** Between the parts of the link's name (not a text to translate). */
const SPACE = ' ';

/** How many faces an entry shows: the newest actors, overlapping. */
const FACES = 2;

interface Props {
  notification: Notification;
  /** Called when the entry is opened, before the app goes to its page. */
  onOpen: (notification: Notification) => void;
}

/**
 * One entry of /notifications: who, what (a whole sentence), when, and the picture it is about; the
 * whole entry links to its page. Unread entries are tinted and marked with a dot, and their link
 * starts with 'Unread' for screen readers.
 */
export function NotificationItem({ notification: n, onOpen }: Props) {
  const faces = ABOUT_A_GROUP.has(n.type) ? [] : n.actors.slice(0, FACES);
  return (
    <Link
      to={n.link}
      className={`notification${n.read ? '' : ' notification--unread'}`}
      data-notification-id={n._id}
      onClick={() => onOpen(n)}
    >
      <span
        className={`notification__faces notification__faces--${Math.max(1, faces.length)}`}
        aria-hidden="true"
      >
        {faces.length > 0 ? (
          faces.map((actor) => (
            <Avatar
              key={actor._id}
              className="notification__avatar"
              src={actor.avatarUrl ?? actor.profilePicUrl}
              size={faces.length > 1 ? 36 : 44}
            />
          ))
        ) : (
          <span className="notification__group-icon">
            <GroupsIcon size={24} />
          </span>
        )}
      </span>
      <span className="notification__body">
        {/* The spaces keep the link's name 'Unread: mariposa liked your picture 3h' in words; between
            flex items they take no room. */}
        {!n.read && (
          <span className="visually-hidden">
            <Message id="notifications.unread" defaultMessage="Unread:" />
          </span>
        )}
        {SPACE}
        <span className="notification__text">
          <NotificationText notification={n} />
        </span>
        {SPACE}
        <RelativeTime className="notification__time" value={n.updatedAt} />
      </span>
      {n.post && (
        <img
          className="notification__thumbnail"
          src={n.post.thumbnailUrl}
          alt=""
          width={56}
          height={56}
          loading="lazy"
          decoding="async"
        />
      )}
      {!n.read && <span className="notification__dot" aria-hidden="true" />}
    </Link>
  );
}
