import { z } from 'zod';
import { emailSchema, passwordSchema, usernameSchema } from './auth.ts';
import { ROLES } from './moderation-constants.ts';

/** A user as embedded in posts and comments (spec: user {_id, username, profilePicUrl optional}). */
export const userSummarySchema = z.object({
  _id: z.string(),
  username: z.string(),
  /** 300 px square picture. */
  profilePicUrl: z.string().optional(),
  /** 72 px square avatar. */
  avatarUrl: z.string().optional(),
});
export type UserSummary = z.infer<typeof userSummarySchema>;

export const profileResponseSchema = z.object({
  _id: z.string(),
  username: z.string(),
  profilePicUrl: z.string().optional(),
  avatarUrl: z.string().optional(),
});
export type ProfileResponse = z.infer<typeof profileResponseSchema>;

/** GET /api/profile/getUserProfile/{userid}: another user's profile header (issue 28, point 6). */
export const userProfileResponseSchema = profileResponseSchema.extend({
  /**
   * How many of their pictures the viewer can see on the profile: live (not in the trash), not
   * moderated away and not hidden by the viewer, so it matches the list below the header.
   */
  postCount: z.number().int().nonnegative(),
  /** When they signed up (ISO 8601); absent for the demo viewer, to whom people are anonymised. */
  memberSince: z.string().optional(),
});
export type UserProfileResponse = z.infer<typeof userProfileResponseSchema>;

/** Own profile also carries the account's private settings. */
export const myProfileResponseSchema = profileResponseSchema.extend({
  email: z.string(),
  exactPublicLocation: z.boolean(),
  /** Spot reminds the user to describe a photo they share without a description (issue 24). */
  altTextReminder: z.boolean(),
  /**
   * Where missing cats are shown and told around (issue 26): the centre of the ~500 m cell chosen in
   * Settings, never a more precise point; null until chosen.
   */
  homeArea: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
  isDemo: z.boolean(),
  /** Issue 27: 'moderator' and 'admin' see the Moderation link (the server checks on every request). */
  role: z.enum(ROLES),
});
export type MyProfileResponse = z.infer<typeof myProfileResponseSchema>;

export const updatePictureResponseSchema = z.object({
  profilePicUrl: z.string(),
  avatarUrl: z.string(),
});

const CURRENT_PASSWORD_HINT = 'Please enter your current password';
const currentPassword = z.string({ error: CURRENT_PASSWORD_HINT }).min(1, CURRENT_PASSWORD_HINT).max(1024);

export const changeUsernameRequestSchema = z.object({ username: usernameSchema, currentPassword });
export const changeEmailRequestSchema = z.object({ email: emailSchema, currentPassword });
export const changePasswordRequestSchema = z.object({ newPassword: passwordSchema, currentPassword });
export const locationPrivacyRequestSchema = z.object({ exactPublicLocation: z.boolean() });
export const altTextReminderRequestSchema = z.object({ altTextReminder: z.boolean() });
export type ChangeUsernameRequest = z.infer<typeof changeUsernameRequestSchema>;
export type ChangeEmailRequest = z.infer<typeof changeEmailRequestSchema>;
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/**
 * DELETE /api/profile/deleteUser/{id} (issue 46): the password, needed unless it was typed in this
 * session in the last RECENT_SIGN_IN_MINUTES; a request without a body still works within them.
 */
export const deleteAccountRequestSchema = z.object({ password: currentPassword.optional() }).nullish();
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;

export const blockUserRequestSchema = z.object({
  /** Spec sends the author's user object; only its _id is read. currentUserId is ignored. */
  blockedUser: z.object({ _id: z.string() }).loose(),
  postId: z.string().optional(),
  currentUserId: z.unknown().optional(),
});

export const blockedUsersResponseSchema = z.object({ blockedUsers: z.array(userSummarySchema) });
