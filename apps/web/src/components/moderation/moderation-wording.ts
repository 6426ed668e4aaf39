import type { ModerationActionKind, ReportReason, ReportTargetType, Statement } from '@cats/contracts';

/** The rule broken, in the words the report dialog offers them (components/report/report-dialog.tsx). */
export const RULE_LABELS: Record<ReportReason, string> = {
  spam: 'Spam',
  harassment: 'Harassment or hate',
  off_topic: 'Not a cat / off-topic',
  private_information: "Shows someone's home or private information",
  animal_cruelty: 'Animal cruelty',
  other: 'Other',
};

/** Dates on the statements: the day, written out ('26 November 2026'). */
const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
/** A suspension's end also needs the time. */
const momentFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short' });

export const formatDay = (iso: string) => dayFormat.format(new Date(iso));
export const formatMoment = (iso: string) => momentFormat.format(new Date(iso));

/** What happened, one whole sentence per action and target. */
export function decisionSentence(statement: Pick<Statement, 'action' | 'targetType' | 'suspendedUntil'>) {
  switch (statement.action) {
    case 'remove':
      switch (statement.targetType) {
        case 'post':
          return 'A moderator removed your picture.';
        case 'comment':
          return 'A moderator removed your comment.';
        case 'user':
          return 'A moderator removed your profile.';
        case 'cat':
          return "A moderator removed your cat's page.";
      }
      break;
    case 'strip_location':
      return 'A moderator hid the location of your picture.';
    case 'warn':
      return 'You received a warning.';
    case 'suspend':
      return statement.suspendedUntil
        ? `Your account was suspended until ${formatMoment(statement.suspendedUntil)}.`
        : 'Your account was suspended.';
  }
}

/** What was reported, as the reporter's list names it. */
export const REPORTED_TARGETS: Record<ReportTargetType, string> = {
  post: 'A picture',
  comment: 'A comment',
  user: 'A person',
  cat: "A cat's page",
};

/** What came of a report: one whole sentence per action moderators took. */
export function outcomeSentence(action: ModerationActionKind, targetType: ReportTargetType): string {
  switch (action) {
    case 'remove':
      switch (targetType) {
        case 'post':
          return 'We removed the post you reported.';
        case 'comment':
          return 'We removed the comment you reported.';
        case 'user':
          return 'We removed the profile you reported.';
        case 'cat':
          return "We removed the cat's page you reported.";
      }
      break;
    case 'strip_location':
      return 'We hid its location.';
    case 'warn':
      return 'We warned the person behind it.';
    case 'suspend':
      return 'We suspended the account behind it.';
    case 'dismiss':
      return 'We reviewed it and found no rule broken.';
    case 'restore':
      return 'We later undid a decision about it.';
  }
}
