import { Avatar } from '../../../components/avatar.tsx';

/** Spec: the profile picture at 300x300, or a placeholder when there is none. */
export function ProfilePicture({ url, name }: { url: string | undefined; name: string }) {
  if (url) {
    return (
      <img
        className="profile-picture"
        src={url}
        width={300}
        height={300}
        alt={`Profile picture of ${name}`}
      />
    );
  }
  return (
    <div className="profile-picture profile-picture--empty" role="img" aria-label="No profile picture">
      <Avatar size={160} />
    </div>
  );
}
