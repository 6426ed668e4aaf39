import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APPEAL_MAX,
  APPEAL_MESSAGES,
  APPEAL_WINDOW_DAYS,
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  type ModerationAction,
  type ModeratorAppealsResponse,
  type NotificationsResponse,
  type OwnReportsResponse,
  type StatementsResponse,
} from '@cats/contracts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import {
  authHeader,
  createPost,
  createUser,
  DEFAULT_PASSWORD,
  type CreatedUser,
} from '../../../test/factories.ts';
import { NO_RATE_LIMITS } from '../../../test/hostile/support/world.ts';
import { moderationActions, posts, users } from '../../db/schema/index.ts';
import { sweepTrash } from '../posts/trash.service.ts';

/**
 * Issue 27, "The author's side": statements of reasons, what reporters learn, appeals once within
 * APPEAL_WINDOW_DAYS, and their decision by another moderator where one exists.
 */
describe('statements of reasons and appeals', () => {
  let t: TestApp;
  let moderator: CreatedUser;
  let second: CreatedUser;
  const DAY_MS = 24 * 60 * 60 * 1000;

  beforeAll(async () => {
    t = await buildTestApp(NO_RATE_LIMITS);
    moderator = await staff('moderator', 'first_mod');
    second = await staff('moderator', 'second_mod');
  });
  afterAll(async () => {
    await t?.close();
  });

  async function staff(role: 'moderator' | 'admin' | 'member', username?: string): Promise<CreatedUser> {
    const user = await createUser(t.db, username ? { username } : {});
    await t.db.update(users).set({ role }).where(eq(users.id, user.id));
    return user;
  }
  const call = async (userId: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: await authHeader(t.app, userId), ...(payload ? { payload } : {}) });

  /** A post by a new author, reported by `reporters` new accounts through the API; the first report's id. */
  async function reportedPost(reporterCount = 1) {
    const author = await createUser(t.db);
    const post = await createPost(t.db, author.id, { caption: 'Free kittens, call now' });
    const reporters: CreatedUser[] = [];
    for (let i = 0; i < reporterCount; i += 1) {
      const reporter = await createUser(t.db);
      const res = await call(reporter.id, 'POST', '/api/reports', {
        targetType: 'post',
        targetId: post.id,
        reason: 'spam',
      });
      expect(res.statusCode, res.body).toBe(201);
      reporters.push(reporter);
    }
    const queue = (await call(moderator.id, 'GET', '/api/moderation/reports')).json() as {
      groups: { reportId: string; targetId: string }[];
    };
    const reportId = queue.groups.find((g) => g.targetId === post.id)!.reportId;
    return { author, post, reporters, reportId };
  }

  async function removeAs(modId: string, reportId: string): Promise<ModerationAction> {
    const res = await call(modId, 'POST', `/api/moderation/reports/${reportId}/actions`, {
      actions: [{ action: 'remove', rule: 'spam', explanation: 'Selling animals is not allowed here.' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { actions: ModerationAction[] }).actions[0]!;
  }

  const notificationsOf = async (userId: string) =>
    ((await call(userId, 'GET', '/api/notifications')).json() as NotificationsResponse).notifications;
  const statementsOf = async (userId: string) =>
    ((await call(userId, 'GET', '/api/moderation/statements')).json() as StatementsResponse).statements;
  const moderationOf = async (postId: string) =>
    (await t.db.select({ m: posts.moderation }).from(posts).where(eq(posts.id, postId)))[0]!.m;

  it('tells the author why, and each reporter once what came of it, naming no moderator', async () => {
    const { author, post, reporters, reportId } = await reportedPost(2);
    const removal = await removeAs(moderator.id, reportId);

    const [decision] = await notificationsOf(author.id);
    expect(decision).toMatchObject({
      type: 'moderation_decision',
      actors: [],
      read: false,
      link: `/settings/moderation#decision-${removal._id}`,
      moderation: { actionId: removal._id, action: 'remove', targetType: 'post', appealOutcome: null },
    });
    for (const reporter of reporters) {
      const entries = await notificationsOf(reporter.id);
      expect(entries.filter((n) => n.type === 'report_outcome')).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        type: 'report_outcome',
        link: '/settings/moderation#reports',
        moderation: { action: 'remove', targetType: 'post' },
      });
      expect(JSON.stringify(entries)).not.toContain(moderator.username);
      const mine = (await call(reporter.id, 'GET', '/api/reports/mine')).json() as OwnReportsResponse;
      expect(mine.reports).toEqual([
        expect.objectContaining({
          targetType: 'post',
          reason: 'spam',
          status: 'resolved',
          outcomes: ['remove'],
        }),
      ]);
    }

    const [statement] = await statementsOf(author.id);
    expect(statement).toMatchObject({
      _id: removal._id,
      action: 'remove',
      targetType: 'post',
      targetId: post.id,
      excerpt: 'Free kittens, call now',
      rule: 'spam',
      explanation: 'Selling animals is not allowed here.',
      reverted: false,
      appeal: null,
      canAppeal: true,
    });
    expect(statement!.thumbnailUrl).toContain(post.mediaKey);
    expect(new Date(statement!.appealDeadline).getTime() - new Date(statement!.createdAt).getTime()).toBe(
      APPEAL_WINDOW_DAYS * DAY_MS,
    );
    const body = JSON.stringify(
      await call(author.id, 'GET', '/api/moderation/statements').then((r) => r.json()),
    );
    expect(body).not.toContain(moderator.username);
    for (const r of reporters) expect(body).not.toContain(r.username);
    // Someone else has no statements.
    expect(await statementsOf(reporters[0]!.id)).toEqual([]);
  });

  it('names no picture once the post is purged: its public files are gone (issue 46)', async () => {
    const { author, post, reportId } = await reportedPost();
    const removal = await removeAs(moderator.id, reportId);
    const appealed = await call(author.id, 'POST', '/api/appeals', {
      actionId: removal._id,
      body: 'It was a joke about my own cat.',
    });
    expect(appealed.statusCode, appealed.body).toBe(201);
    const moderatorsThumbnail = async () =>
      (
        (await call(second.id, 'GET', '/api/moderation/appeals')).json() as ModeratorAppealsResponse
      ).appeals.find((a) => a.decision._id === removal._id)!.decision.thumbnailUrl;
    const authorsThumbnail = async () =>
      (await statementsOf(author.id)).find((s) => s._id === removal._id)!.thumbnailUrl;

    // Deleted by its author, the post waits in the trash with its files: the picture still shows.
    const deleted = await call(author.id, 'DELETE', `/api/posts/${post.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await authorsThumbnail()).toContain(post.mediaKey);
    expect(await moderatorsThumbnail()).toContain(post.mediaKey);

    // 30 days later the sweep purges it, and its files with it.
    await t.db
      .update(posts)
      .set({ deletedAt: new Date(Date.now() - 31 * DAY_MS) })
      .where(eq(posts.id, post.id));
    expect(await sweepTrash({ db: t.db, storage: t.storage })).toBe(1);
    const [statement] = (await statementsOf(author.id)).filter((s) => s._id === removal._id);
    expect(statement).toMatchObject({ excerpt: 'Free kittens, call now', thumbnailUrl: null });
    expect(await moderatorsThumbnail()).toBeNull();
  });

  it('takes one appeal per decision, from the person affected, and refuses bad ones with a message', async () => {
    const { author, reportId, reporters } = await reportedPost();
    const removal = await removeAs(moderator.id, reportId);
    const appeal = (userId: string, payload: unknown) => call(userId, 'POST', '/api/appeals', payload);

    for (const [payload, message] of [
      [{ actionId: removal._id, body: '   ' }, APPEAL_MESSAGES.bodyRequired],
      [{ actionId: removal._id, body: 'x'.repeat(APPEAL_MAX + 1) }, APPEAL_MESSAGES.bodyTooLong],
      [{ actionId: 'nope', body: 'Please' }, APPEAL_MESSAGES.decisionNotFound],
    ] as const) {
      const res = await appeal(author.id, payload);
      expect([res.statusCode, res.json()]).toEqual([400, { message }]);
    }
    for (const [userId, actionId] of [
      [reporters[0]!.id, removal._id],
      [author.id, randomUUID()],
    ] as const) {
      const res = await appeal(userId, { actionId, body: 'Please' });
      expect([res.statusCode, res.json()]).toEqual([404, { message: APPEAL_MESSAGES.decisionNotFound }]);
    }
    const demo = await appeal(DEMO_USER_ID, { actionId: removal._id, body: 'Please' });
    expect([demo.statusCode, demo.json()]).toEqual([403, { message: DEMO_DISABLED_MESSAGE }]);
    expect((await statementsOf(author.id))[0]!.appeal).toBeNull();

    const sent = await appeal(author.id, {
      actionId: removal._id,
      body: '  It was a joke between neighbours.  ',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({
      message: APPEAL_MESSAGES.sent,
      appeal: { body: 'It was a joke between neighbours.', decidedAt: null, outcome: null },
    });
    const again = await appeal(author.id, { actionId: removal._id, body: 'Again' });
    expect([again.statusCode, again.json()]).toEqual([409, { message: APPEAL_MESSAGES.alreadyAppealed }]);
    expect((await statementsOf(author.id))[0]).toMatchObject({
      canAppeal: false,
      appeal: { body: 'It was a joke between neighbours.', outcome: null },
    });
  });

  it('refuses an appeal after the window, of an undone decision, and of a dismissal', async () => {
    const { author, post, reportId } = await reportedPost();
    // A decision 21 days old, written as the log would hold it (the log is appended to, never edited).
    const [old] = await t.db
      .insert(moderationActions)
      .values({
        moderatorId: moderator.id,
        moderatorName: moderator.username,
        targetType: 'post',
        targetId: post.id,
        targetUserId: author.id,
        action: 'warn',
        rule: 'spam',
        explanation: 'Long ago.',
        createdAt: new Date(Date.now() - (APPEAL_WINDOW_DAYS + 1) * DAY_MS),
      })
      .returning({ id: moderationActions.id });
    const late = await call(author.id, 'POST', '/api/appeals', { actionId: old!.id, body: 'Please' });
    expect([late.statusCode, late.json()]).toEqual([409, { message: APPEAL_MESSAGES.tooLate }]);
    expect((await statementsOf(author.id)).find((s) => s._id === old!.id)).toMatchObject({
      canAppeal: false,
    });

    const removal = await removeAs(moderator.id, reportId);
    const restored = await call(moderator.id, 'POST', `/api/moderation/actions/${removal._id}/restore`, {
      explanation: 'A second look.',
    });
    expect(restored.statusCode, restored.body).toBe(200);
    const undone = await call(author.id, 'POST', '/api/appeals', { actionId: removal._id, body: 'Please' });
    expect([undone.statusCode, undone.json()]).toEqual([409, { message: APPEAL_MESSAGES.undone }]);
    // The undoing reached the author too.
    expect((await notificationsOf(author.id))[0]).toMatchObject({
      type: 'moderation_decision',
      moderation: { action: 'restore', revertedAction: 'remove' },
    });
  });

  it('lets another moderator undo the decision on appeal, and tells the appellant', async () => {
    const { author, post, reportId } = await reportedPost();
    const removal = await removeAs(moderator.id, reportId);
    expect(await moderationOf(post.id)).toBe('removed');
    await call(author.id, 'POST', '/api/appeals', { actionId: removal._id, body: 'It is my own cat.' });

    const open = (await call(second.id, 'GET', '/api/moderation/appeals')).json() as ModeratorAppealsResponse;
    const listed = open.appeals.find((a) => a.decision._id === removal._id)!;
    expect(listed).toMatchObject({
      body: 'It is my own cat.',
      appellant: { _id: author.id, username: author.username },
      decision: {
        action: 'remove',
        moderator: { username: moderator.username },
        excerpt: 'Free kittens, call now',
      },
      decidedByYou: false,
    });
    const byDecider = (
      await call(moderator.id, 'GET', '/api/moderation/appeals')
    ).json() as ModeratorAppealsResponse;
    expect(byDecider.appeals.find((a) => a._id === listed._id)!.decidedByYou).toBe(true);

    const decide = (userId: string, payload: unknown) =>
      call(userId, 'POST', `/api/moderation/appeals/${listed._id}/decision`, payload);
    const same = await decide(moderator.id, { outcome: 'overturned' });
    expect([same.statusCode, same.json()]).toEqual([403, { message: APPEAL_MESSAGES.sameModerator }]);
    const bad = await decide(second.id, { outcome: 'maybe' });
    expect([bad.statusCode, bad.json()]).toEqual([400, { message: APPEAL_MESSAGES.outcomeInvalid }]);
    const unknown = await call(second.id, 'POST', `/api/moderation/appeals/${randomUUID()}/decision`, {
      outcome: 'upheld',
    });
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { message: APPEAL_MESSAGES.appealNotFound }]);
    expect(await moderationOf(post.id)).toBe('removed');

    const done = await decide(second.id, { outcome: 'overturned', explanation: 'The picture is fine.' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ appeal: { outcome: 'overturned' } });
    expect(await moderationOf(post.id)).toBeNull();
    const twice = await decide(second.id, { outcome: 'upheld' });
    expect([twice.statusCode, twice.json()]).toEqual([409, { message: APPEAL_MESSAGES.alreadyDecided }]);

    expect((await notificationsOf(author.id))[0]).toMatchObject({
      type: 'appeal_decided',
      link: `/settings/moderation#decision-${removal._id}`,
      moderation: { actionId: removal._id, appealOutcome: 'overturned' },
    });
    expect((await statementsOf(author.id))[0]).toMatchObject({
      reverted: true,
      canAppeal: false,
      appeal: { outcome: 'overturned' },
    });
    const log = (await call(second.id, 'GET', '/api/moderation/log')).json() as {
      entries: ModerationAction[];
    };
    expect(log.entries.find((e) => e.revertsActionId === removal._id)).toMatchObject({
      action: 'restore',
      moderator: { username: second.username },
      explanation: 'The picture is fine.',
    });
    expect((await call(second.id, 'GET', '/api/moderation/appeals')).json()).toMatchObject({
      appeals: expect.not.arrayContaining([expect.objectContaining({ _id: listed._id })]),
    });
  });

  it('keeps the decision when upheld, and lets the deciding moderator answer when nobody else can', async () => {
    const { author, post, reportId } = await reportedPost();
    const removal = await removeAs(moderator.id, reportId);
    await call(author.id, 'POST', '/api/appeals', { actionId: removal._id, body: 'Please look again.' });
    const appealId = (
      (await call(moderator.id, 'GET', '/api/moderation/appeals')).json() as ModeratorAppealsResponse
    ).appeals.find((a) => a.decision._id === removal._id)!._id;

    // Every other moderator steps down: the one who decided answers.
    await t.db.update(users).set({ role: 'member' }).where(eq(users.id, second.id));
    try {
      const res = await call(moderator.id, 'POST', `/api/moderation/appeals/${appealId}/decision`, {
        outcome: 'upheld',
        explanation: 'Selling kittens stays off the app.',
      });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      await t.db.update(users).set({ role: 'moderator' }).where(eq(users.id, second.id));
    }
    expect(await moderationOf(post.id)).toBe('removed');
    expect((await notificationsOf(author.id))[0]).toMatchObject({
      type: 'appeal_decided',
      moderation: { appealOutcome: 'upheld' },
    });
    expect((await statementsOf(author.id))[0]).toMatchObject({
      reverted: false,
      appeal: { outcome: 'upheld' },
    });
  });

  it('lets a suspended person, who cannot sign in, read why and appeal with their email and password', async () => {
    const person = await createUser(t.db);
    const reporter = await createUser(t.db);
    const reported = await call(reporter.id, 'POST', '/api/reports', {
      targetType: 'user',
      targetId: person.id,
      reason: 'harassment',
    });
    expect(reported.statusCode, reported.body).toBe(201);
    const queue = (await call(moderator.id, 'GET', '/api/moderation/reports')).json() as {
      groups: { reportId: string; targetId: string }[];
    };
    const reportId = queue.groups.find((g) => g.targetId === person.id)!.reportId;
    const suspended = await call(moderator.id, 'POST', `/api/moderation/reports/${reportId}/actions`, {
      actions: [
        { action: 'suspend', rule: 'harassment', explanation: 'Threats in comments.', suspendDays: 7 },
      ],
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    const suspensionId = (suspended.json() as { actions: ModerationAction[] }).actions[0]!._id;

    const credentials = { email: person.email, password: DEFAULT_PASSWORD };
    const post = (url: string, payload: unknown) =>
      t.app.inject({ method: 'POST', url, payload: payload as object });
    expect((await post('/api/login', credentials)).statusCode).toBe(403);

    const read = await post('/api/login/suspension', credentials);
    expect(read.statusCode, read.body).toBe(200);
    const [statement] = (read.json() as StatementsResponse).statements;
    expect(statement).toMatchObject({
      _id: suspensionId,
      action: 'suspend',
      targetType: 'user',
      rule: 'harassment',
      explanation: 'Threats in comments.',
      canAppeal: true,
    });
    expect(Date.parse(statement!.suspendedUntil!) - Date.parse(statement!.createdAt)).toBe(7 * DAY_MS);
    expect(read.body).not.toContain(moderator.username);

    for (const [payload, status, message] of [
      [{ email: person.email, password: 'wrong-password-1' }, 401, 'Unauthorized'],
      [{ email: person.email }, 400, 'Missing Email or Password'],
      [{ email: reporter.email, password: DEFAULT_PASSWORD }, 409, APPEAL_MESSAGES.notSuspended],
    ] as const) {
      const res = await post('/api/login/suspension', payload);
      expect([res.statusCode, res.json()]).toEqual([status, { message }]);
    }
    const wrong = await post('/api/login/suspension/appeal', {
      email: person.email,
      password: 'wrong-password-1',
      actionId: suspensionId,
      body: 'Please',
    });
    expect(wrong.statusCode).toBe(401);

    const appealed = await post('/api/login/suspension/appeal', {
      ...credentials,
      actionId: suspensionId,
      body: 'I was quoting the other person.',
    });
    expect(appealed.statusCode, appealed.body).toBe(201);
    expect(appealed.json()).toMatchObject({ message: APPEAL_MESSAGES.sent, appeal: { outcome: null } });
    const again = await post('/api/login/suspension/appeal', {
      ...credentials,
      actionId: suspensionId,
      body: 'Again',
    });
    expect([again.statusCode, again.json()]).toEqual([409, { message: APPEAL_MESSAGES.alreadyAppealed }]);

    // Another moderator undoes it: the person signs in again.
    const open = (await call(second.id, 'GET', '/api/moderation/appeals')).json() as ModeratorAppealsResponse;
    const appealId = open.appeals.find((a) => a.decision._id === suspensionId)!._id;
    const decided = await call(second.id, 'POST', `/api/moderation/appeals/${appealId}/decision`, {
      outcome: 'overturned',
      explanation: 'Quoted, not meant.',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect((await post('/api/login', credentials)).statusCode).toBe(200);
    const after = await post('/api/login/suspension', credentials);
    expect([after.statusCode, after.json()]).toEqual([409, { message: APPEAL_MESSAGES.notSuspended }]);
  });
});
