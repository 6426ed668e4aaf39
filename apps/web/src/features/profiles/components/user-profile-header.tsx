import type { ReactNode } from 'react';
import type { UserProfileResponse } from '@cats/contracts';
import { Avatar } from '../../../components/avatar.tsx';
import type { Language } from '../../../i18n/languages.ts';
import { dateTimeFormat } from '../../../i18n/intl-formatters.ts';
import { dateLocale } from '../../../lib/relative-time.ts';
import { Message, useLanguage, useTranslate } from '../../../i18n/message.tsx';

/** The month someone joined; null for a date the server did not send or that does not parse. */
function memberSince(
  value: string | undefined,
  language: Language,
): { month: string; dateTime: string } | null {
  if (!value) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  // 'November 2024', 'noviembre de 2024'.
  const month = dateTimeFormat(dateLocale(language), { month: 'long', year: 'numeric' }).format(date);
  return { month, dateTime: date.toISOString() };
}

/**
 * Another user's profile, compact (issue 28, point 6): the 300 px picture filled a phone's first
 * screen, so the picture is an avatar beside the name, how many pictures the viewer can see, since
 * when they are a member, and the actions. The placeholder keeps its name for assistive technology.
 */
export function UserProfileHeader({ user, actions }: { user: UserProfileResponse; actions: ReactNode }) {
  const since = memberSince(user.memberSince, useLanguage());
  const t = useTranslate();
  return (
    <div className="user-profile-header">
      {user.avatarUrl || user.profilePicUrl ? (
        <Avatar
          className="user-profile-header__picture"
          // 88 px is 176 device pixels on a 2x phone: the 72 px variant would blur, the 300 px one does not.
          src={user.profilePicUrl ?? user.avatarUrl}
          alt={t(
            { id: 'profiles.picture.of', defaultMessage: 'Profile picture of {name}' },
            { name: user.username },
          )}
          size={88}
        />
      ) : (
        <span
          className="user-profile-header__picture"
          role="img"
          aria-label={t({ id: 'profiles.picture.none', defaultMessage: 'No profile picture' })}
        >
          <Avatar size={88} />
        </span>
      )}
      <div className="user-profile-header__text">
        <h1>{user.username}</h1>
        <p className="user-profile-header__facts">
          <span>
            <Message
              id="profiles.header.pictures"
              defaultMessage="{count, plural, one {# picture} other {# pictures}}"
              values={{ count: user.postCount }}
            />
          </span>
          {since && (
            <time dateTime={since.dateTime}>
              <Message
                id="profiles.header.memberSince"
                defaultMessage="Member since {month}"
                values={{ month: since.month }}
              />
            </time>
          )}
        </p>
        <div className="user-profile-header__actions">{actions}</div>
      </div>
    </div>
  );
}
