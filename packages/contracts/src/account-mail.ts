import { z } from 'zod';
import { ACCOUNT_MAIL_MESSAGES, MAIL_TOKEN_PATTERN } from './account-mail-constants.ts';
import { emailSchema, passwordSchema } from './auth.ts';

export * from './account-mail-constants.ts';

/** A token from a mailed link; anything malformed is the same 'invalid link' as an unknown one. */
const mailTokenSchema = z
  .string({ error: ACCOUNT_MAIL_MESSAGES.invalidLink })
  .trim()
  .regex(MAIL_TOKEN_PATTERN, ACCOUNT_MAIL_MESSAGES.invalidLink);

/** POST /api/password/forgot: always 202 with forgotPasswordSent, whether or not the account exists. */
export const forgotPasswordRequestSchema = z.object({ email: emailSchema });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;

/** POST /api/password/reset: the new password follows sign-up's rules (and messages). */
export const resetPasswordRequestSchema = z.object({ token: mailTokenSchema, password: passwordSchema });
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

/** PUT /api/profile/settings/email answers 202: a link went to the new address, nothing changed yet. */
export const emailChangeRequestedSchema = z.object({ message: z.string(), pendingEmail: z.string() });
export type EmailChangeRequested = z.infer<typeof emailChangeRequestedSchema>;

/** POST /api/email/confirm: the token from the link sent to the new address. */
export const confirmEmailRequestSchema = z.object({ token: mailTokenSchema });
export type ConfirmEmailRequest = z.infer<typeof confirmEmailRequestSchema>;
export const confirmEmailResponseSchema = z.object({
  message: z.string(),
  email: z.string(),
  userId: z.string(),
});
export type ConfirmEmailResponse = z.infer<typeof confirmEmailResponseSchema>;
