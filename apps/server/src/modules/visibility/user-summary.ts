import { ANONYMISED_USERNAME, type UserSummary } from '@cats/contracts';
import { mediaUrl, variantKey } from '../../media/urls.ts';
import type { AuthContext } from '../../plugins/auth.ts';

export interface UserLike {
  id: string;
  username: string;
  profilePicKey: string | null;
}

/** Spec section 6: the demo viewer sees every other user's name as 'Anonymised for demo'. */
export function visibleUsername(viewer: AuthContext, user: { id: string; username: string }): string {
  return viewer.isDemo && user.id !== viewer.userId ? ANONYMISED_USERNAME : user.username;
}

/** The user object embedded in posts, comments and profiles, as the viewer may see it. */
export function toUserSummary(
  viewer: AuthContext,
  user: UserLike,
  publicBase: string | undefined,
): UserSummary {
  return {
    _id: user.id,
    username: visibleUsername(viewer, user),
    ...(user.profilePicKey
      ? {
          profilePicUrl: mediaUrl(publicBase, variantKey(user.profilePicKey, 300)),
          avatarUrl: mediaUrl(publicBase, variantKey(user.profilePicKey, 72)),
        }
      : {}),
  };
}
