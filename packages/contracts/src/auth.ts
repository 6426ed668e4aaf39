import { z } from 'zod';
import {
  USERNAME_PATTERN,
  PASSWORD_PATTERN,
  EMAIL_PATTERN,
  USERNAME_HINT,
  EMAIL_HINT,
  PASSWORD_HINT,
} from './auth-constants.ts';

export * from './auth-constants.ts';

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
