import type { FastifyBaseLogger } from 'fastify';
import {
  AUTH_MESSAGES,
  DEMO_USER_ID,
  RECENT_SIGN_IN_MINUTES,
  type ChangeEmailRequest,
  type ChangePasswordRequest,
  type ChangeUsernameRequest,
  type EmailChangeRequested,
  type MyProfileResponse,
  type Role,
} from '@cats/contracts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { UserRow } from '../../db/schema/index.ts';
import { conflict, forbidden } from '../../lib/http-errors.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { toUserSummary } from '../visibility/user-summary.ts';
import type { MediaStorage } from '../../media/storage.ts';
import type { AuthContext, LiveUsers } from '../../plugins/auth.ts';
import * as authRepo from '../auth/auth.repository.ts';
import { uniqueConflict, type AuthService } from '../auth/auth.service.ts';
import { deleteCatsCaredForOnlyBy } from '../cats/cats.repository.ts';
import { findExport } from '../data-export/data-export.repository.ts';
import { approximateLocation } from '../location/location-grid.ts';
import type { ServerLanguage } from '../../i18n/localize.ts';
import type { EmailChangeService } from '../email-change/email-change.service.ts';
import * as repo from './account.repository.ts';

export interface AccountDeps {
  db: Database;
  storage: MediaStorage;
  config: Config;
  auth: AuthService;
  emailChange: EmailChangeService;
  /**
   * Told of a deletion or a password change, so the account's still-live access tokens are checked
   * again at once (other instances hear it from the database).
   */
  liveUsers: Pick<LiveUsers, 'forget'>;
  log: FastifyBaseLogger;
}

export function toMyProfile(viewer: AuthContext, user: UserRow, config: Config): MyProfileResponse {
  return {
    ...toUserSummary(viewer, user, config.S3_PUBLIC_URL),
    email: user.email,
    exactPublicLocation: user.exactPublicLocation,
    altTextReminder: user.altTextReminder,
    homeArea:
      user.homeAreaLatitude !== null && user.homeAreaLongitude !== null
        ? { latitude: user.homeAreaLatitude, longitude: user.homeAreaLongitude }
        : null,
    isDemo: user.id === DEMO_USER_ID,
    role: user.role as Role,
  };
}

/** Whether the caller's session typed the password in the last RECENT_SIGN_IN_MINUTES. */
export function signedInRecently(viewer: AuthContext, now: Date): boolean {
  if (viewer.signedInAt === undefined || viewer.signedInAt === null) return false;
  return now.getTime() - viewer.signedInAt * 1000 <= RECENT_SIGN_IN_MINUTES * 60 * 1000;
}

export function createAccountService({
  db,
  storage,
  config,
  auth,
  emailChange,
  liveUsers,
  log,
}: AccountDeps) {
  /** The caller's row; gone only if the account was deleted mid-request, which is a dead token. */
  async function me(viewer: AuthContext): Promise<UserRow> {
    const user = await authRepo.findUserById(db, viewer.userId);
    if (!user)
      throw forbidden(AUTH_MESSAGES.forbidden, { 'www-authenticate': 'Bearer error="invalid_token"' });
    return user;
  }

  async function update(viewer: AuthContext, values: Parameters<typeof authRepo.updateUser>[2]) {
    try {
      const user = await authRepo.updateUser(db, viewer.userId, values);
      if (!user) throw forbidden(AUTH_MESSAGES.forbidden);
      return toMyProfile(viewer, user, config);
    } catch (err) {
      throw uniqueConflict(err) ?? err;
    }
  }

  return {
    /** `deviceCookie`, here and below: the browser's device cookie, for confirmPassword's throttle. */
    async changeUsername(
      viewer: AuthContext,
      input: ChangeUsernameRequest,
      deviceCookie: string | undefined,
    ): Promise<MyProfileResponse> {
      const user = await me(viewer);
      await auth.confirmPassword(user, input.currentPassword, deviceCookie);
      // Excluding oneself lets a user change only the case of their own name.
      if (await authRepo.isUsernameTaken(db, input.username, user.id))
        throw conflict(AUTH_MESSAGES.usernameTaken);
      if (await authRepo.isUsernameConfusable(db, input.username, user.id))
        throw conflict(AUTH_MESSAGES.usernameConfusable);
      return update(viewer, { username: input.username });
    },

    /**
     * Issue 29: nothing changes yet; a link goes to the new address and the change applies when it is
     * followed (modules/email-change).
     */
    async changeEmail(
      viewer: AuthContext,
      input: ChangeEmailRequest,
      deviceCookie: string | undefined,
      language: ServerLanguage,
    ): Promise<EmailChangeRequested> {
      const user = await me(viewer);
      await auth.confirmPassword(user, input.currentPassword, deviceCookie);
      return emailChange.request(user, input.email, language);
    },

    /**
     * Every other session ends (a thief's included), and every access token signed so far stops
     * working on its next request (issue 46), the caller's too: its session stays, and its next
     * refresh (which the web client makes on that 403) signs a token of the new generation, counted
     * as a fresh sign-in since the password was just typed.
     */
    async changePassword(
      viewer: AuthContext,
      input: ChangePasswordRequest,
      refreshCookie: string | undefined,
      deviceCookie: string | undefined,
    ): Promise<MyProfileResponse> {
      const user = await me(viewer);
      await auth.confirmPassword(user, input.currentPassword, deviceCookie);
      const passwordHash = await hashPassword(input.newPassword);
      const keepFamily = await auth.sessionFamilyOf(user.id, refreshCookie);
      const now = new Date();
      const updated = await db.transaction(async (tx) => {
        if (!(await authRepo.updateUser(tx, user.id, { passwordHash }))) return null;
        await authRepo.revokeUserFamilies(tx, user.id, keepFamily, now);
        if (keepFamily) await authRepo.markFamilySignedIn(tx, keepFamily, now);
        return authRepo.bumpSessionGeneration(tx, user.id);
      });
      if (!updated) throw forbidden(AUTH_MESSAGES.forbidden);
      liveUsers.forget(user.id);
      return toMyProfile(viewer, updated, config);
    },

    async setLocationPrivacy(viewer: AuthContext, exactPublicLocation: boolean): Promise<MyProfileResponse> {
      await me(viewer);
      return update(viewer, { exactPublicLocation });
    },

    async setAltTextReminder(viewer: AuthContext, altTextReminder: boolean): Promise<MyProfileResponse> {
      await me(viewer);
      return update(viewer, { altTextReminder });
    },

    /**
     * The area missing cats are shown and told around (issue 26): kept as the centre of the point's
     * ~500 m cell, so that no more than the cell is ever stored or compared; null forgets it.
     */
    async setHomeArea(
      viewer: AuthContext,
      homeArea: { latitude: number; longitude: number } | null,
    ): Promise<MyProfileResponse> {
      await me(viewer);
      const cell = homeArea ? approximateLocation(homeArea.latitude, homeArea.longitude) : null;
      return update(viewer, {
        homeAreaLatitude: cell?.latitude ?? null,
        homeAreaLongitude: cell?.longitude ?? null,
      });
    },

    /**
     * Own account only. Rows go in one transaction (the foreign keys cascade); files go after it, so a
     * crash in between leaves only unreferenced files, which the posts module's orphan sweep removes.
     */
    async deleteAccount(
      viewer: AuthContext,
      userId: string,
      password: string | undefined,
      deviceCookie: string | undefined,
    ): Promise<void> {
      if (userId.toLowerCase() !== viewer.userId) throw forbidden(AUTH_MESSAGES.forbidden);
      const user = await me(viewer);
      // Issue 46: a stolen access token alone must not end the account. A password sent is always
      // checked (throttled as a login); without one, the session must have typed it lately.
      if (password !== undefined) await auth.confirmPassword(user, password, deviceCookie);
      else if (!signedInRecently(viewer, new Date())) throw forbidden(AUTH_MESSAGES.recentSignInRequired);
      const { unused, exportKey } = await db.transaction(async (tx) => {
        const prefixes = await repo.mediaPrefixesOf(tx, user.id);
        // The data export's zip (issue 24): its row goes with the user, its file right after.
        const exportKey = (await findExport(tx, user.id))?.fileKey ?? null;
        // Cats the user alone cares for go too; the others stay with their caretakers (issue 26).
        await deleteCatsCaredForOnlyBy(tx, user.id);
        await repo.deleteUser(tx, user.id);
        await authRepo.clearLoginFailuresFor(tx, user.email);
        const inUse = await repo.prefixesStillInUse(tx, prefixes);
        return { unused: prefixes.filter((p) => !inUse.has(p)), exportKey };
      });
      liveUsers.forget(user.id);
      if (exportKey) {
        await storage
          .delete(exportKey)
          .catch((err: unknown) =>
            log.warn({ err }, 'account deletion: the data export file was not deleted'),
          );
      }
      for (const prefix of unused) {
        try {
          await storage.deletePrefix(prefix);
        } catch (err) {
          log.warn({ err, prefix }, 'account deletion: media not deleted; the orphan sweep will retry');
        }
      }
    },
  };
}
