import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  APPEAL_MAX,
  MODERATION_ACTIONS,
  MODERATION_EXPLANATION_MAX,
  MODERATION_NOTE_MAX,
  REPORT_NOTE_MAX,
  REPORT_REASONS,
  REPORT_TARGET_TYPES,
} from '@cats/contracts';
import { users } from './users.ts';

/** `'a', 'b'` for a CHECK's IN list, from the contracts' fixed lists (constants, never input). */
const sqlList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/**
 * A report (issue 27, "Reporting"): one per reporter and target, updated when the same person reports
 * the same thing again. `snapshot` is the reported content as it was when reported (caption, text,
 * picture key, name...), so that moderators judge what was seen even after the author edits or deletes
 * it. Open while resolved_at is null; a moderator's first action on the target resolves its reports.
 * decided_at stays when the report is sent again, so that the same reporters cannot hide it again.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    targetType: text('target_type').notNull(),
    /** The post, comment, user or cat reported. No foreign key: the report outlives a deleted target. */
    targetId: uuid('target_id').notNull(),
    /** Whose content it is (the author, the profile's owner, the cat's creator): their strikes and appeals. */
    targetUserId: uuid('target_user_id').references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    note: text('note').notNull().default(''),
    snapshot: jsonb('snapshot').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /**
     * When a moderator last decided on this reporter's report (issue 46). Unlike resolved_at, a report
     * sent again keeps it: a reporter whose report was decided no longer counts towards the auto-hide.
     */
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('reports_reporter_target_idx').on(t.reporterId, t.targetType, t.targetId),
    // The queue: open reports by target, oldest first.
    index('reports_open_target_idx')
      .on(t.targetType, t.targetId, t.createdAt)
      .where(sql`${t.resolvedAt} is null`),
    index('reports_open_created_idx')
      .on(t.createdAt)
      .where(sql`${t.resolvedAt} is null`),
    // REPORTS_PER_HOUR: the reporter's reports sent or updated in the last hour.
    index('reports_reporter_updated_idx').on(t.reporterId, t.updatedAt),
    index('reports_target_user_idx').on(t.targetUserId),
    check('reports_target_type', sql`${t.targetType} in (${sqlList(REPORT_TARGET_TYPES)})`),
    check('reports_reason', sql`${t.reason} in (${sqlList(REPORT_REASONS)})`),
    check('reports_note_length', sql`char_length(${t.note}) <= ${sql.raw(String(REPORT_NOTE_MAX))}`),
  ],
);

/**
 * The audit log (issue 27, "Moderators"): every moderation action, appended and never edited or deleted
 * (migration 0022's trigger refuses UPDATE and DELETE). It keeps ids and the moderator's name rather
 * than foreign keys, so that no cascade ever rewrites it. It is also the source of strikes (actions
 * against a user's content) and of the statements of reasons shown to the people affected.
 */
export const moderationActions = pgTable(
  'moderation_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The report acted on, or null for an action taken from the log (a restore, an appeal's outcome). */
    reportId: uuid('report_id'),
    moderatorId: uuid('moderator_id').notNull(),
    moderatorName: text('moderator_name').notNull(),
    targetType: text('target_type').notNull(),
    targetId: uuid('target_id').notNull(),
    /** The person affected (author, profile owner, cat creator); null when nobody is (a dismissal). */
    targetUserId: uuid('target_user_id'),
    action: text('action').notNull(),
    /** Which rule was broken: one of the report reasons. */
    rule: text('rule'),
    /** Why, in the moderator's words: shown to the person affected in their statement of reasons. */
    explanation: text('explanation').notNull().default(''),
    /** For 'suspend': 1, 7 or 30 days, or null for good. */
    suspendDays: integer('suspend_days'),
    /** For 'restore': the action it undoes (at most one restore per action: a unique index). */
    revertsActionId: uuid('reverts_action_id'),
    /**
     * What the action changed, as it was before, for its restore: { showLocation } for 'strip_location'
     * (the owner's own choice comes back), { moderation } or { removedAt } for 'remove'. Null otherwise.
     */
    previousState: jsonb('previous_state'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('moderation_actions_created_idx').on(t.createdAt, t.id),
    index('moderation_actions_target_user_idx').on(t.targetUserId, t.createdAt),
    index('moderation_actions_target_idx').on(t.targetType, t.targetId),
    index('moderation_actions_report_idx').on(t.reportId),
    // An action is undone once: two moderators restoring it at the same moment get one restore and a 409.
    uniqueIndex('moderation_actions_reverts_idx')
      .on(t.revertsActionId)
      .where(sql`${t.revertsActionId} is not null`),
    check('moderation_actions_action', sql`${t.action} in (${sqlList(MODERATION_ACTIONS)})`),
    check('moderation_actions_target_type', sql`${t.targetType} in (${sqlList(REPORT_TARGET_TYPES)})`),
    check('moderation_actions_rule', sql`${t.rule} is null or ${t.rule} in (${sqlList(REPORT_REASONS)})`),
    check(
      'moderation_actions_explanation_length',
      sql`char_length(${t.explanation}) <= ${sql.raw(String(MODERATION_EXPLANATION_MAX))}`,
    ),
    check(
      'moderation_actions_suspend_days',
      sql`${t.suspendDays} is null or (${t.action} = 'suspend' and ${t.suspendDays} > 0)`,
    ),
  ],
);

/** Notes between moderators about a target, shown beside its reports. */
export const moderationNotes = pgTable(
  'moderation_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    targetType: text('target_type').notNull(),
    targetId: uuid('target_id').notNull(),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('moderation_notes_target_idx').on(t.targetType, t.targetId, t.createdAt),
    check('moderation_notes_target_type', sql`${t.targetType} in (${sqlList(REPORT_TARGET_TYPES)})`),
    check(
      'moderation_notes_body_length',
      sql`char_length(${t.body}) between 1 and ${sql.raw(String(MODERATION_NOTE_MAX))}`,
    ),
  ],
);

/** An appeal (issue 27, "The author's side"): at most one per decision, decided by another moderator. */
export const appeals = pgTable(
  'appeals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actionId: uuid('action_id')
      .notNull()
      .references(() => moderationActions.id, { onDelete: 'restrict' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    deciderId: uuid('decider_id').references(() => users.id, { onDelete: 'set null' }),
    /** 'upheld': the decision stands; 'overturned': it was undone (a 'restore' action in the log). */
    outcome: text('outcome'),
  },
  (t) => [
    uniqueIndex('appeals_action_idx').on(t.actionId),
    index('appeals_open_idx')
      .on(t.createdAt)
      .where(sql`${t.decidedAt} is null`),
    index('appeals_user_idx').on(t.userId),
    check('appeals_body_length', sql`char_length(${t.body}) between 1 and ${sql.raw(String(APPEAL_MAX))}`),
    check('appeals_outcome', sql`${t.outcome} is null or ${t.outcome} in ('upheld', 'overturned')`),
    check('appeals_decided', sql`(${t.decidedAt} is null) = (${t.outcome} is null)`),
  ],
);
