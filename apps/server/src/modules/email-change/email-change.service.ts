import type { FastifyBaseLogger } from 'fastify';
import {
  ACCOUNT_MAIL_MESSAGES,
  AUTH_MESSAGES,
  DEMO_USER_ID,
  EMAIL_CHANGE_TTL_HOURS,
  emailChangedMessage,
  emailChangeRequestedMessage,
  type ConfirmEmailResponse,
  type EmailChangeRequested,
} from '@cats/contracts';
import type { Database } from '../../db/client.ts';
import type { UserRow } from '../../db/schema/index.ts';
import type { ServerLanguage } from '../../i18n/localize.ts';
import { badRequest, conflict, HttpError } from '../../lib/http-errors.ts';
import * as authRepo from '../auth/auth.repository.ts';
import { uniqueConflict } from '../auth/auth.service.ts';
import type { MailService } from '../mail/mail-plugin.ts';
import { confirmEmailMail, emailChangedNoticeMail } from '../mail/mail-templates.ts';
import { invalidateTokens, takeToken } from '../mail/mail-tokens.repository.ts';
import { hashMailToken, issueMailToken } from '../mail/mail-tokens.service.ts';
import { findSuspension } from '../suspensions/suspensions.repository.ts';
import { activeSuspension, suspendedRefusal } from '../suspensions/suspensions.ts';

export interface EmailChangeDeps {
  db: Database;
  mail: MailService;
  log: FastifyBaseLogger;
}

/**
 * Changing the email address (issue 29): a link goes to the new address and nothing changes until it
 * is followed, so nobody can move an account to an address they do not read (a typo, or a thief with
 * a session); the old address is told once it is done.
 */
export function createEmailChangeService({ db, mail, log }: EmailChangeDeps) {
  return {
    /**
     * For a user whose current password was checked. The new address must be free now (and is checked
     * again at confirmation). Sends are throttled as password resets are; the signed-in sender is told
     * (429), which reveals nothing about other accounts.
     */
    async request(user: UserRow, email: string, language: ServerLanguage): Promise<EmailChangeRequested> {
      if (await authRepo.isEmailTaken(db, email, user.id)) throw conflict(AUTH_MESSAGES.emailTaken);
      const outcome = await issueMailToken(db, {
        userId: user.id,
        address: email,
        purpose: 'email_change',
        newEmail: email,
        ttlMinutes: EMAIL_CHANGE_TTL_HOURS * 60,
      });
      if ('throttled' in outcome)
        throw new HttpError(429, ACCOUNT_MAIL_MESSAGES.tooManyMails, { 'retry-after': '3600' });
      const link = `${mail.origin}/confirm-email#token=${outcome.token}`;
      mail.deliver(confirmEmailMail(language, { to: email, username: user.username, link }));
      return { message: emailChangeRequestedMessage(email), pendingEmail: email };
    },

    /**
     * Applies the change of the token, once. The address is checked again (someone may have signed up
     * with it meanwhile: 409, and the link stays usable until it expires should the address free up).
     * Password-reset links mailed to the old address stop working. A suspended account changes
     * nothing (issue 46): the refusal rolls the transaction back, token included.
     */
    async confirm(token: string, language: ServerLanguage): Promise<ConfirmEmailResponse> {
      const tokenHash = hashMailToken(token);
      const changed = await db
        .transaction(async (tx) => {
          const used = await takeToken(tx, tokenHash, 'email_change');
          if (!used?.newEmail || used.userId === DEMO_USER_ID) return null;
          // FOR SHARE: a suspension being written is waited for, and counts.
          const suspension = await findSuspension(tx, used.userId, true);
          const active = suspension ? activeSuspension(suspension, new Date()) : null;
          if (active) throw suspendedRefusal(active.until);
          const before = await authRepo.findUserById(tx, used.userId);
          if (!before) return null;
          if (await authRepo.isEmailTaken(tx, used.newEmail, used.userId))
            throw conflict(AUTH_MESSAGES.emailTaken);
          const after = await authRepo.updateUser(tx, used.userId, { email: used.newEmail });
          if (!after) return null;
          await invalidateTokens(tx, used.userId, 'password_reset');
          await invalidateTokens(tx, used.userId, 'email_change');
          return { before, after };
        })
        .catch((err: unknown) => {
          throw uniqueConflict(err) ?? err;
        });
      if (!changed) throw badRequest(ACCOUNT_MAIL_MESSAGES.invalidLink);
      const { before, after } = changed;
      log.info({ userId: after.id }, 'email change: confirmed');
      if (before.email.toLowerCase() !== after.email.toLowerCase()) {
        mail.deliver(
          emailChangedNoticeMail(language, {
            to: before.email,
            username: after.username,
            newEmail: after.email,
            origin: mail.origin,
          }),
        );
      }
      return { message: emailChangedMessage(after.email), email: after.email, userId: after.id };
    },
  };
}
export type EmailChangeService = ReturnType<typeof createEmailChangeService>;
