import { z } from 'zod';
import {
  MODERATION_ACTIONS,
  MODERATION_NOTE_MAX,
  REPORT_REASONS,
  REPORT_TARGET_TYPES,
  ROLES,
} from './moderation-constants.ts';
import { hasUnwantedControls } from './posts-constants.ts';

/**
 * Issue 27, "Moderators": the moderation queue, its health, moderators' notes and the staff list.
 * Every route here is for moderators and admins (403 with MODERATION_MESSAGES.notModerator for
 * others); changing a role is for admins only (MODERATION_MESSAGES.notAdmin).
 */
export const MODERATION_QUEUE_MESSAGES = {
  invalidCursor: 'This page of the queue does not exist',
  noteEmpty: 'Write a note first',
  noteTooLong: `A note can be at most ${MODERATION_NOTE_MAX} characters`,
  noteControls: 'The note cannot contain control characters',
  targetTypeInvalid: 'Choose what the note is about: a post, a comment, a person or a cat',
  targetIdInvalid: 'This is not a valid id',
  notReported: 'Nothing was ever reported about this, so it takes no notes',
  userNotFound: 'There is no such user',
  roleInvalid: 'Choose a role: moderator or member',
  cannotChangeAdmin: "An admin's role can only be changed on the command line (npm run admin)",
  cannotChangeSelf: 'You cannot change your own role',
  pictureNotFound: 'This report has no picture',
} as const;

/** How many target groups one page of the queue holds. */
export const MODERATION_QUEUE_PAGE_SIZE = 20;

export const moderationQueueQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
});

/**
 * The reported content as it was when reported (the report's snapshot): what the moderator judges,
 * kept even after its author edits or deletes it. Fields that do not apply are null.
 */
export const reportSnapshotViewSchema = z.object({
  /**
   * The picture (a post's; a cat's or profile's when the snapshot has one): 800 px, avatars 300 px.
   * The moderators' route GET /api/moderation/reports/{reportId}/picture, never a public /media URL:
   * it needs the bearer token (issue 46), so the web app fetches it as a blob.
   */
  pictureUrl: z.string().nullable(),
  caption: z.string().nullable(),
  catName: z.string().nullable(),
  altText: z.string().nullable(),
  /** A comment's text. */
  text: z.string().nullable(),
  /** A profile's username, or the author's username at the time. */
  username: z.string().nullable(),
  /** A cat page's name. */
  name: z.string().nullable(),
  /** A cat page's description or a profile's bio, when the snapshot has one. */
  description: z.string().nullable(),
});
export type ReportSnapshotView = z.infer<typeof reportSnapshotViewSchema>;

export const queueReportSchema = z.object({
  _id: z.string(),
  reporter: z.object({ _id: z.string(), username: z.string() }),
  reason: z.enum(REPORT_REASONS),
  note: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type QueueReport = z.infer<typeof queueReportSchema>;

/** A strike: an action against the author's content or account that no later 'restore' undid. */
export const strikeSchema = z.object({
  _id: z.string(),
  action: z.enum(MODERATION_ACTIONS),
  rule: z.enum(REPORT_REASONS).nullable(),
  targetType: z.enum(REPORT_TARGET_TYPES),
  explanation: z.string(),
  createdAt: z.string(),
});
export type Strike = z.infer<typeof strikeSchema>;

export const moderationNoteSchema = z.object({
  _id: z.string(),
  /** null when the moderator's account was deleted since. */
  author: z.object({ _id: z.string(), username: z.string() }).nullable(),
  body: z.string(),
  createdAt: z.string(),
});
export type ModerationNote = z.infer<typeof moderationNoteSchema>;

/**
 * One reported thing with its open reports. `reportId` (the oldest open report) is what
 * POST /api/moderation/reports/{reportId}/actions takes.
 */
export const queueGroupSchema = z.object({
  reportId: z.string(),
  targetType: z.enum(REPORT_TARGET_TYPES),
  targetId: z.string(),
  /** The author, profile owner or cat creator; null when unknown (the account was deleted). */
  author: z.object({ _id: z.string(), username: z.string() }).nullable(),
  /** From the oldest open report (what the first reporter saw). */
  snapshot: reportSnapshotViewSchema,
  reports: z.array(queueReportSchema),
  /** When the oldest open report of this target was made. */
  oldestReportAt: z.string(),
  strikeCount: z.number().int(),
  strikes: z.array(strikeSchema),
  notes: z.array(moderationNoteSchema),
});
export type QueueGroup = z.infer<typeof queueGroupSchema>;

export const moderationQueueResponseSchema = z.object({
  groups: z.array(queueGroupSchema),
  nextCursor: z.string().nullable(),
});
export type ModerationQueueResponse = z.infer<typeof moderationQueueResponseSchema>;

/** The health of the queue. */
export const moderationStatsSchema = z.object({
  openReports: z.number().int(),
  /** When the oldest open report was made, or null when the queue is empty. */
  oldestOpenReportAt: z.string().nullable(),
  /** Its age in seconds, or null. */
  oldestOpenReportAgeSeconds: z.number().int().nullable(),
  /**
   * Median seconds from a report to the first action on it, over the reports made in the last 30
   * days that have one; null when none has.
   */
  medianSecondsToFirstAction: z.number().nullable(),
});
export type ModerationStats = z.infer<typeof moderationStatsSchema>;

export const createModerationNoteSchema = z.object({
  targetType: z.enum(REPORT_TARGET_TYPES, { error: MODERATION_QUEUE_MESSAGES.targetTypeInvalid }),
  targetId: z.uuid({ error: MODERATION_QUEUE_MESSAGES.targetIdInvalid }),
  body: z
    .string({ error: MODERATION_QUEUE_MESSAGES.noteEmpty })
    .max(MODERATION_NOTE_MAX, { error: MODERATION_QUEUE_MESSAGES.noteTooLong })
    .refine((text) => !hasUnwantedControls(text), { error: MODERATION_QUEUE_MESSAGES.noteControls })
    .transform((text) => text.trim())
    .refine((text) => text.length > 0, { error: MODERATION_QUEUE_MESSAGES.noteEmpty }),
});
export type CreateModerationNoteBody = z.input<typeof createModerationNoteSchema>;
export const moderationNoteResponseSchema = z.object({ note: moderationNoteSchema });

export const staffMemberSchema = z.object({
  _id: z.string(),
  username: z.string(),
  role: z.enum(ROLES),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;
export const staffListResponseSchema = z.object({ staff: z.array(staffMemberSchema) });
export type StaffListResponse = z.infer<typeof staffListResponseSchema>;

/**
 * PUT /api/moderation/staff/{user}: `{user}` is the user's id or their username (the web form takes a
 * username). Admins only; an admin's role, and one's own, are changed on the command line only.
 */
export const staffUserParamsSchema = z.object({ user: z.string().min(1).max(100) });
export const setStaffRoleSchema = z.object({
  role: z.enum(['moderator', 'member'], { error: MODERATION_QUEUE_MESSAGES.roleInvalid }),
});
export type SetStaffRoleBody = z.input<typeof setStaffRoleSchema>;
export const setStaffRoleResponseSchema = z.object({ member: staffMemberSchema });
