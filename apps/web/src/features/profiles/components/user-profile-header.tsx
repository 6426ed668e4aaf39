import type { ReactNode } from 'react';
import type { UserProfileResponse } from '@cats/contracts';
import { Avatar } from '../../../components/avatar.tsx';

/** British English dates, as the rest of the app writes them until it has translations. */
const LOCALE = 'en-GB';
const monthFormat = new Intl.DateTimeFormat(LOCALE, { month: 'long', year: 'numeric' });
const plural = new Intl.PluralRules(LOCALE);

/** One whole sentence per plural form, so a translation can replace each (issue 28, i18n). */
function pictureCount(count: number): string {
  return plural.select(count) === 'one' ? `${count} picture` : `${count} pictures`;
}

/** The month someone joined; null for a date the server did not send or that does not parse. */
function memberSince(value: string | undefined): { label: string; dateTime: string } | null {
  if (!value) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return { label: `Member since ${monthFormat.format(date)}`, dateTime: date.toISOString() };
}

/**
 * Another user's profile, compact (issue 28, point 6): the 300 px picture filled a phone's first
 * screen, so the picture is an avatar beside the name, how many pictures the viewer can see, since
 * when they are a member, and the actions. The placeholder keeps its name for assistive technology.
 */
export function UserProfileHeader({ user, actions }: { user: UserProfileResponse; actions: ReactNode }) {
  const since = memberSince(user.memberSince);
  return (
    <div className="user-profile-header">
      {user.avatarUrl || user.profilePicUrl ? (
        <Avatar
          className="user-profile-header__picture"
          // 88 px is 176 device pixels on a 2x phone: the 72 px variant would blur, the 300 px one does not.
          src={user.profilePicUrl ?? user.avatarUrl}
          alt={`Profile picture of ${user.username}`}
          size={88}
        />
      ) : (
        <span className="user-profile-header__picture" role="img" aria-label="No profile picture">
          <Avatar size={88} />
        </span>
      )}
      <div className="user-profile-header__text">
        <h1>{user.username}</h1>
        <p className="user-profile-header__facts">
          <span>{pictureCount(user.postCount)}</span>
          {since && <time dateTime={since.dateTime}>{since.label}</time>}
        </p>
        <div className="user-profile-header__actions">{actions}</div>
      </div>
    </div>
  );
}
