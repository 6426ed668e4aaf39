import type { FastifyBaseLogger } from 'fastify';
import { ACCOUNT_MAIL_MESSAGES, DEMO_USER_ID, PASSWORD_RESET_TTL_MINUTES } from '@cats/contracts';
import type { Database } from '../../db/client.ts';
import type { ServerLanguage } from '../../i18n/localize.ts';
import { badRequest } from '../../lib/http-errors.ts';
import { hashPassword } from '../../lib/passwords.ts';
import * as authRepo from '../auth/auth.repository.ts';
import type { AuthService, LoginSession } from '../auth/auth.service.ts';
import type { LiveUsers } from '../../plugins/auth.ts';
import type { MailService } from '../mail/mail-plugin.ts';
import { passwordResetMail } from '../mail/mail-templates.ts';
import { findSuspension } from '../suspensions/suspensions.repository.ts';
import { activeSuspension, suspendedRefusal } from '../suspensions/suspensions.ts';
import { findLiveToken, invalidateTokens, takeToken } from '../mail/mail-tokens.repository.ts';
import { hashMailToken, issueMailToken } from '../mail/mail-tokens.service.ts';

export interface PasswordResetDeps {
  db: Database;
  mail: MailService;
  auth: AuthService;
  /**
   * Told of the reset, so this instance checks the account's access tokens again at once, even while
   * the database's announcement to every instance (migration 0039) is delayed or lost.
   */
  liveUsers: Pick<LiveUsers, 'forget'>;
  log: FastifyBaseLogger;
}

const invalidLink = () => badRequest(ACCOUNT_MAIL_MESSAGES.invalidLink);

/**
 * 'Forgot password?' (issue 29): a link mailed to the account's address, valid 30 minutes and once,
 * that sets a new password, ends every session and signs the person in.
 */
export function createPasswordResetService({ db, mail, auth, liveUsers, log }: PasswordResetDeps) {
  return {
    /**
     * Nothing here runs before the answer: the caller answers 202 at once, the same for every address,
     * and the lookup, throttle and sending happen afterwards (MailService.later), so neither the
     * answer nor its timing tells whether an account uses the address.
     */
    forgot(email: string, language: ServerLanguage): void {
      mail.later('password reset request', async () => {
        const user = await authRepo.findUserByEmail(db, email);
        if (!user) return;
        // Its password is public: a reset would let anyone lock every visitor out of it.
        if (user.id === DEMO_USER_ID) {
          log.info('password reset: never for the demo account');
          return;
        }
        const outcome = await issueMailToken(db, {
          userId: user.id,
          address: user.email,
          purpose: 'password_reset',
          newEmail: null,
          ttlMinutes: PASSWORD_RESET_TTL_MINUTES,
        });
        if ('throttled' in outcome) {
          log.warn(
            { userId: user.id, per: outcome.throttled },
            'password reset: not sent, too many mails this hour',
          );
          return;
        }
        // In the fragment: browsers send it to no server, so it stays out of Referer and access logs.
        const link = `${mail.origin}/reset-password#token=${outcome.token}`;
        await mail.mailer.send(
          passwordResetMail(language, { to: user.email, username: user.username, link }),
        );
      });
    },

    /**
     * Sets the new password with the link's token, once: the token is taken atomically in the same
     * transaction that sets the password, ends every session of the account (all refresh-token
     * families, this browser's included) and clears the login throttle of the address (the person
     * just proved the mailbox is theirs), and every access token signed so far stops working (issue
     * 46). Then signs in as a login does. A suspended account changes nothing: the refusal rolls the
     * transaction back, so the link still works once the suspension ends (if it has not expired).
     */
    async reset(token: string, password: string, deviceCookie: string | undefined): Promise<LoginSession> {
      const tokenHash = hashMailToken(token);
      // A look first, so that a dead link costs no password hashing.
      const peek = await findLiveToken(db, tokenHash, 'password_reset');
      if (!peek || peek.userId === DEMO_USER_ID) throw invalidLink();
      const passwordHash = await hashPassword(password);
      const now = new Date();
      const user = await db.transaction(async (tx) => {
        const used = await takeToken(tx, tokenHash, 'password_reset');
        if (!used) return null;
        // FOR SHARE: a suspension being written is waited for, and counts.
        const suspension = await findSuspension(tx, used.userId, true);
        if (!suspension) return null;
        const active = activeSuspension(suspension, now);
        if (active) throw suspendedRefusal(active.until);
        if (!(await authRepo.updateUser(tx, used.userId, { passwordHash }))) return null;
        const row = await authRepo.bumpSessionGeneration(tx, used.userId);
        if (!row) return null;
        await authRepo.revokeUserFamilies(tx, row.id, null, now);
        await invalidateTokens(tx, row.id, 'password_reset');
        await authRepo.clearLoginFailuresFor(tx, row.email);
        return row;
      });
      if (!user) throw invalidLink();
      liveUsers.forget(user.id);
      log.info({ userId: user.id }, 'password reset: new password set, every session ended');
      return auth.loginAfterReset(user, deviceCookie);
    },
  };
}
