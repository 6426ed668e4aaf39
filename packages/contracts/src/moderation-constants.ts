// Constants and plain functions only (no zod): the web app imports them without the schema library.
// moderation.ts re-exports them beside its schemas. Issue 27, "Trust and safety".

/** What can be reported: a post, a comment, a person (their profile) or a cat's page. */
export const REPORT_TARGET_TYPES = ['post', 'comment', 'user', 'cat'] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];

/**
 * Why. The web app words each one (report dialog); these keys are what the API and the database hold.
 * 'private_information': shows someone's home or private information.
 */
export const REPORT_REASONS = [
  'spam',
  'harassment',
  'off_topic',
  'private_information',
  'animal_cruelty',
  'other',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_NOTE_MAX = 1000;
/** One account may send (or update) at most this many reports in an hour; the next is refused with 429. */
export const REPORTS_PER_HOUR = 20;
/**
 * A post or comment reported by this many distinct accounts, each older than TRUSTED_REPORTER_DAYS, is
 * hidden from everyone but its author until a moderator reviews it. Fresh accounts still report (the
 * queue shows them) but do not count towards hiding, so one person with new accounts cannot take
 * anything down.
 */
export const AUTO_HIDE_REPORTERS = 3;
export const TRUSTED_REPORTER_DAYS = 7;

/** Roles, in increasing power. Admins grant and revoke moderators; nobody acts on an admin. */
export const ROLES = ['member', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a moderator can do about a report, several per report if needed. 'strip_location' marks a
 * post's location sensitive (its location is switched off); 'restore' undoes an earlier action.
 */
export const MODERATION_ACTIONS = [
  'dismiss',
  'remove',
  'strip_location',
  'warn',
  'suspend',
  'restore',
] as const;
export type ModerationActionKind = (typeof MODERATION_ACTIONS)[number];
/** The actions taken on a report: all but 'restore', which is taken on an earlier action. */
export const REPORT_ACTIONS = ['dismiss', 'remove', 'strip_location', 'warn', 'suspend'] as const;

/** A suspension lasts 1, 7 or 30 days, or (null) until an admin or moderator lifts it. */
export const SUSPENSION_DAYS = [1, 7, 30] as const;

export const MODERATION_EXPLANATION_MAX = 1000;
/** Entries per page of the audit log (GET /api/moderation/log), newest first. */
export const MODERATION_LOG_PAGE_SIZE = 50;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/**
 * What a suspended person reads when they log in or their session is refreshed (issue 27): one whole
 * sentence, with the end in UTC, rounded up to the minute so that it never names a time at which the
 * account is still suspended. `until` null: suspended until a moderator lifts it.
 */
export function suspendedMessage(until: Date | null): string {
  if (until === null) return 'Your account is suspended.';
  const end = new Date(Math.ceil(until.getTime() / 60_000) * 60_000);
  const hh = String(end.getUTCHours()).padStart(2, '0');
  const mm = String(end.getUTCMinutes()).padStart(2, '0');
  const day = `${end.getUTCDate()} ${MONTHS[end.getUTCMonth()]} ${end.getUTCFullYear()}`;
  return `Your account is suspended until ${day} at ${hh}:${mm} UTC.`;
}
export const MODERATION_NOTE_MAX = 2000;
/** An appeal: one per decision, within APPEAL_WINDOW_DAYS of it. */
export const APPEAL_MAX = 2000;
export const APPEAL_WINDOW_DAYS = 20;
/** The moderation page warns when the oldest open report has waited longer than this. */
export const QUEUE_WARNING_HOURS = 20;

/** Refusals and answers of the moderation routes: one sentence each, shown as they are. */
export const MODERATION_MESSAGES = {
  reported: 'Thank you. Our moderators will review your report.',
  reportUpdated: 'Your report is updated. Our moderators will review it.',
  targetNotFound: 'We could not find what you are reporting. It may have been deleted.',
  targetTypeInvalid: 'Choose what you are reporting: a post, a comment, a person or a cat',
  targetIdInvalid: 'This is not a valid id',
  reasonInvalid: 'Choose a reason for your report',
  noteTooLong: `The note can be at most ${REPORT_NOTE_MAX} characters`,
  noteControls: 'The note cannot contain control characters',
  reportOwn: 'You cannot report yourself or your own posts, comments or cats',
  tooManyReports: `You have sent ${REPORTS_PER_HOUR} reports in the last hour. Please wait before sending more.`,
  notModerator: 'Only moderators can do this',
  notAdmin: 'Only admins can do this',
} as const;
