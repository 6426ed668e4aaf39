// Constants and plain functions only: no zod here, so the web app can import them without loading
// the schema library (docs/performance.md). auth.ts re-exports them beside its schemas.

/**
 * Spec section 5: the help text promises 4 to 24 characters, the actual pattern accepts 3 to 23 of
 * letters, digits, hyphen, underscore and a few punctuation characters (here: dot). We enforce the
 * actual pattern on both sides so the server never refuses what the form accepted.
 */
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,23}$/;
export const PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9]).{8,24}$/;
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const USERNAME_HINT = 'Please check you have entered a valid user name.';
export const USERNAME_HELP = '4 to 24 characters. Letters, numbers, underscores, hyphens allowed.';
export const EMAIL_HINT = 'Please check you have entered your email correctly.';
export const PASSWORD_HINT = 'Please check your password is valid';
export const PASSWORD_HELP = 'Must contain: 8 to 24 characters; uppercase and lowercase letters; number';
export const CONFIRM_HINT = 'Passwords do not match.';

export const AUTH_MESSAGES = {
  missingCredentials: 'Missing Email or Password',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  emailTaken: 'That email is already registered',
  usernameTaken: 'That display name is already taken',
  usernameConfusable: 'That display name looks too much like an existing one; please choose another',
  tooManyAttempts: 'Too many login attempts, please try again later',
  tooManyRequests: 'Too many requests, please try again later',
  accountCreated: 'Account created',
  currentPasswordIncorrect: 'Current password is incorrect',
  // Issue 46: a 403 without WWW-Authenticate, so the web client shows it instead of refreshing.
  recentSignInRequired: 'For your safety, please enter your password to confirm',
} as const;

/**
 * Issue 46: deleting the account needs the password typed in this session within this many minutes
 * (at login, a reset or a password change), or typed again with the request.
 */
export const RECENT_SIGN_IN_MINUTES = 10;

/** The shared demo account (spec section 6: one fixed user id). Its credentials are public. */
export const DEMO_USER_ID = '00000000-0000-4000-8000-00000000de30';
export const DEMO_EMAIL = 'demo@neighbourhood.cats';
export const DEMO_PASSWORD = 'DemoCats123';
export const DEMO_USERNAME = 'demo';
export const ANONYMISED_USERNAME = 'Anonymised for demo';
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
