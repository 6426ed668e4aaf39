import {
  isUuid,
  MODERATION_MESSAGES,
  REPORTS_PER_HOUR,
  type ReportReason,
  type ReportReceipt,
  type ReportTargetType,
} from '@cats/contracts';
import { randomBytes } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/client.ts';
import { forbidden, notFound, RateLimitError } from '../../lib/http-errors.ts';
import { isPrefixedMediaKey, type MediaStorage } from '../../media/storage.ts';
import { variantKey } from '../../media/urls.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import * as social from '../social/social.repository.ts';
import * as repo from './reports.repository.ts';

export interface ReportsDeps {
  db: Database;
  storage: MediaStorage;
  log?: FastifyBaseLogger | undefined;
}

/** The file a moderator sees of a report's picture: the post's 800 px variant, a profile's 300 px one. */
const REPORT_PICTURE_FILE = 'picture.webp';
export const reportPictureKey = (prefix: string): string => `${prefix}/${REPORT_PICTURE_FILE}`;

/** The variant a report shows of a public picture: a post's 800 px one, a profile's 300 px one. */
const reportedVariantKey = (prefix: string): string =>
  variantKey(prefix, prefix.startsWith('avatars/') ? 300 : 800);

/** The public picture a fresh snapshot names (a post's, a profile's), if any. */
function publicPictureOf(
  snapshot: Record<string, unknown>,
): { field: 'mediaKey' | 'profilePicKey'; prefix: string } | null {
  for (const field of ['mediaKey', 'profilePicKey'] as const) {
    const prefix = snapshot[field];
    if (typeof prefix === 'string' && /^(posts|avatars)\//.test(prefix)) return { field, prefix };
  }
  return null;
}

/**
 * Issue 46: the report keeps a private copy of the picture, under a random reports/ prefix only the
 * moderators' route reads, and its snapshot names that copy instead of the post's or profile's own
 * files. Nothing then holds those files once the post is purged or the picture changed: they go, and
 * the public /media URL answers 404 like any unknown key. Done after the report's transaction, so no
 * lock is held during storage I/O; a copy that fails leaves the snapshot naming the public files
 * (moderators still see them, and they are kept as before).
 */
async function keepPrivateCopy(
  deps: ReportsDeps,
  reportId: string,
  snapshot: Record<string, unknown>,
): Promise<void> {
  const source = publicPictureOf(snapshot);
  if (!source) return;
  let copyPrefix: string | null = null;
  try {
    const object = await deps.storage.get(reportedVariantKey(source.prefix));
    if (!object) return;
    copyPrefix = `reports/${randomBytes(32).toString('hex')}`;
    await deps.storage.put(reportPictureKey(copyPrefix), await buffer(object.body), 'image/webp');
    if (!(await repo.keepReportPicture(deps.db, reportId, source, copyPrefix))) {
      await deps.storage.deletePrefix(copyPrefix);
    }
  } catch (err) {
    deps.log?.warn({ err, reportId }, 'report: the private copy of the picture was not made');
    // Unreferenced: the orphan sweep removes it if this fails too.
    if (copyPrefix) await deps.storage.deletePrefix(copyPrefix).catch(() => {});
  }
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
  const { outcome, snapshot } = await deps.db.transaction(async (tx) => {
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
    const outcome: ReportOutcome = {
      created: !saved.updated,
      receipt: {
        reportId: saved.id,
        updated: saved.updated,
        blocked,
        message: saved.updated ? MODERATION_MESSAGES.reportUpdated : MODERATION_MESSAGES.reported,
      },
    };
    return { outcome, snapshot: target.snapshot };
  });
  await keepPrivateCopy(deps, outcome.receipt.reportId, snapshot);
  return outcome;
}

/**
 * Reports made before issue 46 named the post's or profile's own files, which then stayed public after
 * a purge. Run at start-up, before the orphan sweep: each gets its private copy like a new report, and
 * the sweep then removes the files only such a report held. Idempotent, and safe on several instances
 * at once (keepPrivateCopy's update wins once). Returns how many were looked at.
 */
export async function privatiseOldReportPictures(deps: ReportsDeps): Promise<number> {
  let after = '00000000-0000-0000-0000-000000000000';
  let seen = 0;
  for (;;) {
    const page = await repo.reportsNamingPublicPictures(deps.db, after, 100);
    for (const { id, snapshot } of page) await keepPrivateCopy(deps, id, snapshot);
    seen += page.length;
    if (page.length < 100) break;
    after = page.at(-1)!.id;
  }
  if (seen > 0) deps.log?.info({ seen }, 'reports: older reports now keep private copies of their pictures');
  return seen;
}

/**
 * The picture of a report as it was reported, for moderators (issue 46): its private copy, or for a
 * report made before copies were kept, the public variant it names. null when there is none.
 */
export async function reportPicture(
  deps: Pick<ReportsDeps, 'db' | 'storage'>,
  reportId: string,
): Promise<Awaited<ReturnType<MediaStorage['get']>>> {
  if (!isUuid(reportId)) return null;
  const prefix = await repo.findReportPictureKey(deps.db, reportId.toLowerCase());
  if (!prefix) return null;
  const key = prefix.startsWith('reports/') ? reportPictureKey(prefix) : reportedVariantKey(prefix);
  // Written by this server, but checked anyway: anything else would reach no file system or bucket.
  return isPrefixedMediaKey(key) ? deps.storage.get(key) : null;
}
