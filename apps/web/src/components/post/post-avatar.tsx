import type { UserSummary } from '@cats/contracts';
import { Avatar } from '../avatar.tsx';

/** A user's 72 px avatar (or the default one) from a user summary; a thin layer over the shared Avatar. */
export function PostAvatar({
  user,
  size = 40,
}: {
  user: Pick<UserSummary, 'avatarUrl' | 'profilePicUrl'>;
  size?: number;
}) {
  return <Avatar src={user.avatarUrl ?? user.profilePicUrl} size={size} />;
}
