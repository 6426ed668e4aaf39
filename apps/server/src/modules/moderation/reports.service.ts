import {
  MODERATION_MESSAGES,
  REPORTS_PER_HOUR,
  type ReportReason,
  type ReportReceipt,
  type ReportTargetType,
} from '@cats/contracts';
import type { Database, Executor } from '../../db/client.ts';
import { forbidden, notFound, RateLimitError } from '../../lib/http-errors.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import * as social from '../social/social.repository.ts';
import * as repo from './reports.repository.ts';

export interface ReportsDeps {
  db: Database;
}

/** The body as createReportSchema leaves it: note trimmed, blockAuthor defaulted. */
export interface ReportInput {
  targetType: ReportTargetType;
  targetId: string;
  reason: ReportReason;
  note: string;
  blockAuthor: boolean;
}

export interface ReportOutcome {
  receipt: ReportReceipt;
  /** True for a first report (201), false when an earlier one was updated (200). */
  created: boolean;
}

/** The target as the reporter may see it; anything else is not there for them (a block leaves no trace). */
function findTarget(tx: Executor, input: ReportInput, reporterId: string): Promise<repo.ReportTarget | null> {
  switch (input.targetType) {
    case 'post':
      return repo.findReportablePost(tx, input.targetId, reporterId);
    case 'comment':
      return repo.findReportableComment(tx, input.targetId, reporterId);
    case 'user':
      return repo.findReportableUser(tx, input.targetId, reporterId);
    case 'cat':
      return repo.findReportableCat(tx, input.targetId);
  }
}

/**
 * Issue 27, "Reporting". In one transaction: the hourly limit, the target as the reporter sees it, the
 * report (a second report of the same thing updates the first and opens it again), the reporter's own
 * view (a reported post is hidden for them; a reported comment drops out of their lists through
 * commentsReportedBy), the block when asked, and the auto-hide once enough trusted accounts reported
 * the same post or comment. A refusal changes nothing.
 */
export async function report(
  deps: ReportsDeps,
  reporter: AuthContext,
  input: ReportInput,
): Promise<ReportOutcome> {
  const targetId = input.targetId.toLowerCase();
  const reporterId = reporter.userId;
  return deps.db.transaction(async (tx) => {
    await repo.lockReporter(tx, reporterId);
    // Counted in the database, so the limit holds across instances; updates count as sends.
    const recent = await repo.reportsInLastHour(tx, reporterId);
    if (recent.count >= REPORTS_PER_HOUR) {
      // Named for the metrics' refusal counter (modules/metrics).
      throw new RateLimitError('reports', MODERATION_MESSAGES.tooManyReports, {
        'retry-after': String(Math.max(1, recent.secondsToWait)),
      });
    }
    const target = await findTarget(tx, { ...input, targetId }, reporterId);
    if (!target) throw notFound(MODERATION_MESSAGES.targetNotFound);
    const ownTarget =
      input.targetType === 'user' ? targetId === reporterId : target.targetUserId === reporterId;
    if (ownTarget) throw forbidden(MODERATION_MESSAGES.reportOwn);

    const saved = await repo.upsertReport(tx, {
      reporterId,
      targetType: input.targetType,
      targetId,
      targetUserId: target.targetUserId,
      reason: input.reason,
      note: input.note,
      snapshot: target.snapshot,
    });
    if (input.targetType === 'post') await social.hidePost(tx, reporterId, targetId);
    const blocked = input.blockAuthor && target.targetUserId !== null;
    if (blocked && target.targetUserId) await social.blockUser(tx, reporterId, target.targetUserId);
    if (input.targetType === 'post' || input.targetType === 'comment') {
      await repo.autoHideIfTrustedReports(tx, input.targetType, targetId);
    }
    return {
      created: !saved.updated,
      receipt: {
        reportId: saved.id,
        updated: saved.updated,
        blocked,
        message: saved.updated ? MODERATION_MESSAGES.reportUpdated : MODERATION_MESSAGES.reported,
      },
    };
  });
}
