import { z } from 'zod';

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

// A missing or non-string field gets the field's hint too, not zod's generic type message.
export const usernameSchema = z
  .string({ error: USERNAME_HINT })
  .trim()
  .regex(USERNAME_PATTERN, USERNAME_HINT);
export const emailSchema = z
  .string({ error: EMAIL_HINT })
  .trim()
  .max(254, EMAIL_HINT)
  .regex(EMAIL_PATTERN, EMAIL_HINT);
export const passwordSchema = z.string({ error: PASSWORD_HINT }).regex(PASSWORD_PATTERN, PASSWORD_HINT);

export const signupRequestSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
});
export type SignupRequest = z.infer<typeof signupRequestSchema>;

/** Login only checks presence: a wrong format is simply wrong credentials (401), never a hint. */
export const loginRequestSchema = z.object({
  email: z.string().max(254).optional(),
  password: z.string().max(1024).optional(),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const signupResponseSchema = z.object({ message: z.string(), userId: z.string() });
export type SignupResponse = z.infer<typeof signupResponseSchema>;

export const tokenResponseSchema = z.object({ accessToken: z.string(), userId: z.string() });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const AUTH_MESSAGES = {
  missingCredentials: 'Missing Email or Password',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  emailTaken: 'That email is already registered',
  usernameTaken: 'That display name is already taken',
  tooManyAttempts: 'Too many login attempts, please try again later',
  tooManyRequests: 'Too many requests, please try again later',
  accountCreated: 'Account created',
  currentPasswordIncorrect: 'Current password is incorrect',
} as const;

/** The shared demo account (spec section 6: one fixed user id). Its credentials are public. */
export const DEMO_USER_ID = '00000000-0000-4000-8000-00000000de30';
export const DEMO_EMAIL = 'demo@neighbourhood.cats';
export const DEMO_PASSWORD = 'DemoCats123';
export const DEMO_USERNAME = 'demo';
export const ANONYMISED_USERNAME = 'Anonymised for demo';
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
