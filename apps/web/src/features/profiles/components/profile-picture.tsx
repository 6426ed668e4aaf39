import { Avatar } from '../../../components/avatar.tsx';
import { useTranslate } from '../../../i18n/message.tsx';

/** Spec: the profile picture at 300x300, or a placeholder when there is none. */
export function ProfilePicture({ url, name }: { url: string | undefined; name: string }) {
  const t = useTranslate();
  if (url) {
    return (
      <img
        className="profile-picture"
        src={url}
        width={300}
        height={300}
        alt={t({ id: 'profiles.picture.of', defaultMessage: 'Profile picture of {name}' }, { name })}
      />
    );
  }
  return (
    <div
      className="profile-picture profile-picture--empty"
      role="img"
      aria-label={t({ id: 'profiles.picture.none', defaultMessage: 'No profile picture' })}
    >
      <Avatar size={160} />
    </div>
  );
}
