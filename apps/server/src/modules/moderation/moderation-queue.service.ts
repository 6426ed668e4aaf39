import {
  isUuid,
  MODERATION_QUEUE_MESSAGES,
  MODERATION_QUEUE_PAGE_SIZE,
  type CreateModerationNoteBody,
  type ModerationNote,
  type ModerationQueueResponse,
  type ModerationStats,
  type QueueGroup,
  type ReportSnapshotView,
} from '@cats/contracts';
import type { Database } from '../../db/client.ts';
import { badRequest, notFound } from '../../lib/http-errors.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import * as repo from './moderation-queue.repository.ts';

export interface ModerationQueueDeps {
  db: Database;
  /** S3_PUBLIC_URL or undefined: where media URLs point. */
  publicBase: string | undefined;
}

const CURSOR_PATTERN =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|(post|comment|user|cat)\|([0-9a-f-]{36})$/;

export function encodeQueueCursor(position: repo.QueuePosition): string {
  return Buffer.from(`${position.oldest}|${position.targetType}|${position.targetId}`, 'utf8').toString(
    'base64url',
  );
}

/** The cursor's position; 400 for anything this server did not produce. */
export function decodeQueueCursor(cursor: string): repo.QueuePosition {
  const match = CURSOR_PATTERN.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || !isUuid(match[3]!)) throw badRequest(MODERATION_QUEUE_MESSAGES.invalidCursor);
  return { oldest: match[1]!, targetType: match[2]!, targetId: match[3]! };
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The report's snapshot as moderators see it. The snapshot is written by the reports module when the
 * report is made (reports.service.ts); its keys are read defensively, so a snapshot of an older shape
 * still shows what it has: mediaKey (a post's or a cat's picture, a profile's avatars/ key), caption,
 * catName, altText, body or text (a comment), username, name, description or bio.
 */
export function snapshotView(snapshot: unknown, reportId: string): ReportSnapshotView {
  const s = (snapshot && typeof snapshot === 'object' ? snapshot : {}) as Record<string, unknown>;
  const key = text(s.mediaKey) ?? text(s.profilePicKey) ?? text(s.coverMediaKey);
  return {
    // Through the moderators' route only (issue 46), never a public /media URL: once the post is
    // purged, nobody else may reach its picture.
    pictureUrl: key ? `/api/moderation/reports/${reportId}/picture` : null,
    caption: text(s.caption),
    catName: text(s.catName),
    altText: text(s.altText),
    text: text(s.body) ?? text(s.text),
    username: text(s.username) ?? text(s.authorUsername),
    name: text(s.name),
    description: text(s.description) ?? text(s.bio),
  };
}

/** One page of the queue: reported targets, the one waiting longest first, with all a moderator needs. */
export async function listQueue(
  deps: ModerationQueueDeps,
  cursor?: string,
): Promise<ModerationQueueResponse> {
  const after = cursor ? decodeQueueCursor(cursor) : null;
  const targets = await repo.openTargets(deps.db, after, MODERATION_QUEUE_PAGE_SIZE + 1);
  const page = targets.slice(0, MODERATION_QUEUE_PAGE_SIZE);
  const nextCursor = targets.length > MODERATION_QUEUE_PAGE_SIZE ? encodeQueueCursor(page.at(-1)!) : null;
  const ids = page.map((t) => t.targetId);
  const [reports, notes] = await Promise.all([repo.openReportsOf(deps.db, ids), repo.notesOf(deps.db, ids)]);
  const authorIds = [
    ...new Set(reports.map((r) => r.targetUserId).filter((id): id is string => id !== null)),
  ];
  const strikes = await repo.strikesOf(deps.db, authorIds);

  const groups: QueueGroup[] = [];
  for (const target of page) {
    const same = (row: { targetType: string; targetId: string }) =>
      row.targetType === target.targetType && row.targetId === target.targetId;
    const open = reports.filter(same);
    const first = open[0];
    // Resolved between the two reads: it left the queue.
    if (!first) continue;
    const authorRow = open.find((r) => r.targetUserId !== null);
    const authorStrikes = authorRow ? strikes.filter((s) => s.targetUserId === authorRow.targetUserId) : [];
    groups.push({
      reportId: first.id,
      targetType: target.targetType as QueueGroup['targetType'],
      targetId: target.targetId,
      author:
        authorRow?.targetUserId && authorRow.targetUsername
          ? { _id: authorRow.targetUserId, username: authorRow.targetUsername }
          : null,
      snapshot: snapshotView(first.snapshot, first.id),
      reports: open.map((r) => ({
        _id: r.id,
        reporter: { _id: r.reporterId, username: r.reporterUsername },
        reason: r.reason as QueueGroup['reports'][number]['reason'],
        note: r.note,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
      })),
      oldestReportAt: first.createdAt,
      strikeCount: authorStrikes.length,
      strikes: authorStrikes.map((s) => ({
        _id: s.id,
        action: s.action as QueueGroup['strikes'][number]['action'],
        rule: s.rule as QueueGroup['strikes'][number]['rule'],
        targetType: s.targetType as QueueGroup['strikes'][number]['targetType'],
        explanation: s.explanation,
        createdAt: s.createdAt,
      })),
      notes: notes.filter(same).map(toModerationNote),
    });
  }
  return { groups, nextCursor };
}

const toModerationNote = (n: repo.NoteRow): ModerationNote => ({
  _id: n.id,
  author: n.authorId && n.authorUsername ? { _id: n.authorId, username: n.authorUsername } : null,
  body: n.body,
  createdAt: n.createdAt,
});

export const queueStats = (deps: ModerationQueueDeps): Promise<ModerationStats> => repo.queueStats(deps.db);

/** A note between moderators about something that was reported; 404 for anything never reported. */
export async function addNote(
  deps: ModerationQueueDeps,
  moderator: AuthContext,
  body: { targetType: CreateModerationNoteBody['targetType']; targetId: string; body: string },
): Promise<ModerationNote> {
  const targetId = body.targetId.toLowerCase();
  if (!(await repo.targetWasReported(deps.db, body.targetType, targetId))) {
    throw notFound(MODERATION_QUEUE_MESSAGES.notReported);
  }
  const row = await repo.insertNote(deps.db, {
    targetType: body.targetType,
    targetId,
    authorId: moderator.userId,
    body: body.body,
  });
  return toModerationNote(row);
}
