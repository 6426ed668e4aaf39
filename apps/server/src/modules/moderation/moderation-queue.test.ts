import { randomUUID } from 'node:crypto';
import {
  DEMO_USER_ID,
  MODERATION_MESSAGES,
  MODERATION_NOTE_MAX,
  MODERATION_QUEUE_MESSAGES,
  MODERATION_QUEUE_PAGE_SIZE,
  type ModerationQueueResponse,
  type ModerationStats,
  type QueueGroup,
} from '@cats/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comments, moderationActions, posts, reports } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';

const HOUR = 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms);

describe('moderation queue', () => {
  let t: TestApp;
  let moderator: CreatedUser;
  let admin: CreatedUser;
  let member: CreatedUser;
  let author: CreatedUser;
  let reporterA: CreatedUser;
  let reporterB: CreatedUser;

  beforeAll(async () => {
    t = await buildTestApp();
    moderator = await createUser(t.db, { role: 'moderator' });
    admin = await createUser(t.db, { role: 'admin' });
    member = await createUser(t.db);
    author = await createUser(t.db);
    reporterA = await createUser(t.db);
    reporterB = await createUser(t.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  const as = async (userId: string | null, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: userId ? await authHeader(t.app, userId) : {},
      ...(payload ? { payload } : {}),
    });

  /** A report as the reports module stores it (snapshot taken when reported). */
  async function report(
    values: Partial<typeof reports.$inferInsert> & { reporterId: string; targetId: string },
  ) {
    const [row] = await t.db
      .insert(reports)
      .values({ targetType: 'post', reason: 'spam', snapshot: {}, ...values })
      .returning();
    return row!;
  }

  async function clearQueue() {
    await t.db
      .update(reports)
      .set({ resolvedAt: new Date() })
      .where(sql`${reports.resolvedAt} is null`);
  }

  const queue = async (userId = moderator.id, cursor?: string) => {
    const res = await as(userId, 'GET', `/api/moderation/reports${cursor ? `?cursor=${cursor}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ModerationQueueResponse;
  };

  describe('who may see it', () => {
    const routes: ['GET' | 'POST', string, object?][] = [
      ['GET', '/api/moderation/reports'],
      ['GET', '/api/moderation/stats'],
      ['POST', '/api/moderation/notes', { targetType: 'post', targetId: randomUUID(), body: 'x' }],
    ];
    it.each(routes)('%s %s: anonymous 401, members and the demo account 403', async (method, url, body) => {
      expect((await as(null, method, url, body)).statusCode).toBe(401);
      for (const who of [member.id, DEMO_USER_ID]) {
        const res = await as(who, method, url, body);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ message: MODERATION_MESSAGES.notModerator });
      }
    });

    it('moderators and admins read the queue and its health', async () => {
      for (const who of [moderator.id, admin.id]) {
        expect((await as(who, 'GET', '/api/moderation/reports')).statusCode).toBe(200);
        expect((await as(who, 'GET', '/api/moderation/stats')).statusCode).toBe(200);
      }
    });

    it('a moderator made a member again loses the queue at the next request', async () => {
      const former = await createUser(t.db, { role: 'moderator' });
      expect((await as(former.id, 'GET', '/api/moderation/reports')).statusCode).toBe(200);
      await t.db.execute(sql`update users set role = 'member' where id = ${former.id}`);
      expect((await as(former.id, 'GET', '/api/moderation/reports')).statusCode).toBe(403);
    });
  });

  describe('GET /api/moderation/reports', () => {
    it('groups open reports by target, oldest first, with the snapshot, reporters and their notes', async () => {
      await clearQueue();
      const post = await createPost(t.db, author.id, { caption: 'Original caption', catName: 'Tom' });
      const comment = (
        await t.db
          .insert(comments)
          .values({ postId: post.id, userId: author.id, body: 'Rude words' })
          .returning()
      )[0]!;
      const older = await report({
        reporterId: reporterA.id,
        targetId: post.id,
        targetUserId: author.id,
        reason: 'harassment',
        note: 'This is about my neighbour',
        snapshot: {
          caption: 'Original caption',
          catName: 'Tom',
          mediaKey: post.mediaKey,
          username: author.username,
        },
        createdAt: ago(3 * HOUR),
      });
      await report({
        reporterId: reporterB.id,
        targetId: post.id,
        targetUserId: author.id,
        reason: 'private_information',
        snapshot: { caption: 'Edited already', mediaKey: post.mediaKey },
        createdAt: ago(1 * HOUR),
      });
      const commentReport = await report({
        reporterId: reporterA.id,
        targetType: 'comment',
        targetId: comment.id,
        targetUserId: author.id,
        reason: 'spam',
        snapshot: { body: 'Rude words', username: author.username },
        createdAt: ago(2 * HOUR),
      });
      // Resolved reports are not in the queue.
      await report({
        reporterId: member.id,
        targetId: (await createPost(t.db, author.id)).id,
        resolvedAt: new Date(),
        createdAt: ago(10 * HOUR),
      });
      // The author edits, then deletes the post: the queue still shows what was reported.
      await t.db.update(posts).set({ caption: 'Nothing to see' }).where(eq(posts.id, post.id));
      await t.db.delete(posts).where(eq(posts.id, post.id));

      const { groups, nextCursor } = await queue();
      expect(nextCursor).toBeNull();
      expect(groups.map((g) => [g.targetType, g.targetId])).toEqual([
        ['post', post.id],
        ['comment', comment.id],
      ]);
      const [postGroup, commentGroup] = groups as [QueueGroup, QueueGroup];
      expect(postGroup.reportId).toBe(older.id);
      expect(postGroup.author).toEqual({ _id: author.id, username: author.username });
      expect(postGroup.snapshot).toMatchObject({
        caption: 'Original caption',
        catName: 'Tom',
        // The moderators' route (issue 46), never the post's public URL.
        pictureUrl: `/api/moderation/reports/${older.id}/picture`,
        text: null,
      });
      expect(postGroup.reports.map((r) => [r.reporter.username, r.reason, r.note])).toEqual([
        [reporterA.username, 'harassment', 'This is about my neighbour'],
        [reporterB.username, 'private_information', ''],
      ]);
      expect(new Date(postGroup.oldestReportAt).getTime()).toBeCloseTo(older.createdAt.getTime(), -2);
      expect(commentGroup.reportId).toBe(commentReport.id);
      expect(commentGroup.snapshot).toMatchObject({
        text: 'Rude words',
        pictureUrl: null,
        username: author.username,
      });
    });

    it("lists the author's strikes: actions against them not undone by a later restore", async () => {
      await clearQueue();
      const target = await createUser(t.db);
      const post = await createPost(t.db, target.id);
      const action = (values: Partial<typeof moderationActions.$inferInsert>) =>
        t.db
          .insert(moderationActions)
          .values({
            moderatorId: moderator.id,
            moderatorName: moderator.username,
            targetType: 'post',
            targetId: post.id,
            targetUserId: target.id,
            action: 'warn',
            rule: 'spam',
            ...values,
          })
          .returning()
          .then((rows) => rows[0]!);
      const warned = await action({ action: 'warn', explanation: 'Please stop', createdAt: ago(5 * HOUR) });
      const removed = await action({ action: 'remove', rule: 'harassment', createdAt: ago(4 * HOUR) });
      await action({ action: 'restore', rule: null, revertsActionId: removed.id, createdAt: ago(3 * HOUR) });
      await action({ action: 'dismiss', rule: null, targetUserId: null });
      await action({ action: 'suspend', suspendDays: 7, targetUserId: author.id }); // someone else's
      await report({ reporterId: reporterA.id, targetId: post.id, targetUserId: target.id });

      const [group] = (await queue()).groups;
      expect(group!.strikeCount).toBe(1);
      expect(group!.strikes).toEqual([
        {
          _id: warned.id,
          action: 'warn',
          rule: 'spam',
          targetType: 'post',
          explanation: 'Please stop',
          createdAt: expect.any(String),
        },
      ]);
    });

    it('pages by cursor without losing or repeating a group, and refuses a forged cursor', async () => {
      await clearQueue();
      const ids: string[] = [];
      for (let i = 0; i < MODERATION_QUEUE_PAGE_SIZE + 3; i += 1) {
        const post = await createPost(t.db, author.id);
        ids.push(post.id);
        await report({
          reporterId: reporterA.id,
          targetId: post.id,
          targetUserId: author.id,
          createdAt: ago((100 - i) * HOUR),
        });
      }
      const first = await queue();
      expect(first.groups).toHaveLength(MODERATION_QUEUE_PAGE_SIZE);
      expect(first.nextCursor).not.toBeNull();
      const second = await queue(moderator.id, first.nextCursor!);
      expect(second.nextCursor).toBeNull();
      expect([...first.groups, ...second.groups].map((g) => g.targetId)).toEqual(ids);

      const forged = await as(moderator.id, 'GET', '/api/moderation/reports?cursor=not-a-cursor');
      expect(forged.statusCode).toBe(400);
      expect(forged.json()).toEqual({ message: MODERATION_QUEUE_MESSAGES.invalidCursor });
    });
  });

  describe('POST /api/moderation/notes', () => {
    it('adds a note that the queue lists with its author and time', async () => {
      await clearQueue();
      const post = await createPost(t.db, author.id);
      await report({ reporterId: reporterA.id, targetId: post.id, targetUserId: author.id });
      const res = await as(moderator.id, 'POST', '/api/moderation/notes', {
        targetType: 'post',
        targetId: post.id,
        body: '  Seen this one before.  ',
      });
      expect(res.statusCode, res.body).toBe(201);
      const { note } = res.json() as { note: QueueGroup['notes'][number] };
      expect(note).toMatchObject({
        body: 'Seen this one before.',
        author: { _id: moderator.id, username: moderator.username },
      });
      const byAdmin = await as(admin.id, 'POST', '/api/moderation/notes', {
        targetType: 'post',
        targetId: post.id,
        body: 'Agreed.',
      });
      expect(byAdmin.statusCode).toBe(201);
      const [group] = (await queue()).groups;
      expect(group!.notes.map((n) => [n.author?.username, n.body])).toEqual([
        [moderator.username, 'Seen this one before.'],
        [admin.username, 'Agreed.'],
      ]);
    });

    it('refuses an empty or long note, and one about something never reported', async () => {
      const post = await createPost(t.db, author.id);
      await report({ reporterId: reporterB.id, targetId: post.id, targetUserId: author.id });
      const send = (body: object) => as(moderator.id, 'POST', '/api/moderation/notes', body);
      const empty = await send({ targetType: 'post', targetId: post.id, body: '   ' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toEqual({ message: MODERATION_QUEUE_MESSAGES.noteEmpty });
      const long = await send({
        targetType: 'post',
        targetId: post.id,
        body: 'x'.repeat(MODERATION_NOTE_MAX + 1),
      });
      expect(long.statusCode).toBe(400);
      expect(long.json()).toEqual({ message: MODERATION_QUEUE_MESSAGES.noteTooLong });
      const wrongType = await send({ targetType: 'group', targetId: post.id, body: 'x' });
      expect(wrongType.statusCode).toBe(400);
      expect(wrongType.json()).toEqual({ message: MODERATION_QUEUE_MESSAGES.targetTypeInvalid });
      const never = await send({ targetType: 'post', targetId: randomUUID(), body: 'x' });
      expect(never.statusCode).toBe(404);
      expect(never.json()).toEqual({ message: MODERATION_QUEUE_MESSAGES.notReported });
    });
  });

  describe('GET /api/moderation/stats', () => {
    const stats = async () => {
      const res = await as(admin.id, 'GET', '/api/moderation/stats');
      expect(res.statusCode).toBe(200);
      return res.json() as ModerationStats;
    };

    it('counts open reports, ages the oldest and takes the median time to a first action', async () => {
      await clearQueue();
      const empty = await stats();
      expect(empty.openReports).toBe(0);
      expect(empty.oldestOpenReportAt).toBeNull();
      expect(empty.oldestOpenReportAgeSeconds).toBeNull();

      const post = await createPost(t.db, author.id);
      await report({ reporterId: reporterA.id, targetId: post.id, createdAt: ago(21 * HOUR) });
      await report({ reporterId: reporterB.id, targetId: post.id, createdAt: ago(2 * HOUR) });
      // Acted on within 1 h, 2 h and 6 h (median 2 h); one from 40 days ago (10 h) is too old to count,
      // and a second action on the same report does not count again.
      const acted = async (madeAgo: number, tookMs: number) => {
        const made = ago(madeAgo);
        const r = await report({
          reporterId: (await createUser(t.db)).id,
          targetId: post.id,
          createdAt: made,
          resolvedAt: new Date(made.getTime() + tookMs),
        });
        for (const extra of [0, HOUR]) {
          await t.db.insert(moderationActions).values({
            reportId: r.id,
            moderatorId: moderator.id,
            moderatorName: moderator.username,
            targetType: 'post',
            targetId: post.id,
            action: 'dismiss',
            createdAt: new Date(made.getTime() + tookMs + extra),
          });
        }
      };
      await acted(24 * HOUR, 1 * HOUR);
      await acted(24 * HOUR, 2 * HOUR);
      await acted(24 * HOUR, 6 * HOUR);
      await acted(40 * 24 * HOUR, 10 * HOUR);

      const s = await stats();
      expect(s.openReports).toBe(2);
      expect(s.oldestOpenReportAgeSeconds).toBeGreaterThanOrEqual(21 * 3600);
      expect(s.oldestOpenReportAgeSeconds).toBeLessThan(21 * 3600 + 60);
      expect(Date.now() - new Date(s.oldestOpenReportAt!).getTime()).toBeGreaterThanOrEqual(21 * HOUR);
      expect(s.medianSecondsToFirstAction).toBe(2 * 3600);
    });
  });
});
