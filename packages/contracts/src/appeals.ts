import { z } from 'zod';
import {
  APPEAL_MAX,
  APPEAL_WINDOW_DAYS,
  MODERATION_ACTIONS,
  MODERATION_EXPLANATION_MAX,
  REPORT_REASONS,
  REPORT_TARGET_TYPES,
} from './moderation-constants.ts';

/**
 * Issue 27, "The author's side": every action that affects someone gives them a statement of reasons
 * (what, which rule, when, how to appeal), in a notification and on a page in Settings. They may appeal
 * once per decision within APPEAL_WINDOW_DAYS days; a moderator other than the one who decided answers
 * where another exists. Reporters see what came of their reports.
 */
export const APPEAL_MESSAGES = {
  bodyRequired: 'Write why the decision should change',
  bodyTooLong: `An appeal can be at most ${APPEAL_MAX} characters`,
  decisionNotFound: 'This decision does not exist',
  notAppealable: 'Only a removal, a hidden location, a warning or a suspension can be appealed',
  alreadyAppealed: 'You have already appealed this decision',
  tooLate: `A decision can be appealed within ${APPEAL_WINDOW_DAYS} days`,
  undone: 'This decision has already been undone',
  sent: 'Your appeal is sent. A moderator who did not take the decision will answer it.',
  appealNotFound: 'This appeal does not exist',
  alreadyDecided: 'This appeal has already been decided',
  sameModerator: 'Another moderator must decide this appeal: you took the decision',
  ownAppeal: 'You cannot decide your own appeal',
  outcomeInvalid: 'Choose whether the decision stands or is undone',
  explanationTooLong: `The explanation can be at most ${MODERATION_EXPLANATION_MAX} characters`,
  notSuspended: 'This account is not suspended: sign in to see moderation decisions',
} as const;

/** The actions a person can appeal: those that did something to their content or account. */
export const APPEALABLE_ACTIONS = ['remove', 'strip_location', 'warn', 'suspend'] as const;

const appealOutcomeSchema = z.enum(['upheld', 'overturned']);

export const appealSchema = z.object({
  _id: z.string(),
  body: z.string(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  /** 'upheld': the decision stands; 'overturned': it was undone. */
  outcome: appealOutcomeSchema.nullable(),
});
export type Appeal = z.infer<typeof appealSchema>;

/** One statement of reasons, as the person affected reads it. It never names a moderator or a reporter. */
export const statementSchema = z.object({
  /** The decision's id (the audit log's action): what an appeal names. */
  _id: z.string(),
  action: z.enum(APPEALABLE_ACTIONS),
  targetType: z.enum(REPORT_TARGET_TYPES),
  targetId: z.string(),
  /** What it was about, as it was when reported: a caption, a comment, a name (null when not kept). */
  excerpt: z.string().nullable(),
  /** The reported picture's thumbnail, for posts. */
  thumbnailUrl: z.string().nullable(),
  /** Which rule (a report reason). */
  rule: z.enum(REPORT_REASONS).nullable(),
  /** The moderator's explanation. */
  explanation: z.string(),
  createdAt: z.string(),
  /** A suspension's end, or null (for good, or not a suspension). */
  suspendedUntil: z.string().nullable(),
  /** True once the decision was undone (on appeal or by a moderator). */
  reverted: z.boolean(),
  appeal: appealSchema.nullable(),
  /** The last moment an appeal is taken. */
  appealDeadline: z.string(),
  canAppeal: z.boolean(),
});
export type Statement = z.infer<typeof statementSchema>;
export const statementsResponseSchema = z.object({ statements: z.array(statementSchema) });
export type StatementsResponse = z.infer<typeof statementsResponseSchema>;

/** A report the caller made, and what came of it (never who decided). */
export const ownReportSchema = z.object({
  _id: z.string(),
  targetType: z.enum(REPORT_TARGET_TYPES),
  reason: z.enum(REPORT_REASONS),
  note: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  status: z.enum(['open', 'resolved']),
  /** The actions moderators took on what was reported since the report, oldest first. */
  outcomes: z.array(z.enum(MODERATION_ACTIONS)),
});
export type OwnReport = z.infer<typeof ownReportSchema>;
export const ownReportsResponseSchema = z.object({ reports: z.array(ownReportSchema) });
export type OwnReportsResponse = z.infer<typeof ownReportsResponseSchema>;

export const createAppealSchema = z.object({
  actionId: z.uuid({ error: APPEAL_MESSAGES.decisionNotFound }),
  body: z
    .string({ error: APPEAL_MESSAGES.bodyRequired })
    .trim()
    .min(1, { error: APPEAL_MESSAGES.bodyRequired })
    .max(APPEAL_MAX, { error: APPEAL_MESSAGES.bodyTooLong }),
});
export type CreateAppealBody = z.input<typeof createAppealSchema>;
export const appealReceiptSchema = z.object({ appeal: appealSchema, message: z.string() });

/** An open appeal, as moderators see it. */
export const moderatorAppealSchema = z.object({
  _id: z.string(),
  body: z.string(),
  createdAt: z.string(),
  appellant: z.object({ _id: z.string(), username: z.string() }),
  decision: z.object({
    _id: z.string(),
    action: z.enum(APPEALABLE_ACTIONS),
    targetType: z.enum(REPORT_TARGET_TYPES),
    targetId: z.string(),
    rule: z.enum(REPORT_REASONS).nullable(),
    explanation: z.string(),
    createdAt: z.string(),
    moderator: z.object({ _id: z.string(), username: z.string() }),
    excerpt: z.string().nullable(),
    thumbnailUrl: z.string().nullable(),
  }),
  /** The caller took the decision: another moderator must answer, unless there is none. */
  decidedByYou: z.boolean(),
});
export type ModeratorAppeal = z.infer<typeof moderatorAppealSchema>;
export const moderatorAppealsResponseSchema = z.object({ appeals: z.array(moderatorAppealSchema) });
export type ModeratorAppealsResponse = z.infer<typeof moderatorAppealsResponseSchema>;

export const decideAppealSchema = z.object({
  outcome: z.enum(['upheld', 'overturned'], { error: APPEAL_MESSAGES.outcomeInvalid }),
  explanation: z
    .string()
    .max(MODERATION_EXPLANATION_MAX, { error: APPEAL_MESSAGES.explanationTooLong })
    .transform((text) => text.trim())
    .optional()
    .default(''),
});
export type DecideAppealBody = z.input<typeof decideAppealSchema>;
export const appealDecisionSchema = z.object({ appeal: appealSchema });

/** Ids in paths are checked by the service (an unknown or malformed one is a 404 with its message). */
export const appealParamsSchema = z.object({ appealId: z.string().max(100) });

/**
 * A suspended person cannot sign in (issue 27), so their email and password stand in for a session to
 * read the statements about them and appeal: POST /api/login/suspension and /api/login/suspension/appeal.
 */
export const suspendedCredentialsSchema = z.object({
  email: z.string().max(320).optional(),
  password: z.string().max(200).optional(),
});
export const suspendedAppealSchema = suspendedCredentialsSchema.extend(createAppealSchema.shape);
export type SuspendedAppealBody = z.input<typeof suspendedAppealSchema>;
