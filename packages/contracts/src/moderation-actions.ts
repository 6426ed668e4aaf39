import { z } from 'zod';
import {
  MODERATION_ACTIONS,
  MODERATION_EXPLANATION_MAX,
  REPORT_ACTIONS,
  REPORT_REASONS,
  REPORT_TARGET_TYPES,
  SUSPENSION_DAYS,
  suspendedMessage,
} from './moderation-constants.ts';

/**
 * Issue 27, "Moderators": what a moderator does about a report. Several actions may be taken on one
 * report in one request (remove the post and suspend its author); each is appended to the audit log.
 * 'restore' is not taken on a report but on an earlier action (POST /api/moderation/actions/{id}/restore).
 */
export const MODERATION_ACTION_MESSAGES = {
  actionInvalid: 'Choose an action: dismiss, remove, strip the location, warn or suspend',
  noActions: 'Choose at least one action',
  explanationTooLong: `The explanation can be at most ${MODERATION_EXPLANATION_MAX} characters`,
  explanationRequired: 'Say why: the person affected reads this in their statement of reasons',
  ruleInvalid: 'Choose which rule was broken',
  suspendDaysInvalid: 'A suspension lasts 1, 7 or 30 days, or until it is lifted',
  suspendDaysNotSuspend: 'A number of days goes only with a suspension',
  dismissAlone: 'A dismissal cannot be combined with other actions',
  duplicateAction: 'Choose each action once',
  reportNotFound: 'This report does not exist',
  actionNotFound: 'This action does not exist',
  notApplicable: 'This action does not apply to what was reported',
  ownContent: 'You cannot act on your own content or account',
  onAdmin: 'Nobody can act on an admin',
  onDemo: 'The shared demo account cannot be warned or suspended: everyone signs in with it',
  alreadyRestored: 'This action has already been undone',
  notRestorable: 'This action cannot be undone',
  targetGone: 'What was reported no longer exists',
  /** For good; with an end, suspendedMessage(until) names it. */
  suspended: suspendedMessage(null),
} as const;

const explanationSchema = z
  .string({ error: MODERATION_ACTION_MESSAGES.explanationRequired })
  .max(MODERATION_EXPLANATION_MAX, { error: MODERATION_ACTION_MESSAGES.explanationTooLong })
  .transform((text) => text.trim());

export const moderationActionInputSchema = z.object({
  action: z.enum(REPORT_ACTIONS, { error: MODERATION_ACTION_MESSAGES.actionInvalid }),
  /** Which rule was broken (a report reason); required for everything but 'dismiss'. */
  rule: z.enum(REPORT_REASONS, { error: MODERATION_ACTION_MESSAGES.ruleInvalid }).optional(),
  explanation: explanationSchema.optional().default(''),
  /** For 'suspend': 1, 7 or 30, or null for good. */
  suspendDays: z
    .union(
      [z.literal(SUSPENSION_DAYS[0]), z.literal(SUSPENSION_DAYS[1]), z.literal(SUSPENSION_DAYS[2]), z.null()],
      {
        error: MODERATION_ACTION_MESSAGES.suspendDaysInvalid,
      },
    )
    .optional(),
});

export const takeModerationActionsSchema = z.object({
  actions: z
    .array(moderationActionInputSchema, { error: MODERATION_ACTION_MESSAGES.noActions })
    .min(1, { error: MODERATION_ACTION_MESSAGES.noActions })
    .max(5, { error: MODERATION_ACTION_MESSAGES.actionInvalid }),
});
export type TakeModerationActionsBody = z.input<typeof takeModerationActionsSchema>;

export const restoreActionSchema = z.object({ explanation: explanationSchema.optional().default('') });

/** One entry of the audit log, as moderators see it. */
export const moderationActionSchema = z.object({
  _id: z.string(),
  reportId: z.string().nullable(),
  moderator: z.object({ _id: z.string(), username: z.string() }),
  action: z.enum(MODERATION_ACTIONS),
  targetType: z.enum(REPORT_TARGET_TYPES),
  targetId: z.string(),
  targetUserId: z.string().nullable(),
  rule: z.enum(REPORT_REASONS).nullable(),
  explanation: z.string(),
  suspendDays: z.number().int().nullable(),
  revertsActionId: z.string().nullable(),
  /** True once a later 'restore' undid this action. */
  reverted: z.boolean(),
  createdAt: z.string(),
});
export type ModerationAction = z.infer<typeof moderationActionSchema>;

export const moderationActionsAnswerSchema = z.object({ actions: z.array(moderationActionSchema) });
export const moderationLogPageSchema = z.object({
  entries: z.array(moderationActionSchema),
  nextCursor: z.string().nullable(),
});

/** Path parameters (ids are checked by the server: unknown or malformed, 404). */
export const moderationReportParamsSchema = z.object({ reportId: z.string().max(100) });
export const moderationActionParamsSchema = z.object({ actionId: z.string().max(100) });
/** GET /api/moderation/log: MODERATION_LOG_PAGE_SIZE entries a page, newest first, by cursor. */
export const moderationLogQuerySchema = z.object({ cursor: z.string().max(200).optional() });
