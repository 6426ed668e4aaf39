import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_USER_ID,
  MODERATION_ACTION_MESSAGES as M,
  MODERATION_LOG_PAGE_SIZE,
  MODERATION_MESSAGES,
  type ModerationAction,
  type Post,
  type ReportTargetType,
} from '@cats/contracts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createCat, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { NO_RATE_LIMITS } from '../../../test/hostile/support/world.ts';
import {
  cats,
  comments,
  moderationActions,
  posts,
  refreshTokens,
  reports,
  users,
} from '../../db/schema/index.ts';

/**
 * Issue 27, "Moderators": the actions a moderator takes on a report, their undoing, and the audit log.
 * Every refusal is checked to change nothing: the target, the reports and the log stay as they were.
 */
let t: TestApp;
type Headers = Record<string, string>;
let mod: CreatedUser;
let modHeaders: Headers;
let admin: CreatedUser;
let adminHeaders: Headers;
let reporter: CreatedUser;

async function staff(role: 'moderator' | 'admin'): Promise<CreatedUser> {
  const user = await createUser(t.db);
  await t.db.update(users).set({ role }).where(eq(users.id, user.id));
  return { ...user, role };
}

/**
 * A report as POST /api/reports stores it (that route is another module's), by a new reporter each
 * time unless given (one report per reporter and target).
 */
async function report(
  targetType: ReportTargetType,
  targetId: string,
  targetUserId: string | null,
  reporterOf?: CreatedUser,
): Promise<string> {
  const by = reporterOf ?? (await createUser(t.db));
  const [row] = await t.db
    .insert(reports)
    .values({ reporterId: by.id, targetType, targetId, targetUserId, reason: 'spam', snapshot: {} })
    .returning({ id: reports.id });
  return row!.id;
}

const act = (reportId: string, actions: unknown[], headers: Headers = modHeaders) =>
  t.app.inject({
    method: 'POST',
    url: `/api/moderation/reports/${reportId}/actions`,
    headers,
    payload: { actions },
  });
const restore = (actionId: string, headers: Headers = modHeaders, explanation?: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/moderation/actions/${actionId}/restore`,
    headers,
    payload: explanation === undefined ? {} : { explanation },
  });
const acted = (res: { json(): unknown }) => (res.json() as { actions: ModerationAction[] }).actions;

const logCount = async () =>
  Number((await t.db.select({ n: sql<number>`count(*)::int` }).from(moderationActions))[0]!.n);
const reportOpen = async (id: string) =>
  (await t.db.select({ r: reports.resolvedAt }).from(reports).where(eq(reports.id, id)))[0]!.r === null;
const postRow = async (id: string) => (await t.db.select().from(posts).where(eq(posts.id, id)))[0]!;

const removeWith = { action: 'remove', rule: 'spam', explanation: 'Advertising, not a cat.' };

beforeAll(async () => {
  t = await buildTestApp(NO_RATE_LIMITS);
  mod = await staff('moderator');
  modHeaders = await authHeader(t.app, mod.id);
  admin = await staff('admin');
  adminHeaders = await authHeader(t.app, admin.id);
  reporter = await createUser(t.db);
});
afterAll(async () => {
  await t?.close();
});

describe('taking actions on a report', () => {
  it('removes a post, appends the action with its moderator and rule, and resolves every open report on it', async () => {
    const author = await createUser(t.db);
    const post = await createPost(t.db, author.id);
    const first = await report('post', post.id, author.id);
    const sibling = await report('post', post.id, author.id, await createUser(t.db));
    const elsewhere = await report('post', (await createPost(t.db, author.id)).id, author.id);
    const res = await act(first, [removeWith]);
    expect(res.statusCode, res.body).toBe(200);
    const [entry] = acted(res);
    expect(entry).toMatchObject({
      reportId: first,
      moderator: { _id: mod.id, username: mod.username },
      action: 'remove',
      targetType: 'post',
      targetId: post.id,
      targetUserId: author.id,
      rule: 'spam',
      explanation: 'Advertising, not a cat.',
      suspendDays: null,
      revertsActionId: null,
      reverted: false,
    });
    expect((await postRow(post.id)).moderation).toBe('removed');
    expect(await reportOpen(first)).toBe(false);
    expect(await reportOpen(sibling)).toBe(false);
    expect(await reportOpen(elsewhere)).toBe(true);
  });

  it('removes a comment and a cat page', async () => {
    const author = await createUser(t.db);
    const post = await createPost(t.db, author.id);
    const [comment] = await t.db
      .insert(comments)
      .values({ postId: post.id, userId: author.id, body: 'Buy my stuff' })
      .returning();
    expect((await act(await report('comment', comment!.id, author.id), [removeWith])).statusCode).toBe(200);
    const [c] = await t.db.select().from(comments).where(eq(comments.id, comment!.id));
    expect(c!.moderation).toBe('removed');
    const cat = await createCat(t.db, author.id);
    const res = await act(await report('cat', cat.id, author.id), [removeWith]);
    expect(res.statusCode, res.body).toBe(200);
    const [k] = await t.db.select().from(cats).where(eq(cats.id, cat.id));
    expect(k!.removedAt).toBeInstanceOf(Date);
    // The post itself was not touched.
    expect((await postRow(post.id)).moderation).toBeNull();
  });

  it('dismisses without a rule: nothing changes but the reports close, and an automatic hide ends', async () => {
    const author = await createUser(t.db);
    const post = await createPost(t.db, author.id, { moderation: 'pending_review' });
    const id = await report('post', post.id, author.id);
    const res = await act(id, [{ action: 'dismiss' }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(acted(res)[0]).toMatchObject({ action: 'dismiss', rule: null, targetUserId: null });
    expect(await reportOpen(id)).toBe(false);
    expect((await postRow(post.id)).moderation).toBeNull();
  });

  it('dismisses a report whose target is gone; any other action on it is 409', async () => {
    const author = await createUser(t.db);
    const post = await createPost(t.db, author.id);
    const id = await report('post', post.id, author.id);
    await t.db.delete(posts).where(eq(posts.id, post.id));
    const before = await logCount();
    for (const a of [removeWith, { action: 'warn', rule: 'spam', explanation: 'No.' }]) {
      const res = await act(id, [a]);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: M.targetGone });
    }
    expect(await logCount()).toBe(before);
    expect(await reportOpen(id)).toBe(true);
    expect((await act(id, [{ action: 'dismiss' }])).statusCode).toBe(200);
    expect(await reportOpen(id)).toBe(false);
  });

  it('warns: a strike on the record that changes nothing', async () => {
    const author = await createUser(t.db);
    const post = await createPost(t.db, author.id);
    const res = await act(await report('post', post.id, author.id), [
      { action: 'warn', rule: 'harassment', explanation: 'Be kind.' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(acted(res)[0]).toMatchObject({ action: 'warn', targetUserId: author.id, rule: 'harassment' });
    const row = await postRow(post.id);
    expect([row.moderation, row.authorSuspended]).toEqual([null, false]);
  });

  it('refuses to warn or suspend the shared demo account, and still lets a report about it be dismissed', async () => {
    for (const action of [
      { action: 'warn', rule: 'spam', explanation: 'x' },
      { action: 'suspend', rule: 'spam', explanation: 'x', suspendDays: 1 },
    ]) {
      const reportId = await report('user', DEMO_USER_ID, DEMO_USER_ID);
      const before = await logCount();
      const res = await act(reportId, [action]);
      expect([res.statusCode, res.json()]).toEqual([403, { message: M.onDemo }]);
      expect(await logCount()).toBe(before);
      expect(await reportOpen(reportId)).toBe(true);
      expect((await act(reportId, [{ action: 'dismiss' }])).statusCode).toBe(200);
    }
    const demo = (await t.db.select().from(users).where(eq(users.id, DEMO_USER_ID)))[0]!;
    expect(demo.suspendedAt).toBeNull();
  });

  it("strips a post's location as its owner would, and restore brings the owner's choice back", async () => {
    const author = await createUser(t.db);
    const post = await createPost(t.db, author.id, {
      latitude: 51.5123,
      longitude: -0.1234,
      showLocation: true,
    });
    const stranger = await authHeader(t.app, (await createUser(t.db)).id);
    const seen = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/posts/${post.id}`, headers: stranger })).json() as Post;
    expect((await seen()).latitude).not.toBeNull();
    const res = await act(await report('post', post.id, author.id), [
      { action: 'strip_location', rule: 'private_information', explanation: 'This is a front door.' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect((await postRow(post.id)).showLocation).toBe(false);
    expect(await seen()).toMatchObject({ latitude: null, longitude: null });
    // The owner still has the spot.
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/posts/${post.id}`,
      headers: await authHeader(t.app, author.id),
    });
    expect((own.json() as Post).latitude).toBe(51.5123);
    const undone = await restore(acted(res)[0]!._id);
    expect(undone.statusCode, undone.body).toBe(200);
    expect((await postRow(post.id)).showLocation).toBe(true);
    expect((await seen()).latitude).not.toBeNull();

    // A post whose location was already off stays off when the stripping is undone.
    const hidden = await createPost(t.db, author.id, {
      latitude: 51.5,
      longitude: -0.1,
      showLocation: false,
    });
    const stripped = await act(await report('post', hidden.id, author.id), [
      { action: 'strip_location', rule: 'private_information', explanation: 'Door.' },
    ]);
    expect(stripped.statusCode).toBe(200);
    expect((await restore(acted(stripped)[0]!._id)).statusCode).toBe(200);
    expect((await postRow(hidden.id)).showLocation).toBe(false);
  });

  it('keeps a stripped location off until restored: the owner is refused, told on the post, and the database holds it', async () => {
    const author = await createUser(t.db);
    const ownerHeaders = await authHeader(t.app, author.id);
    const post = await createPost(t.db, author.id, { latitude: 51.51, longitude: -0.12, showLocation: true });
    const toggle = () =>
      t.app.inject({
        method: 'PUT',
        url: `/api/posts/toggleLocation/${post.id}`,
        headers: ownerHeaders,
        payload: {},
      });
    const view = async (headers: Headers) =>
      (await t.app.inject({ method: 'GET', url: `/api/posts/${post.id}`, headers })).json() as Post;
    const stranger = await authHeader(t.app, (await createUser(t.db)).id);
    expect((await view(ownerHeaders)).locationLocked).toBeUndefined();

    const first = await act(await report('post', post.id, author.id), [
      { action: 'strip_location', rule: 'private_information', explanation: 'A front door.' },
    ]);
    expect(first.statusCode, first.body).toBe(200);
    // A second report on the same post, stripped again by another moderator.
    const second = await act(
      await report('post', post.id, author.id),
      [{ action: 'strip_location', rule: 'private_information', explanation: 'Still a door.' }],
      adminHeaders,
    );
    expect(second.statusCode, second.body).toBe(200);

    const refused = await toggle();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      message:
        'A moderator hid the location of this picture. You can read why and appeal in Settings, under Moderation.',
    });
    expect(await postRow(post.id)).toMatchObject({ showLocation: false, locationLocked: true });
    expect((await view(ownerHeaders)).locationLocked).toBe(true);
    // Only the owner learns of it; others see no location at all.
    const seen = await view(stranger);
    expect(seen.locationLocked).toBeUndefined();
    expect([seen.latitude, seen.longitude, seen.showLocation]).toEqual([null, null, false]);
    // Moving the picture keeps its location hidden.
    const moved = await t.app.inject({
      method: 'PATCH',
      url: `/api/posts/${post.id}`,
      headers: ownerHeaders,
      payload: { latitude: 51.52, longitude: -0.13 },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await postRow(post.id)).toMatchObject({
      latitude: 51.52,
      showLocation: false,
      locationLocked: true,
    });
    // The invariant is the database's own, whoever writes.
    await expect(
      t.db.update(posts).set({ showLocation: true }).where(eq(posts.id, post.id)),
    ).rejects.toThrow();

    // Restoring one of the two leaves the other standing.
    expect((await restore(acted(first)[0]!._id)).statusCode).toBe(200);
    expect((await toggle()).statusCode).toBe(403);
    expect(await postRow(post.id)).toMatchObject({ showLocation: false, locationLocked: true });

    // Restoring the last brings back the owner's own choice from before the first, and the switch.
    expect((await restore(acted(second)[0]!._id)).statusCode).toBe(200);
    expect(await postRow(post.id)).toMatchObject({ showLocation: true, locationLocked: false });
    expect((await view(ownerHeaders)).locationLocked).toBeUndefined();
    const off = await toggle();
    expect(off.statusCode, off.body).toBe(200);
    expect((await postRow(post.id)).showLocation).toBe(false);
  });

  it('takes several actions in one transaction: remove and suspend for 7 days', async () => {
    const author = await createUser(t.db);
    const post = await createPost(t.db, author.id);
    const other = await createPost(t.db, author.id);
    await t.db.insert(comments).values({ postId: other.id, userId: author.id, body: 'hello' });
    await t.db.insert(refreshTokens).values({
      userId: author.id,
      familyId: randomUUID(),
      tokenHash: randomUUID(),
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const id = await report('post', post.id, author.id);
    const before = Date.now();
    const res = await act(id, [
      removeWith,
      { action: 'suspend', rule: 'spam', explanation: 'Repeated spam.', suspendDays: 7 },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(acted(res).map((a) => [a.action, a.reportId, a.suspendDays])).toEqual([
      ['remove', id, null],
      ['suspend', id, 7],
    ]);
    const [u] = await t.db.select().from(users).where(eq(users.id, author.id));
    expect(u!.suspendedAt).toBeInstanceOf(Date);
    const days = (u!.suspendedUntil!.getTime() - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    expect((await postRow(post.id)).moderation).toBe('removed');
    expect((await postRow(other.id)).authorSuspended).toBe(true);
    const cs = await t.db.select().from(comments).where(eq(comments.userId, author.id));
    expect(cs.map((c) => c.authorSuspended)).toEqual([true]);
    const tokens = await t.db.select().from(refreshTokens).where(eq(refreshTokens.userId, author.id));
    expect(tokens.every((r) => r.revokedAt !== null)).toBe(true);

    // Restoring the suspension lifts it and shows everything again; the removal stays.
    const lifted = await restore(acted(res)[1]!._id, modHeaders, 'Appeal upheld.');
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(lifted.json()).toMatchObject({
      action: 'restore',
      reportId: null,
      revertsActionId: acted(res)[1]!._id,
      targetUserId: author.id,
      explanation: 'Appeal upheld.',
    });
    const [after] = await t.db.select().from(users).where(eq(users.id, author.id));
    expect([after!.suspendedAt, after!.suspendedUntil]).toEqual([null, null]);
    expect((await postRow(other.id)).authorSuspended).toBe(false);
    expect((await postRow(post.id)).moderation).toBe('removed');
  });

  it('suspends for good (suspendDays null), from a report on the person', async () => {
    const person = await createUser(t.db);
    const res = await act(await report('user', person.id, person.id), [
      { action: 'suspend', rule: 'harassment', explanation: 'Threats.', suspendDays: null },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const [u] = await t.db.select().from(users).where(eq(users.id, person.id));
    expect(u!.suspendedAt).toBeInstanceOf(Date);
    expect(u!.suspendedUntil).toBeNull();
  });

  it('refuses what breaks the rules, and a refusal changes nothing', async () => {
    const author = await createUser(t.db);
    const post = await createPost(t.db, author.id);
    const unlocated = await createPost(t.db, author.id);
    const id = await report('post', post.id, author.id);
    const person = await report('user', author.id, author.id);
    const [comment] = await t.db
      .insert(comments)
      .values({ postId: post.id, userId: author.id, body: 'hi' })
      .returning();
    const onComment = await report('comment', comment!.id, author.id);
    const onUnlocated = await report('post', unlocated.id, author.id);
    const before = await logCount();
    const cases: [string, unknown[], number, string][] = [
      [id, [{ action: 'remove', explanation: 'x' }], 400, M.ruleInvalid],
      [id, [{ action: 'remove', rule: 'nonsense', explanation: 'x' }], 400, M.ruleInvalid],
      [id, [{ action: 'warn', rule: 'spam' }], 400, M.explanationRequired],
      [id, [{ action: 'warn', rule: 'spam', explanation: '   ' }], 400, M.explanationRequired],
      [
        id,
        [{ action: 'warn', rule: 'spam', explanation: 'x', suspendDays: 7 }],
        400,
        M.suspendDaysNotSuspend,
      ],
      [id, [{ action: 'suspend', rule: 'spam', explanation: 'x' }], 400, M.suspendDaysInvalid],
      [
        id,
        [{ action: 'suspend', rule: 'spam', explanation: 'x', suspendDays: 3 }],
        400,
        M.suspendDaysInvalid,
      ],
      [id, [{ action: 'explode' }], 400, M.actionInvalid],
      [id, [], 400, M.noActions],
      [id, [removeWith, removeWith], 400, M.duplicateAction],
      [id, [{ action: 'dismiss' }, removeWith], 400, M.dismissAlone],
      [id, [{ action: 'remove', rule: 'spam', explanation: 'x'.repeat(1001) }], 400, M.explanationTooLong],
      [person, [removeWith], 400, M.notApplicable],
      [onComment, [{ action: 'strip_location', rule: 'spam', explanation: 'x' }], 400, M.notApplicable],
      [onUnlocated, [{ action: 'strip_location', rule: 'spam', explanation: 'x' }], 400, M.notApplicable],
      // A valid remove before a refused one: the whole request is refused, the remove included.
      [
        onUnlocated,
        [removeWith, { action: 'strip_location', rule: 'spam', explanation: 'x' }],
        400,
        M.notApplicable,
      ],
      [randomUUID(), [removeWith], 404, M.reportNotFound],
      ['not-an-id', [removeWith], 404, M.reportNotFound],
    ];
    for (const [reportId, actions, status, message] of cases) {
      const res = await act(reportId, actions);
      expect([res.statusCode, res.json()], JSON.stringify(actions)).toEqual([status, { message }]);
    }
    expect(await logCount()).toBe(before);
    for (const r of [id, person, onComment, onUnlocated]) expect(await reportOpen(r)).toBe(true);
    expect((await postRow(post.id)).moderation).toBeNull();
    expect((await postRow(unlocated.id)).moderation).toBeNull();
  });

  it('refuses members (403) and the anonymous (401)', async () => {
    const author = await createUser(t.db);
    const id = await report('post', (await createPost(t.db, author.id)).id, author.id);
    const member = await act(id, [removeWith], await authHeader(t.app, (await createUser(t.db)).id));
    expect([member.statusCode, member.json()]).toEqual([403, { message: MODERATION_MESSAGES.notModerator }]);
    expect((await act(id, [removeWith], {})).statusCode).toBe(401);
    expect(await reportOpen(id)).toBe(true);
  });

  it("refuses acting on one's own content or account, and on an admin's, whoever asks", async () => {
    const own = await createPost(t.db, mod.id);
    const ownReport = await report('post', own.id, mod.id);
    for (const actions of [[removeWith], [{ action: 'dismiss' }]]) {
      const res = await act(ownReport, actions);
      expect([res.statusCode, res.json()]).toEqual([403, { message: M.ownContent }]);
    }
    const self = await report('user', mod.id, mod.id);
    const suspendSelf = await act(self, [
      { action: 'suspend', rule: 'spam', explanation: 'x', suspendDays: 1 },
    ]);
    expect([suspendSelf.statusCode, suspendSelf.json()]).toEqual([403, { message: M.ownContent }]);
    // Admins are moderators too, and the same rules hold for them.
    const adminOwn = await act(
      await report('post', (await createPost(t.db, admin.id)).id, admin.id),
      [removeWith],
      adminHeaders,
    );
    expect([adminOwn.statusCode, adminOwn.json()]).toEqual([403, { message: M.ownContent }]);
    const otherAdmin = await staff('admin');
    const adminPost = await createPost(t.db, otherAdmin.id);
    const onAdmin = await report('post', adminPost.id, otherAdmin.id);
    for (const headers of [modHeaders, adminHeaders]) {
      const res = await act(onAdmin, [removeWith], headers);
      expect([res.statusCode, res.json()]).toEqual([403, { message: M.onAdmin }]);
    }
    const onAdminAccount = await act(await report('user', otherAdmin.id, otherAdmin.id), [
      { action: 'suspend', rule: 'spam', explanation: 'x', suspendDays: 1 },
    ]);
    expect([onAdminAccount.statusCode, onAdminAccount.json()]).toEqual([403, { message: M.onAdmin }]);
    expect((await postRow(own.id)).moderation).toBeNull();
    expect((await postRow(adminPost.id)).moderation).toBeNull();
    expect(await reportOpen(ownReport)).toBe(true);
    // Another moderator's content is fair game; and a report about an admin can still be dismissed.
    const peer = await staff('moderator');
    const peerPost = await createPost(t.db, peer.id);
    expect((await act(await report('post', peerPost.id, peer.id), [removeWith])).statusCode).toBe(200);
    expect((await act(onAdmin, [{ action: 'dismiss' }])).statusCode).toBe(200);
    expect((await postRow(adminPost.id)).moderation).toBeNull();
  });
});

describe('restoring an action', () => {
  it('undoes a removal of a post, a comment and a cat page, once', async () => {
    const author = await createUser(t.db);
    const post = await createPost(t.db, author.id, { moderation: 'pending_review' });
    const [comment] = await t.db
      .insert(comments)
      .values({ postId: post.id, userId: author.id, body: 'hi' })
      .returning();
    const cat = await createCat(t.db, author.id);
    const removals = [
      acted(await act(await report('post', post.id, author.id), [removeWith]))[0]!,
      acted(await act(await report('comment', comment!.id, author.id), [removeWith]))[0]!,
      acted(await act(await report('cat', cat.id, author.id), [removeWith]))[0]!,
    ];
    for (const removal of removals) {
      const res = await restore(removal._id);
      expect(res.statusCode, res.body).toBe(200);
      const again = await restore(removal._id);
      expect([again.statusCode, again.json()]).toEqual([409, { message: M.alreadyRestored }]);
    }
    expect((await postRow(post.id)).moderation).toBeNull();
    expect(
      (await t.db.select().from(comments).where(eq(comments.id, comment!.id)))[0]!.moderation,
    ).toBeNull();
    expect((await t.db.select().from(cats).where(eq(cats.id, cat.id)))[0]!.removedAt).toBeNull();
  });

  it('refuses dismissals, restores, unknown actions, gone targets and own or admin content', async () => {
    const author = await createUser(t.db);
    const post = await createPost(t.db, author.id);
    const warn = acted(
      await act(await report('post', post.id, author.id), [
        { action: 'warn', rule: 'spam', explanation: 'x' },
      ]),
    )[0]!;
    const dismiss = acted(await act(await report('post', post.id, author.id), [{ action: 'dismiss' }]))[0]!;
    const dismissRes = await restore(dismiss._id);
    expect([dismissRes.statusCode, dismissRes.json()]).toEqual([400, { message: M.notRestorable }]);
    // A warning can be withdrawn: its strike then counts no more (reverted in the log), once.
    const withdrawn = await restore(warn._id);
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json()).toMatchObject({ action: 'restore', revertsActionId: warn._id });
    const again = await restore(warn._id);
    expect([again.statusCode, again.json()]).toEqual([409, { message: M.alreadyRestored }]);
    const removal = acted(await act(await report('post', post.id, author.id), [removeWith]))[0]!;
    const restoreEntry = (await restore(removal._id)).json() as ModerationAction;
    const ofRestore = await restore(restoreEntry._id);
    expect([ofRestore.statusCode, ofRestore.json()]).toEqual([400, { message: M.notRestorable }]);
    for (const id of [randomUUID(), 'nope']) {
      const res = await restore(id);
      expect([res.statusCode, res.json()]).toEqual([404, { message: M.actionNotFound }]);
    }
    const member = await restore(removal._id, await authHeader(t.app, author.id));
    expect(member.statusCode).toBe(403);

    // Gone: the removed post was deleted since.
    const doomed = await createPost(t.db, author.id);
    const gone = acted(await act(await report('post', doomed.id, author.id), [removeWith]))[0]!;
    await t.db.delete(posts).where(eq(posts.id, doomed.id));
    const goneRes = await restore(gone._id);
    expect([goneRes.statusCode, goneRes.json()]).toEqual([409, { message: M.targetGone }]);

    // A moderator cannot undo an action on their own content, nor anyone one on an admin's (an author
    // made admin since).
    const peer = await staff('moderator');
    const peerPost = await createPost(t.db, peer.id);
    const onPeer = acted(await act(await report('post', peerPost.id, peer.id), [removeWith]))[0]!;
    const own = await restore(onPeer._id, await authHeader(t.app, peer.id));
    expect([own.statusCode, own.json()]).toEqual([403, { message: M.ownContent }]);
    await t.db.update(users).set({ role: 'admin' }).where(eq(users.id, peer.id));
    const onAdmin = await restore(onPeer._id);
    expect([onAdmin.statusCode, onAdmin.json()]).toEqual([403, { message: M.onAdmin }]);
    expect((await postRow(peerPost.id)).moderation).toBe('removed');
    const reverted = await t.db
      .select()
      .from(moderationActions)
      .where(eq(moderationActions.revertsActionId, onPeer._id));
    expect(reverted).toEqual([]);
  });
});

describe('the audit log', () => {
  const page = async (cursor?: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/moderation/log${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
      headers: modHeaders,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { entries: ModerationAction[]; nextCursor: string | null };
  };

  it('lists every entry newest first, page by page, and marks the undone ones', async () => {
    const author = await createUser(t.db);
    const post = await createPost(t.db, author.id);
    const removal = acted(await act(await report('post', post.id, author.id), [removeWith]))[0]!;
    const restored = (await restore(removal._id)).json() as ModerationAction;
    // Enough entries for three pages.
    for (let i = 0; i < MODERATION_LOG_PAGE_SIZE + 5; i += 1) {
      await act(await report('post', post.id, author.id), [
        { action: 'warn', rule: 'spam', explanation: `Warning ${i}` },
      ]);
    }
    const all: ModerationAction[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const p = await page(cursor);
      expect(p.entries.length).toBeLessThanOrEqual(MODERATION_LOG_PAGE_SIZE);
      all.push(...p.entries);
      cursor = p.nextCursor ?? undefined;
      pages += 1;
    } while (cursor);
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(all.length).toBe(await logCount());
    expect(new Set(all.map((e) => e._id)).size).toBe(all.length);
    const keys = all.map((e) => e.createdAt);
    expect([...keys].sort().reverse()).toEqual(keys);
    expect(all[0]!.explanation).toBe(`Warning ${MODERATION_LOG_PAGE_SIZE + 4}`);
    expect(
      all.find((e) => e._id === removal._id),
      JSON.stringify([removal, restored]),
    ).toMatchObject({ reverted: true });
    expect(all.find((e) => e._id === restored._id)).toMatchObject({
      reverted: false,
      revertsActionId: removal._id,
    });
    // This test's warnings stand (an earlier test withdrew one of its own).
    const warnings = all.filter((e) => e.action === 'warn' && e.explanation.startsWith('Warning '));
    expect(warnings).toHaveLength(MODERATION_LOG_PAGE_SIZE + 5);
    expect(warnings.every((e) => !e.reverted)).toBe(true);
    expect(JSON.stringify(all)).not.toMatch(/latitude|longitude/);
  });

  it('refuses a cursor it did not make, and members', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/moderation/log?cursor=abc',
      headers: modHeaders,
    });
    expect(res.statusCode).toBe(400);
    const member = await t.app.inject({
      method: 'GET',
      url: '/api/moderation/log',
      headers: await authHeader(t.app, reporter.id),
    });
    expect(member.statusCode).toBe(403);
  });

  it('is append-only in the database itself: UPDATE, DELETE and TRUNCATE are refused', async () => {
    const author = await createUser(t.db);
    const entry = acted(
      await act(await report('post', (await createPost(t.db, author.id)).id, author.id), [
        { action: 'dismiss' },
      ]),
    )[0]!;
    await expect(
      t.db
        .update(moderationActions)
        .set({ explanation: 'rewritten' })
        .where(eq(moderationActions.id, entry._id)),
    ).rejects.toThrow();
    await expect(t.db.delete(moderationActions).where(eq(moderationActions.id, entry._id))).rejects.toThrow();
    await expect(t.db.execute(sql`truncate moderation_actions cascade`)).rejects.toThrow();
    const [row] = await t.db.select().from(moderationActions).where(eq(moderationActions.id, entry._id));
    expect(row!.explanation).toBe('');
  });
});
