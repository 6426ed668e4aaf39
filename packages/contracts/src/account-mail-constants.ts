// Constants and plain functions only (no zod): the web app imports them without the schema library.

/** A password-reset link works this long, once (issue 29). */
export const PASSWORD_RESET_TTL_MINUTES = 30;
/** A link confirming a new email address works this long, once. */
export const EMAIL_CHANGE_TTL_HOURS = 24;

/**
 * Mails with a link, per hour: to one address, and for one account. Beyond them a forgotten-password
 * request still answers 202 and sends nothing (no hint whether the account exists); an email change,
 * whose sender is signed in, is told.
 */
export const MAIL_LIMITS = { perAddressPerHour: 3, perAccountPerHour: 5 } as const;

/** A token in a link: 32 random bytes as URL-safe base64. */
export const MAIL_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const ACCOUNT_MAIL_MESSAGES = {
  // The same answer whether or not an account uses the address (no account enumeration).
  forgotPasswordSent:
    'If an account uses that address, we have sent it a link to choose a new password. The link works for 30 minutes.',
  invalidLink: 'This link is invalid, has expired or was already used. Ask for a new one.',
  tooManyMails: 'Too many emails were sent for this account; please try again in an hour',
} as const;

/** The 202 of an email change: nothing changes until the link sent to the new address is followed. */
export const emailChangeRequestedMessage = (email: string) =>
  `We sent a link to ${email}. Your email changes when you follow it.`;

/** The answer of a confirmed email change. */
export const emailChangedMessage = (email: string) => `Your email address is now ${email}.`;
