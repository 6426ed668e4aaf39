import {
  APPEAL_MESSAGES,
  APPEAL_WINDOW_DAYS,
  APPEALABLE_ACTIONS,
  isUuid,
  type Appeal,
  type ModeratorAppealsResponse,
  type OwnReportsResponse,
  type ReportReason,
  type ReportTargetType,
  type Statement,
  type StatementsResponse,
} from '@cats/contracts';
import type { Database } from '../../db/client.ts';
import { conflict, forbidden, notFound } from '../../lib/http-errors.ts';
import { mediaUrl, variantKey } from '../../media/urls.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import type { SuspendedAccountAppeals } from '../auth/auth.routes.ts';
import type { EventBus } from '../../events/events.ts';
import { findAction } from './moderation-actions.repository.ts';
import { undoAction } from './moderation-actions.service.ts';
import * as repo from './appeals.repository.ts';
import { DAY_MS } from '../../lib/durations.ts';

export interface AppealsDeps {
  db: Database;
  /** S3_PUBLIC_URL or undefined: where media URLs point. */
  publicBase: string | undefined;
  /** The appellant is told of the outcome through an event (notifications subscribes). */
  events: EventBus;
}

const APPEALABLE = new Set<string>(APPEALABLE_ACTIONS);
/** A statement's picture (shown up to 200 px wide): a variant sharp on a phone's 1.5x screen. */
const THUMBNAIL_WIDTH = 300;
/** How many open appeals the moderators' list shows at once, oldest first. */
const OPEN_APPEALS_SHOWN = 50;
const EXCERPT_LENGTH = 280;

const appealDeadline = (decision: repo.DecisionRow) =>
  new Date(decision.createdAt.getTime() + APPEAL_WINDOW_DAYS * DAY_MS);

/** What the decision was about, from the report's snapshot: a caption, a comment, a name. */
function excerptOf(snapshot: Record<string, unknown> | null): string | null {
  if (!snapshot) return null;
  for (const key of ['caption', 'body', 'name', 'username']) {
    const value = snapshot[key];
    if (typeof value === 'string' && value.trim() !== '') {
      return value.length <= EXCERPT_LENGTH ? value : `${value.slice(0, EXCERPT_LENGTH - 1).trimEnd()}…`;
    }
  }
  return null;
}

function thumbnailOf(decision: repo.DecisionRow, publicBase: string | undefined): string | null {
  if (decision.targetType !== 'post') return null;
  const snapshot = decision.snapshot;
  // The post's own files, never the report's private copy (reports/, issue 46): the author sees the
  // picture while the post is there. Once it is purged its files go, and the database says so (no
  // post row with that key): no URL then, rather than one that answers 404.
  const key = [snapshot?.mediaKey, snapshot?.sourceKey].find(
    (k): k is string => typeof k === 'string' && k.startsWith('posts/'),
  );
  return key && key === decision.postMediaKey ? mediaUrl(publicBase, variantKey(key, THUMBNAIL_WIDTH)) : null;
}

function toAppeal(row: repo.AppealRow): Appeal {
  return {
    _id: row.id,
    body: row.body,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    outcome: row.outcome,
  };
}

function toStatement(decision: repo.DecisionRow, publicBase: string | undefined, now: Date): Statement {
  const deadline = appealDeadline(decision);
  return {
    _id: decision.id,
    action: decision.action as Statement['action'],
    targetType: decision.targetType as ReportTargetType,
    targetId: decision.targetId,
    excerpt: excerptOf(decision.snapshot),
    thumbnailUrl: thumbnailOf(decision, publicBase),
    rule: decision.rule as ReportReason | null,
    explanation: decision.explanation,
    createdAt: decision.createdAt.toISOString(),
    suspendedUntil:
      decision.action === 'suspend' && decision.suspendDays !== null
        ? new Date(decision.createdAt.getTime() + decision.suspendDays * DAY_MS).toISOString()
        : null,
    reverted: decision.reverted,
    appeal: decision.appeal ? toAppeal(decision.appeal) : null,
    appealDeadline: deadline.toISOString(),
    canAppeal: !decision.appeal && !decision.reverted && now <= deadline,
  };
}

/**
 * GET /api/moderation/statements: the statements of reasons of every decision about the caller's
 * content or account (issue 27, "The author's side"): what, which rule, when, and how to appeal. They
 * name neither the moderator nor the reporters.
 */
export async function statements(
  deps: AppealsDeps,
  viewer: AuthContext,
  now = new Date(),
): Promise<StatementsResponse> {
  const rows = await repo.decisionsAbout(deps.db, viewer.userId);
  return { statements: rows.map((row) => toStatement(row, deps.publicBase, now)) };
}

/** GET /api/reports/mine: the caller's reports and what came of each (never who decided). */
export async function ownReports(deps: AppealsDeps, viewer: AuthContext): Promise<OwnReportsResponse> {
  const rows = await repo.reportsBy(deps.db, viewer.userId);
  return {
    reports: rows.map((row) => ({
      _id: row.id,
      targetType: row.targetType as ReportTargetType,
      reason: row.reason as ReportReason,
      note: row.note,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      status: row.resolvedAt ? 'resolved' : 'open',
      outcomes: row.outcomes as OwnReportsResponse['reports'][number]['outcomes'],
    })),
  };
}

/**
 * POST /api/appeals: once per decision, within APPEAL_WINDOW_DAYS days, by the person it affected.
 * Someone else's decision is answered as unknown: whether it exists is not theirs to learn.
 */
export async function appeal(
  deps: AppealsDeps,
  viewer: AuthContext,
  actionId: string,
  body: string,
  now = new Date(),
): Promise<Appeal> {
  return deps.db.transaction(async (tx) => {
    const decision = isUuid(actionId) ? await repo.findDecision(tx, actionId.toLowerCase()) : null;
    if (!decision || decision.targetUserId !== viewer.userId)
      throw notFound(APPEAL_MESSAGES.decisionNotFound);
    if (!APPEALABLE.has(decision.action)) throw conflict(APPEAL_MESSAGES.notAppealable);
    if (decision.appeal) throw conflict(APPEAL_MESSAGES.alreadyAppealed);
    if (decision.reverted) throw conflict(APPEAL_MESSAGES.undone);
    if (now > appealDeadline(decision)) throw conflict(APPEAL_MESSAGES.tooLate);
    const row = await repo.insertAppeal(tx, decision.id, viewer.userId, body);
    // Two appeals sent at the same moment: appeals_action_idx lets one through.
    if (!row) throw conflict(APPEAL_MESSAGES.alreadyAppealed);
    return toAppeal(row);
  });
}

/** The appeal routes of a suspended account, which auth serves with credentials instead of a session. */
export const suspendedAccountAppeals = (deps: AppealsDeps): SuspendedAccountAppeals => ({
  statements: (viewer) => statements(deps, viewer),
  appeal: (viewer, actionId, body) => appeal(deps, viewer, actionId, body),
});

/** GET /api/moderation/appeals: open appeals, oldest first, with the decision each is about. */
export async function openAppeals(deps: AppealsDeps, viewer: AuthContext): Promise<ModeratorAppealsResponse> {
  const rows = await repo.openAppeals(deps.db, OPEN_APPEALS_SHOWN);
  return {
    appeals: rows.map(({ appeal: a, appellantName, decision }) => ({
      _id: a.id,
      body: a.body,
      createdAt: a.createdAt.toISOString(),
      appellant: { _id: a.userId, username: appellantName },
      decision: {
        _id: decision.id,
        action: decision.action as Statement['action'],
        targetType: decision.targetType as ReportTargetType,
        targetId: decision.targetId,
        rule: decision.rule as ReportReason | null,
        explanation: decision.explanation,
        createdAt: decision.createdAt.toISOString(),
        moderator: { _id: decision.moderatorId, username: decision.moderatorName },
        excerpt: excerptOf(decision.snapshot),
        thumbnailUrl: thumbnailOf(decision, deps.publicBase),
      },
      decidedByYou: decision.moderatorId === viewer.userId,
    })),
  };
}

/**
 * POST /api/moderation/appeals/{appealId}/decision. 'overturned' undoes the decision (a 'restore' in
 * the audit log, with the explanation), 'upheld' leaves it; either way the appellant is told. A
 * moderator other than the one who decided answers where one exists; nobody answers their own appeal.
 */
export async function decideAppeal(
  deps: AppealsDeps,
  viewer: AuthContext,
  appealId: string,
  outcome: 'upheld' | 'overturned',
  explanation: string,
): Promise<Appeal> {
  return deps.db.transaction(async (tx) => {
    const appealRow = isUuid(appealId) ? await repo.lockAppeal(tx, appealId.toLowerCase()) : null;
    if (!appealRow) throw notFound(APPEAL_MESSAGES.appealNotFound);
    if (appealRow.decidedAt) throw conflict(APPEAL_MESSAGES.alreadyDecided);
    if (appealRow.userId === viewer.userId) throw forbidden(APPEAL_MESSAGES.ownAppeal);
    const action = await findAction(tx, appealRow.actionId);
    if (!action) throw notFound(APPEAL_MESSAGES.decisionNotFound);
    if (
      action.moderatorId === viewer.userId &&
      (await repo.anotherModeratorExists(tx, viewer.userId, appealRow.userId))
    ) {
      throw forbidden(APPEAL_MESSAGES.sameModerator);
    }
    if (outcome === 'overturned' && !action.reverted)
      await undoAction(tx, viewer.userId, action, explanation);
    const decided = await repo.decideAppeal(tx, appealRow.id, viewer.userId, outcome);
    await deps.events.emit('moderation.outcome', {
      tx,
      recipientId: appealRow.userId,
      type: 'appeal_decided',
      actionId: action.id,
    });
    return toAppeal(decided);
  });
}
