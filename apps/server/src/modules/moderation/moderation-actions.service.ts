import {
  DEMO_USER_ID,
  isUuid,
  MODERATION_ACTION_MESSAGES as M,
  MODERATION_LOG_PAGE_SIZE,
  MODERATION_MESSAGES,
  moderationActionSchema,
  restoreActionSchema,
  takeModerationActionsSchema,
  type ModerationAction,
  type ReportTargetType,
  type TakeModerationActionsBody,
} from '@cats/contracts';
import type { z } from 'zod';
import type { Database, Executor } from '../../db/client.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/http-errors.ts';
import type { AuthContext, LiveUsers } from '../../plugins/auth.ts';
import { revokeUserFamilies } from '../auth/auth.repository.ts';
import { decodeCursor, encodeCursor } from '../posts/post-view.ts';
import type { EventBus } from '../../events/events.ts';
import * as repo from './moderation-actions.repository.ts';
import * as suspensions from '../suspensions/suspensions.repository.ts';
import { DAY_MS } from '../../lib/durations.ts';

export interface ModerationActionsDeps {
  db: Database;
  /** A suspended account is forgotten here at once (other instances hear migration 0024's NOTIFY). */
  liveUsers: Pick<LiveUsers, 'forget'>;
  /** Whom a decision concerns is told through an event (notifications subscribes). */
  events: EventBus;
}

type ActionInput = z.output<typeof takeModerationActionsSchema>['actions'][number];

/**
 * What a restore can undo. Undoing a warning withdraws the strike (it no longer counts on the person's
 * record); a dismissal changed nothing, and a restore is undone by acting again.
 */
const RESTORABLE = new Set(['remove', 'strip_location', 'warn', 'suspend']);

const idOf = (raw: string) => (isUuid(raw) ? raw.toLowerCase() : null);

function toEntry(row: repo.ActionRow): ModerationAction {
  return moderationActionSchema.parse({
    _id: row.id,
    reportId: row.reportId,
    moderator: { _id: row.moderatorId, username: row.moderatorName },
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    targetUserId: row.targetUserId,
    rule: row.rule,
    explanation: row.explanation,
    suspendDays: row.suspendDays,
    revertsActionId: row.revertsActionId,
    reverted: row.reverted,
    createdAt: row.createdAt.toISOString(),
  });
}

/** The body's own rules, before anything is read: every refusal here is a 400. */
function checkInputs(actions: ActionInput[], targetType: ReportTargetType): void {
  const kinds = actions.map((a) => a.action);
  if (new Set(kinds).size !== kinds.length) throw badRequest(M.duplicateAction);
  if (kinds.includes('dismiss') && kinds.length > 1) throw badRequest(M.dismissAlone);
  for (const a of actions) {
    if (a.action !== 'dismiss' && !a.rule) throw badRequest(M.ruleInvalid);
    if (a.action !== 'dismiss' && a.explanation === '') throw badRequest(M.explanationRequired);
    if (a.action === 'suspend' && a.suspendDays === undefined) throw badRequest(M.suspendDaysInvalid);
    if (a.action !== 'suspend' && a.suspendDays !== undefined) throw badRequest(M.suspendDaysNotSuspend);
    if (a.action === 'remove' && targetType === 'user') throw badRequest(M.notApplicable);
    if (a.action === 'strip_location' && targetType !== 'post') throw badRequest(M.notApplicable);
  }
}

/** Nobody acts on their own content or account, and nobody acts on an admin. */
async function refuseOwnOrAdmin(ex: Executor, moderatorId: string, targetUserId: string | null) {
  if (targetUserId === null) return;
  if (targetUserId === moderatorId) throw forbidden(M.ownContent);
  const target = await repo.findUser(ex, targetUserId);
  if (target?.role === 'admin') throw forbidden(M.onAdmin);
  // Suspending the demo account would lock every visitor out; it writes nothing but likes anyway.
  if (targetUserId === DEMO_USER_ID) throw forbidden(M.onDemo);
}

/**
 * POST /api/moderation/reports/{reportId}/actions: one or more actions on what a report is about, in
 * one transaction; each is appended to the audit log, and the report and every other open report on
 * the same target are resolved. Any refusal changes nothing.
 */
export async function takeActions(
  deps: ModerationActionsDeps,
  viewer: AuthContext,
  rawReportId: string,
  body: TakeModerationActionsBody,
  now = new Date(),
): Promise<ModerationAction[]> {
  const reportId = idOf(rawReportId);
  const report = reportId ? await repo.findReport(deps.db, reportId) : null;
  if (!report) throw notFound(M.reportNotFound);
  const { actions } = takeModerationActionsSchema.parse(body);
  checkInputs(actions, report.targetType);
  const dismissing = actions[0]!.action === 'dismiss';

  const { rows, suspended } = await deps.db.transaction(async (tx) => {
    const moderator = await repo.findUser(tx, viewer.userId);
    if (!moderator) throw forbidden(MODERATION_MESSAGES.notModerator);
    const target = await repo.lockTarget(tx, report.targetType, report.targetId);
    if (!target && !dismissing) throw conflict(M.targetGone);
    // A dismissal of a deleted target still names whose it was (the report's), for the own-content rule.
    const targetUserId = target ? target.userId : report.targetUserId;
    if (targetUserId === viewer.userId) throw forbidden(M.ownContent);
    // A dismissal changes nothing of an admin's, so reports about one can still be closed.
    if (!dismissing) await refuseOwnOrAdmin(tx, viewer.userId, targetUserId);

    const inserts: repo.ActionInsert[] = [];
    let suspendedUser: string | null = null;
    const base = {
      reportId: report.id,
      moderatorId: moderator.id,
      moderatorName: moderator.username,
      targetType: report.targetType,
      targetId: report.targetId,
    };
    for (const a of actions) {
      const entry: repo.ActionInsert = {
        ...base,
        action: a.action,
        targetUserId: a.action === 'dismiss' ? null : targetUserId,
        rule: a.rule ?? null,
        explanation: a.explanation,
      };
      switch (a.action) {
        case 'dismiss':
          break;
        case 'warn':
          if (!targetUserId) throw badRequest(M.notApplicable);
          break;
        case 'remove':
          if (report.targetType === 'cat') {
            entry.previousState = { removedAt: target!.removedAt?.toISOString() ?? null };
            await repo.setCatRemoved(tx, report.targetId, target!.removedAt ?? now);
          } else {
            entry.previousState = { moderation: target!.moderation };
            await repo.setModeration(tx, report.targetType as 'post' | 'comment', report.targetId, 'removed');
          }
          break;
        case 'strip_location':
          if (!target!.located) throw badRequest(M.notApplicable);
          entry.previousState = { showLocation: target!.showLocation };
          await repo.stripLocation(tx, report.targetId);
          break;
        case 'suspend': {
          if (!targetUserId) throw badRequest(M.notApplicable);
          const days = a.suspendDays ?? null;
          entry.suspendDays = days;
          await suspensions.suspendUser(
            tx,
            targetUserId,
            now,
            days === null ? null : new Date(now.getTime() + days * DAY_MS),
          );
          // Every session ends: no refresh token of theirs works again, even after the suspension.
          await revokeUserFamilies(tx, targetUserId, null, now);
          suspendedUser = targetUserId;
          break;
        }
      }
      inserts.push(entry);
    }
    // Looked at and left up (dismissed, warned, located elsewhere...): an automatic hide ends here.
    const kinds = actions.map((a) => a.action);
    if (
      target &&
      !kinds.includes('remove') &&
      (report.targetType === 'post' || report.targetType === 'comment')
    ) {
      await repo.endPendingReview(tx, report.targetType, report.targetId);
    }
    const inserted = await repo.insertActions(tx, inserts);
    const reporters = await repo.resolveReports(tx, report, now);
    await tellOfActions(deps.events, tx, inserted, reporters);
    return { rows: inserted, suspended: suspendedUser };
  });
  // This instance at once; the others when migration 0024's announcement reaches them.
  if (suspended) deps.liveUsers.forget(suspended);
  return rows.map(toEntry);
}

/** What a reporter is told when one request took several actions: the weightiest of them. */
const OUTCOME_WEIGHT = ['dismiss', 'warn', 'strip_location', 'suspend', 'remove'];

/**
 * Statements of reasons and outcomes (issue 27, "The author's side"), in the actions' transaction: the
 * person affected is told of each action on their content or account; each reporter of the resolved
 * reports is told once what came of it ('We removed the post you reported'). Nobody is named.
 */
async function tellOfActions(
  events: EventBus,
  tx: Executor,
  inserted: repo.ActionRow[],
  reporters: string[],
): Promise<void> {
  for (const row of inserted) {
    if (row.action !== 'dismiss' && row.targetUserId) {
      await events.emit('moderation.outcome', {
        tx,
        recipientId: row.targetUserId,
        type: 'moderation_decision',
        actionId: row.id,
      });
    }
  }
  const outcome = [...inserted].sort(
    (a, b) => OUTCOME_WEIGHT.indexOf(b.action) - OUTCOME_WEIGHT.indexOf(a.action),
  )[0];
  if (!outcome) return;
  for (const reporterId of reporters) {
    if (reporterId !== outcome.targetUserId) {
      await events.emit('moderation.outcome', {
        tx,
        recipientId: reporterId,
        type: 'report_outcome',
        actionId: outcome.id,
      });
    }
  }
}

/**
 * POST /api/moderation/actions/{actionId}/restore: undoes a removal, a stripped location or a
 * suspension, and appends a 'restore' entry that names it. Warnings and dismissals cannot be undone.
 */
export async function restoreAction(
  deps: ModerationActionsDeps,
  viewer: AuthContext,
  rawActionId: string,
  body: z.input<typeof restoreActionSchema>,
): Promise<ModerationAction> {
  const actionId = idOf(rawActionId);
  const action = actionId ? await repo.findAction(deps.db, actionId) : null;
  if (!action) throw notFound(M.actionNotFound);
  const { explanation } = restoreActionSchema.parse(body);
  if (!RESTORABLE.has(action.action)) throw badRequest(M.notRestorable);
  if (action.reverted) throw conflict(M.alreadyRestored);

  try {
    const row = await deps.db.transaction(async (tx) => {
      const restored = await undoAction(tx, viewer.userId, action, explanation);
      if (restored.targetUserId) {
        await deps.events.emit('moderation.outcome', {
          tx,
          recipientId: restored.targetUserId,
          type: 'moderation_decision',
          actionId: restored.id,
        });
      }
      return restored;
    });
    return toEntry(row);
  } catch (err) {
    // Two restores of one action at the same moment: the unique index lets one through.
    if (repo.isSecondRestore(err)) throw conflict(M.alreadyRestored);
    throw err;
  }
}

/**
 * Undoes `action` inside the caller's transaction and appends the 'restore' entry that names it: a
 * moderator's restore, or an appeal that was upheld in the appellant's favour (appeals.service.ts).
 * Refuses an undo by the person affected or of an admin's content, and of a target since deleted.
 */
export async function undoAction(
  tx: Executor,
  moderatorId: string,
  action: repo.ActionRow,
  explanation: string,
): Promise<repo.ActionRow> {
  const type = action.targetType as ReportTargetType;
  const moderator = await repo.findUser(tx, moderatorId);
  if (!moderator) throw forbidden(MODERATION_MESSAGES.notModerator);
  await refuseOwnOrAdmin(tx, moderatorId, action.targetUserId);
  const previous = (action.previousState ?? {}) as Record<string, unknown>;
  switch (action.action) {
    case 'remove': {
      if (!(await repo.lockTarget(tx, type, action.targetId))) throw conflict(M.targetGone);
      if (type === 'cat') await repo.setCatRemoved(tx, action.targetId, null);
      else await repo.setModeration(tx, type as 'post' | 'comment', action.targetId, null);
      break;
    }
    case 'strip_location': {
      if (!(await repo.lockTarget(tx, 'post', action.targetId))) throw conflict(M.targetGone);
      await repo.unstripLocation(tx, action.targetId, action.id, previous.showLocation === true);
      break;
    }
    case 'suspend': {
      if (!action.targetUserId || !(await repo.findUser(tx, action.targetUserId))) {
        throw conflict(M.targetGone);
      }
      await suspensions.liftSuspension(tx, action.targetUserId);
      break;
    }
  }
  const [row] = await repo.insertActions(tx, [
    {
      reportId: null,
      moderatorId: moderator.id,
      moderatorName: moderator.username,
      targetType: action.targetType,
      targetId: action.targetId,
      targetUserId: action.targetUserId,
      action: 'restore',
      rule: null,
      explanation,
      revertsActionId: action.id,
    },
  ]);
  return row!;
}

/** GET /api/moderation/log: the audit log, newest first, MODERATION_LOG_PAGE_SIZE a page. */
export async function moderationLog(
  deps: ModerationActionsDeps,
  rawCursor: string | undefined,
): Promise<{ entries: ModerationAction[]; nextCursor: string | null }> {
  const after = rawCursor ? decodeCursor(rawCursor) : null;
  const rows = await repo.actionsPage(deps.db, after, MODERATION_LOG_PAGE_SIZE + 1);
  const page = rows.slice(0, MODERATION_LOG_PAGE_SIZE);
  const last = page.at(-1);
  return {
    entries: page.map(toEntry),
    nextCursor: rows.length > MODERATION_LOG_PAGE_SIZE && last ? encodeCursor(last) : null,
  };
}
