import {
  AVATAR_WIDTHS,
  isUuid,
  type MyProfileResponse,
  type UserProfileResponse,
  type Role,
} from '@cats/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { notFound } from '../../lib/http-errors.ts';
import { toUserSummary } from '../visibility/user-summary.ts';
import { type ImageSource, storeImageVariants } from '../../media/image-pipeline.ts';
import type { MediaStorage } from '../../media/storage.ts';
import { mediaUrl, variantKey } from '../../media/urls.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import * as repo from './profiles.repository.ts';

export interface ProfilesDeps {
  db: Database;
  storage: MediaStorage;
  /** S3_PUBLIC_URL or undefined: where media URLs point. */
  publicBase: string | undefined;
  log: FastifyBaseLogger;
}

export const PROFILE_MESSAGES = {
  userNotFound: 'User not found',
  noFile: 'Please choose a picture to upload',
} as const;

export async function getMyProfile(deps: ProfilesDeps, viewer: AuthContext): Promise<MyProfileResponse> {
  const row = await repo.findProfile(deps.db, viewer.userId);
  // A deleted account whose access token has not expired yet.
  if (!row) throw notFound(PROFILE_MESSAGES.userNotFound);
  return {
    ...toUserSummary(viewer, row, deps.publicBase),
    email: row.email,
    exactPublicLocation: row.exactPublicLocation,
    altTextReminder: row.altTextReminder,
    homeArea:
      row.homeAreaLatitude !== null && row.homeAreaLongitude !== null
        ? { latitude: row.homeAreaLatitude, longitude: row.homeAreaLongitude }
        : null,
    isDemo: viewer.isDemo,
    role: row.role as Role,
  };
}

/** Unknown, malformed, deleted and blocked (either way) users are all the same 404. */
export async function getUserProfile(
  deps: ProfilesDeps,
  viewer: AuthContext,
  rawUserId: string,
): Promise<UserProfileResponse> {
  if (!isUuid(rawUserId)) throw notFound(PROFILE_MESSAGES.userNotFound);
  const row = await repo.findVisibleProfile(deps.db, rawUserId.toLowerCase(), viewer.userId);
  if (!row) throw notFound(PROFILE_MESSAGES.userNotFound);
  return {
    ...toUserSummary(viewer, row, deps.publicBase),
    postCount: row.postCount,
    // The demo viewer sees people anonymised (spec section 6): a sign-up date would help tell them apart.
    ...(viewer.isDemo ? {} : { memberSince: row.createdAt.toISOString() }),
  };
}

/** Deletes a picture's files unless some user still shows them; a failure leaves an orphan for the sweep. */
async function deleteAvatarIfUnused(deps: ProfilesDeps, key: string): Promise<void> {
  try {
    if (!(await repo.avatarInUse(deps.db, key))) await deps.storage.deletePrefix(key);
  } catch (err) {
    deps.log.warn({ err, key }, 'could not delete an unused profile picture');
  }
}

/**
 * Same pipeline as posts (checked by its bytes, re-encoded, metadata stripped), cropped square at 72 and
 * 300 px. Files are written before the row points at them; the replaced picture is deleted after.
 */
export async function updatePicture(
  deps: ProfilesDeps,
  viewer: AuthContext,
  upload: ImageSource,
): Promise<{ profilePicUrl: string; avatarUrl: string }> {
  const stored = await storeImageVariants(deps.storage, upload, {
    kind: 'avatars',
    widths: AVATAR_WIDTHS,
    square: true,
  });
  const replaced = await repo.replaceProfilePic(deps.db, viewer.userId, stored.prefix);
  if (!replaced) {
    await deleteAvatarIfUnused(deps, stored.prefix);
    throw notFound(PROFILE_MESSAGES.userNotFound);
  }
  if (replaced.previousKey && replaced.previousKey !== stored.prefix) {
    await deleteAvatarIfUnused(deps, replaced.previousKey);
  }
  return {
    profilePicUrl: mediaUrl(deps.publicBase, variantKey(stored.prefix, 300)),
    avatarUrl: mediaUrl(deps.publicBase, variantKey(stored.prefix, 72)),
  };
}
