import type { ModerationActionKind, ReportReason, ReportTargetType, Statement } from '@cats/contracts';
import { defineMessage, translate, type MessageDescriptor } from '../../i18n/i18n-store.ts';
import { formatMoment } from '../../lib/relative-time.ts';

/** The rule broken, in the words the report dialog offers them (components/report/report-dialog.tsx). */
export const RULE_MESSAGES: Record<ReportReason, MessageDescriptor> = {
  spam: defineMessage({ id: 'moderation.rule.spam', defaultMessage: 'Spam' }),
  harassment: defineMessage({ id: 'moderation.rule.harassment', defaultMessage: 'Harassment or hate' }),
  off_topic: defineMessage({ id: 'moderation.rule.offTopic', defaultMessage: 'Not a cat / off-topic' }),
  private_information: defineMessage({
    id: 'moderation.rule.privateInformation',
    defaultMessage: "Shows someone's home or private information",
  }),
  animal_cruelty: defineMessage({ id: 'moderation.rule.animalCruelty', defaultMessage: 'Animal cruelty' }),
  other: defineMessage({ id: 'moderation.rule.other', defaultMessage: 'Other' }),
};

/** What happened, one whole sentence per action and target, in the current language. */
export function decisionSentence(
  statement: Pick<Statement, 'action' | 'targetType' | 'suspendedUntil'>,
): string {
  switch (statement.action) {
    case 'remove':
      switch (statement.targetType) {
        case 'post':
          return translate({
            id: 'moderation.decision.removedPost',
            defaultMessage: 'A moderator removed your picture.',
          });
        case 'comment':
          return translate({
            id: 'moderation.decision.removedComment',
            defaultMessage: 'A moderator removed your comment.',
          });
        case 'user':
          return translate({
            id: 'moderation.decision.removedProfile',
            defaultMessage: 'A moderator removed your profile.',
          });
        case 'cat':
          return translate({
            id: 'moderation.decision.removedCat',
            defaultMessage: "A moderator removed your cat's page.",
          });
      }
      break;
    case 'strip_location':
      return translate({
        id: 'moderation.decision.strippedLocation',
        defaultMessage: 'A moderator hid the location of your picture.',
      });
    case 'warn':
      return translate({ id: 'moderation.decision.warned', defaultMessage: 'You received a warning.' });
    case 'suspend':
      return statement.suspendedUntil
        ? translate(
            {
              id: 'moderation.decision.suspendedUntil',
              defaultMessage: 'Your account was suspended until {until}.',
            },
            { until: formatMoment(statement.suspendedUntil) },
          )
        : translate({ id: 'moderation.decision.suspended', defaultMessage: 'Your account was suspended.' });
  }
}

/** What was reported, as the reporter's list names it. */
export const REPORTED_TARGET_MESSAGES: Record<ReportTargetType, MessageDescriptor> = {
  post: defineMessage({ id: 'moderation.reported.post', defaultMessage: 'A picture' }),
  comment: defineMessage({ id: 'moderation.reported.comment', defaultMessage: 'A comment' }),
  user: defineMessage({ id: 'moderation.reported.user', defaultMessage: 'A person' }),
  cat: defineMessage({ id: 'moderation.reported.cat', defaultMessage: "A cat's page" }),
};

/** What came of a report: one whole sentence per action moderators took, in the current language. */
export function outcomeSentence(action: ModerationActionKind, targetType: ReportTargetType): string {
  switch (action) {
    case 'remove':
      switch (targetType) {
        case 'post':
          return translate({
            id: 'moderation.outcome.removedPost',
            defaultMessage: 'We removed the post you reported.',
          });
        case 'comment':
          return translate({
            id: 'moderation.outcome.removedComment',
            defaultMessage: 'We removed the comment you reported.',
          });
        case 'user':
          return translate({
            id: 'moderation.outcome.removedProfile',
            defaultMessage: 'We removed the profile you reported.',
          });
        case 'cat':
          return translate({
            id: 'moderation.outcome.removedCat',
            defaultMessage: "We removed the cat's page you reported.",
          });
      }
      break;
    case 'strip_location':
      return translate({ id: 'moderation.outcome.strippedLocation', defaultMessage: 'We hid its location.' });
    case 'warn':
      return translate({
        id: 'moderation.outcome.warned',
        defaultMessage: 'We warned the person behind it.',
      });
    case 'suspend':
      return translate({
        id: 'moderation.outcome.suspended',
        defaultMessage: 'We suspended the account behind it.',
      });
    case 'dismiss':
      return translate({
        id: 'moderation.outcome.dismissed',
        defaultMessage: 'We reviewed it and found no rule broken.',
      });
    case 'restore':
      return translate({
        id: 'moderation.outcome.restored',
        defaultMessage: 'We later undid a decision about it.',
      });
  }
}
