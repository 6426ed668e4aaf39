import { randomUUID } from 'node:crypto';
import {
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  MODERATION_MESSAGES,
  REPORTS_PER_HOUR,
  type CommentsResponse,
  type PagedPostsResponse,
  type ReportReceipt,
} from '@cats/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, cats, comments, hiddenPosts, posts, reports, users } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createCat, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { NO_RATE_LIMITS } from '../../../test/hostile/support/world.ts';

const DAY = 24 * 60 * 60 * 1000;

/** Issue 27, "Reporting": POST /api/reports. */
describe('POST /api/reports', () => {
  let t: TestApp;
  let author: CreatedUser;
  let reporter: CreatedUser;
  let bystander: CreatedUser;
  beforeAll(async () => {
    t = await buildTestApp(NO_RATE_LIMITS);
    author = await createUser(t.db);
    reporter = await createUser(t.db);
    bystander = await createUser(t.db);
  });
  afterAll(async () => {
    await t.close();
  });

  const send = async (userId: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/reports', headers: await authHeader(t.app, userId), payload });
  const get = async (userId: string, url: string) =>
    t.app.inject({ method: 'GET', url, headers: await authHeader(t.app, userId) });
  const reportRows = (reporterId: string) =>
    t.db.select().from(reports).where(eq(reports.reporterId, reporterId));
  const allReports = async () =>
    (await t.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(reports))[0]!.n;
  const feedIds = async (userId: string) =>
    ((await get(userId, '/api/feed/1')).json() as PagedPostsResponse).posts.map((p) => p._id);
  const commentTexts = async (userId: string, postId: string) => {
    const res = await get(userId, `/api/posts/getComments/${postId}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as CommentsResponse;
    return { texts: body.comments.map((c) => c.comment), count: body.commentCount };
  };
  const addComment = async (userId: string, postId: string, body: string) => {
    const [row] = await t.db.insert(comments).values({ postId, userId, body }).returning();
    return row!;
  };

  describe('a first report and a second one', () => {
    it('records the report with a snapshot, answers 201, and hides the post from the reporter only', async () => {
      const post = await createPost(t.db, author.id, { caption: 'Tabby on the fence', catName: 'Moss' });
      expect(await feedIds(reporter.id)).toContain(post.id);
      const res = await send(reporter.id, {
        targetType: 'post',
        targetId: post.id,
        reason: 'spam',
        note: '  Selling things  ',
      });
      expect(res.statusCode, res.body).toBe(201);
      const receipt = res.json() as ReportReceipt;
      expect(receipt).toMatchObject({
        updated: false,
        blocked: false,
        message: MODERATION_MESSAGES.reported,
      });
      const [row] = await reportRows(reporter.id);
      expect(row).toMatchObject({
        id: receipt.reportId,
        targetType: 'post',
        targetId: post.id,
        targetUserId: author.id,
        reason: 'spam',
        note: 'Selling things',
        resolvedAt: null,
      });
      expect(row!.snapshot).toMatchObject({
        caption: 'Tabby on the fence',
        catName: 'Moss',
        mediaKey: post.mediaKey,
        author: { id: author.id, username: author.username },
      });
      // Gone for the reporter at once: feed and post page; still there for everyone else.
      expect(await feedIds(reporter.id)).not.toContain(post.id);
      expect((await get(reporter.id, `/api/posts/${post.id}`)).statusCode).toBe(404);
      expect(await feedIds(bystander.id)).toContain(post.id);
      expect((await get(bystander.id, `/api/posts/${post.id}`)).statusCode).toBe(200);
      expect((await get(author.id, `/api/posts/${post.id}`)).statusCode).toBe(200);
      // Not hidden for everyone by one report.
      const [stored] = await t.db.select().from(posts).where(eq(posts.id, post.id));
      expect(stored!.moderation).toBeNull();
    });

    it('updates the report on a second one (200): reason, note and snapshot, and opens it again', async () => {
      const post = await createPost(t.db, author.id, { caption: 'First words' });
      const first = await send(reporter.id, { targetType: 'post', targetId: post.id, reason: 'spam' });
      expect(first.statusCode).toBe(201);
      const firstId = (first.json() as ReportReceipt).reportId;
      await t.db.update(reports).set({ resolvedAt: new Date() }).where(eq(reports.id, firstId));
      await t.db.update(posts).set({ caption: 'Edited words' }).where(eq(posts.id, post.id));
      const second = await send(reporter.id, {
        targetType: 'post',
        targetId: post.id.toUpperCase(),
        reason: 'harassment',
        note: 'Worse now',
      });
      expect(second.statusCode, second.body).toBe(200);
      expect(second.json()).toEqual({
        reportId: firstId,
        updated: true,
        blocked: false,
        message: MODERATION_MESSAGES.reportUpdated,
      });
      const rows = (await reportRows(reporter.id)).filter((r) => r.targetId === post.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ reason: 'harassment', note: 'Worse now', resolvedAt: null });
      expect(rows[0]!.snapshot).toMatchObject({ caption: 'Edited words' });
      expect(rows[0]!.updatedAt.getTime()).toBeGreaterThan(rows[0]!.createdAt.getTime());
    });
  });

  describe('each kind of target', () => {
    it('a comment: the reporter no longer sees it nor counts it; others still do', async () => {
      const post = await createPost(t.db, bystander.id);
      const nice = await addComment(author.id, post.id, 'Lovely cat');
      const rude = await addComment(author.id, post.id, 'Rude words');
      const res = await send(reporter.id, { targetType: 'comment', targetId: rude.id, reason: 'harassment' });
      expect(res.statusCode, res.body).toBe(201);
      const [row] = (await reportRows(reporter.id)).filter((r) => r.targetId === rude.id);
      expect(row).toMatchObject({ targetType: 'comment', targetUserId: author.id });
      expect(row!.snapshot).toMatchObject({ body: 'Rude words', postId: post.id, author: { id: author.id } });
      expect(await commentTexts(reporter.id, post.id)).toEqual({ texts: [nice.body], count: 1 });
      expect(await commentTexts(bystander.id, post.id)).toEqual({ texts: [nice.body, rude.body], count: 2 });
      // The card's count in the feed follows the same rule.
      const card = async (userId: string) =>
        ((await get(userId, '/api/feed/1')).json() as PagedPostsResponse).posts.find(
          (p) => p._id === post.id,
        );
      expect((await card(reporter.id))?.commentCount).toBe(1);
      expect((await card(bystander.id))?.commentCount).toBe(2);
      // The post itself stays visible to the reporter.
      expect((await get(reporter.id, `/api/posts/${post.id}`)).statusCode).toBe(200);
      // Reporting it again updates the report, although the reporter no longer sees it.
      const again = await send(reporter.id, { targetType: 'comment', targetId: rude.id, reason: 'spam' });
      expect(again.statusCode, again.body).toBe(200);
    });

    it('a person: their profile, with a snapshot of their name and picture', async () => {
      const res = await send(reporter.id, { targetType: 'user', targetId: author.id, reason: 'harassment' });
      expect(res.statusCode, res.body).toBe(201);
      const [row] = (await reportRows(reporter.id)).filter((r) => r.targetId === author.id);
      expect(row).toMatchObject({ targetType: 'user', targetUserId: author.id });
      expect(row!.snapshot).toEqual({ username: author.username, profilePicKey: null });
    });

    it("a cat's page: its creator is the one reported", async () => {
      const cat = await createCat(t.db, author.id, { name: 'Biscuit', description: 'Orange' });
      const res = await send(reporter.id, { targetType: 'cat', targetId: cat.id, reason: 'off_topic' });
      expect(res.statusCode, res.body).toBe(201);
      const [row] = (await reportRows(reporter.id)).filter((r) => r.targetId === cat.id);
      expect(row).toMatchObject({ targetType: 'cat', targetUserId: author.id });
      expect(row!.snapshot).toEqual({ name: 'Biscuit', description: 'Orange', coverPostId: null });
    });

    it('a cat whose creator left: reported with nobody behind it, and blockAuthor blocks nobody', async () => {
      const gone = await createUser(t.db);
      const cat = await createCat(t.db, gone.id, { caretakers: [bystander.id] });
      await t.db.update(cats).set({ createdBy: null }).where(eq(cats.id, cat.id));
      const res = await send(reporter.id, {
        targetType: 'cat',
        targetId: cat.id,
        reason: 'other',
        blockAuthor: true,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect((res.json() as ReportReceipt).blocked).toBe(false);
      expect((await t.db.select().from(blocks).where(eq(blocks.blockerId, reporter.id))).length).toBe(0);
    });
  });

  describe('blocking in the same step', () => {
    it("blocks a post's author: neither sees the other any more", async () => {
      const troll = await createUser(t.db);
      const me = await createUser(t.db);
      const post = await createPost(t.db, troll.id);
      const other = await createPost(t.db, troll.id);
      const res = await send(me.id, {
        targetType: 'post',
        targetId: post.id,
        reason: 'spam',
        blockAuthor: true,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect((res.json() as ReportReceipt).blocked).toBe(true);
      const rows = await t.db
        .select()
        .from(blocks)
        .where(and(eq(blocks.blockerId, me.id), eq(blocks.blockedId, troll.id)));
      expect(rows).toHaveLength(1);
      expect(await feedIds(me.id)).not.toContain(other.id);
      expect((await get(troll.id, `/api/profile/getUserProfile/${me.id}`)).statusCode).toBe(404);
    });

    it("blocks a comment's author", async () => {
      const troll = await createUser(t.db);
      const me = await createUser(t.db);
      const post = await createPost(t.db, bystander.id);
      const comment = await addComment(troll.id, post.id, 'Nasty');
      const res = await send(me.id, {
        targetType: 'comment',
        targetId: comment.id,
        reason: 'harassment',
        blockAuthor: true,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect((res.json() as ReportReceipt).blocked).toBe(true);
      expect(await t.db.select().from(blocks).where(eq(blocks.blockerId, me.id))).toEqual([
        expect.objectContaining({ blockedId: troll.id }),
      ]);
    });

    it('blocks a reported person, and then their profile is not there for the reporter', async () => {
      const troll = await createUser(t.db);
      const me = await createUser(t.db);
      const res = await send(me.id, {
        targetType: 'user',
        targetId: troll.id,
        reason: 'spam',
        blockAuthor: true,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect((await get(me.id, `/api/profile/getUserProfile/${troll.id}`)).statusCode).toBe(404);
    });
  });

  describe('refusals change nothing', () => {
    const refused = async (
      userId: string,
      payload: Record<string, unknown>,
      status: number,
      message: string,
    ): Promise<void> => {
      const before = await allReports();
      const hides = (await t.db.select().from(hiddenPosts)).length;
      const blockCount = (await t.db.select().from(blocks)).length;
      const res = await send(userId, payload);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toEqual({ message });
      expect(await allReports()).toBe(before);
      expect((await t.db.select().from(hiddenPosts)).length).toBe(hides);
      expect((await t.db.select().from(blocks)).length).toBe(blockCount);
    };

    it('unknown targets of every kind: 404', async () => {
      for (const targetType of ['post', 'comment', 'user', 'cat']) {
        await refused(
          reporter.id,
          { targetType, targetId: randomUUID(), reason: 'spam', blockAuthor: true },
          404,
          MODERATION_MESSAGES.targetNotFound,
        );
      }
    });

    it('a trashed post and comments on it: 404', async () => {
      const post = await createPost(t.db, author.id, { deletedAt: new Date() });
      const comment = await addComment(bystander.id, post.id, 'Before it went');
      await refused(
        reporter.id,
        { targetType: 'post', targetId: post.id, reason: 'spam' },
        404,
        MODERATION_MESSAGES.targetNotFound,
      );
      await refused(
        reporter.id,
        { targetType: 'comment', targetId: comment.id, reason: 'spam' },
        404,
        MODERATION_MESSAGES.targetNotFound,
      );
    });

    it('content behind a block, either way: 404 (a block leaves no trace)', async () => {
      const blocker = await createUser(t.db);
      const blocked = await createUser(t.db);
      await t.db.insert(blocks).values({ blockerId: blocker.id, blockedId: blocked.id });
      const post = await createPost(t.db, blocker.id);
      const comment = await addComment(blocker.id, (await createPost(t.db, bystander.id)).id, 'Hi');
      for (const payload of [
        { targetType: 'post', targetId: post.id },
        { targetType: 'comment', targetId: comment.id },
        { targetType: 'user', targetId: blocker.id },
      ]) {
        await refused(blocked.id, { ...payload, reason: 'spam' }, 404, MODERATION_MESSAGES.targetNotFound);
      }
      const theirs = await createPost(t.db, blocked.id);
      await refused(
        blocker.id,
        { targetType: 'post', targetId: theirs.id, reason: 'spam' },
        404,
        MODERATION_MESSAGES.targetNotFound,
      );
      await refused(
        blocker.id,
        { targetType: 'user', targetId: blocked.id, reason: 'spam' },
        404,
        MODERATION_MESSAGES.targetNotFound,
      );
    });

    it('a comment on a post the reporter hid, and content under moderation: 404', async () => {
      const me = await createUser(t.db);
      const hiddenPost = await createPost(t.db, author.id);
      await t.db.insert(hiddenPosts).values({ userId: me.id, postId: hiddenPost.id });
      const underIt = await addComment(bystander.id, hiddenPost.id, 'Under a hidden post');
      await refused(
        me.id,
        { targetType: 'comment', targetId: underIt.id, reason: 'spam' },
        404,
        MODERATION_MESSAGES.targetNotFound,
      );
      const removed = await createPost(t.db, author.id, { moderation: 'removed' });
      await refused(
        me.id,
        { targetType: 'post', targetId: removed.id, reason: 'spam' },
        404,
        MODERATION_MESSAGES.targetNotFound,
      );
      const pending = await addComment(bystander.id, (await createPost(t.db, author.id)).id, 'Pending');
      await t.db.update(comments).set({ moderation: 'pending_review' }).where(eq(comments.id, pending.id));
      await refused(
        me.id,
        { targetType: 'comment', targetId: pending.id, reason: 'spam' },
        404,
        MODERATION_MESSAGES.targetNotFound,
      );
    });

    it('a merged cat and a removed cat: 404', async () => {
      const survivor = await createCat(t.db, author.id);
      const merged = await createCat(t.db, author.id, { mergedInto: survivor.id });
      const removed = await createCat(t.db, author.id, { removedAt: new Date() });
      for (const cat of [merged, removed]) {
        await refused(
          reporter.id,
          { targetType: 'cat', targetId: cat.id, reason: 'spam' },
          404,
          MODERATION_MESSAGES.targetNotFound,
        );
      }
    });

    it('reporting oneself, one’s own post, comment or cat: 403', async () => {
      const me = await createUser(t.db);
      const post = await createPost(t.db, me.id);
      const comment = await addComment(me.id, (await createPost(t.db, author.id)).id, 'Mine');
      const cat = await createCat(t.db, me.id);
      for (const payload of [
        { targetType: 'user', targetId: me.id },
        { targetType: 'post', targetId: post.id },
        { targetType: 'comment', targetId: comment.id },
        { targetType: 'cat', targetId: cat.id },
      ]) {
        await refused(
          me.id,
          { ...payload, reason: 'spam', blockAuthor: true },
          403,
          MODERATION_MESSAGES.reportOwn,
        );
      }
    });

    it('bad input: 400 with the schema’s message', async () => {
      const post = await createPost(t.db, author.id);
      const base = { targetType: 'post', targetId: post.id, reason: 'spam' };
      await refused(
        reporter.id,
        { ...base, targetType: 'group' },
        400,
        MODERATION_MESSAGES.targetTypeInvalid,
      );
      await refused(
        reporter.id,
        { ...base, targetId: 'not-an-id' },
        400,
        MODERATION_MESSAGES.targetIdInvalid,
      );
      await refused(reporter.id, { ...base, reason: 'ugly' }, 400, MODERATION_MESSAGES.reasonInvalid);
      await refused(reporter.id, { ...base, reason: undefined }, 400, MODERATION_MESSAGES.reasonInvalid);
      await refused(reporter.id, { ...base, note: 'x'.repeat(1001) }, 400, MODERATION_MESSAGES.noteTooLong);
      await refused(reporter.id, { ...base, note: 'bad\u0007bell' }, 400, MODERATION_MESSAGES.noteControls);
      // A note of exactly 1,000 characters is fine.
      const ok = await send(reporter.id, { ...base, note: 'y'.repeat(1000) });
      expect(ok.statusCode, ok.body).toBe(201);
    });

    it('the demo account: 403, and anonymous: 401', async () => {
      const post = await createPost(t.db, author.id);
      await refused(
        DEMO_USER_ID,
        { targetType: 'post', targetId: post.id, reason: 'spam' },
        403,
        DEMO_DISABLED_MESSAGE,
      );
      const anonymous = await t.app.inject({
        method: 'POST',
        url: '/api/reports',
        payload: { targetType: 'post', targetId: post.id, reason: 'spam' },
      });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('the hourly limit', () => {
    it(`refuses a report or update beyond ${REPORTS_PER_HOUR} in an hour with 429, counted in the database`, async () => {
      const busy = await createUser(t.db);
      const targets = await Promise.all(
        Array.from({ length: REPORTS_PER_HOUR }, () => createPost(t.db, author.id)),
      );
      // An old report, updated an hour and more ago, does not count.
      const old = await createPost(t.db, author.id);
      expect((await send(busy.id, { targetType: 'post', targetId: old.id, reason: 'spam' })).statusCode).toBe(
        201,
      );
      await t.db
        .update(reports)
        .set({
          createdAt: new Date(Date.now() - 2 * 60 * 60 * 1000),
          updatedAt: new Date(Date.now() - 61 * 60 * 1000),
        })
        .where(eq(reports.reporterId, busy.id));
      for (const [i, post] of targets.entries()) {
        const res = await send(busy.id, { targetType: 'post', targetId: post.id, reason: 'spam' });
        expect(res.statusCode, `report ${i + 1}: ${res.body}`).toBe(201);
      }
      const before = await allReports();
      const extra = await createPost(t.db, author.id);
      const over = await send(busy.id, { targetType: 'post', targetId: extra.id, reason: 'spam' });
      expect(over.statusCode).toBe(429);
      expect(over.json()).toEqual({ message: MODERATION_MESSAGES.tooManyReports });
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      // An update counts as well, and is refused the same way without changing the report.
      const update = await send(busy.id, { targetType: 'post', targetId: targets[0]!.id, reason: 'other' });
      expect(update.statusCode).toBe(429);
      expect(await allReports()).toBe(before);
      const [first] = await t.db
        .select()
        .from(reports)
        .where(and(eq(reports.reporterId, busy.id), eq(reports.targetId, targets[0]!.id)));
      expect(first!.reason).toBe('spam');
      expect(
        (
          await t.db
            .select()
            .from(hiddenPosts)
            .where(and(eq(hiddenPosts.userId, busy.id), eq(hiddenPosts.postId, extra.id)))
        ).length,
      ).toBe(0);
      // Another account is not affected.
      expect(
        (await send(reporter.id, { targetType: 'post', targetId: extra.id, reason: 'spam' })).statusCode,
      ).toBe(201);
    });
  });

  it(`lets exactly ${REPORTS_PER_HOUR} of ${REPORTS_PER_HOUR + 5} simultaneous reports through`, async () => {
    // On PostgreSQL they run on separate connections: the per-reporter lock keeps the count exact.
    const busy = await createUser(t.db);
    const targets = await Promise.all(
      Array.from({ length: REPORTS_PER_HOUR + 5 }, () => createPost(t.db, author.id)),
    );
    const statuses = await Promise.all(
      targets.map(
        async (post) =>
          (await send(busy.id, { targetType: 'post', targetId: post.id, reason: 'spam' })).statusCode,
      ),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(REPORTS_PER_HOUR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect(await reportRows(busy.id)).toHaveLength(REPORTS_PER_HOUR);
  });

  describe('hiding for everyone after trusted reports', () => {
    const account = (ageDays: number) =>
      createUser(t.db, { createdAt: new Date(Date.now() - ageDays * DAY) });
    const moderationOf = async (kind: 'post' | 'comment', id: string) => {
      const table = kind === 'post' ? posts : comments;
      const [row] = await t.db.select({ moderation: table.moderation }).from(table).where(eq(table.id, id));
      return row!.moderation;
    };
    const reportBy = async (users: CreatedUser[], kind: 'post' | 'comment', id: string) => {
      for (const u of users) {
        const res = await send(u.id, { targetType: kind, targetId: id, reason: 'animal_cruelty' });
        expect(res.statusCode, res.body).toBe(201);
      }
    };

    it('three fresh accounts do not hide a post', async () => {
      const post = await createPost(t.db, author.id);
      await reportBy([await account(1), await account(3), await account(6)], 'post', post.id);
      expect(await moderationOf('post', post.id)).toBeNull();
      expect(await feedIds(bystander.id)).toContain(post.id);
    });

    it('two trusted accounts and a fresh one do not hide a post', async () => {
      const post = await createPost(t.db, author.id);
      await reportBy([await account(30), await account(8), await account(2)], 'post', post.id);
      expect(await moderationOf('post', post.id)).toBeNull();
    });

    it('three trusted accounts hide a post pending review; the same one reporting twice counts once', async () => {
      const post = await createPost(t.db, author.id);
      const [a, b, c] = [await account(30), await account(10), await account(8)];
      await reportBy([a!, b!], 'post', post.id);
      const again = await send(a!.id, { targetType: 'post', targetId: post.id, reason: 'spam' });
      expect(again.statusCode).toBe(200);
      expect(await moderationOf('post', post.id)).toBeNull();
      await reportBy([c!], 'post', post.id);
      expect(await moderationOf('post', post.id)).toBe('pending_review');
      // The reporters no longer see it (their own hide); nor, once the visibility rules take the
      // moderation column into account, does anyone else but the author.
      for (const u of [a!, b!, c!]) expect(await feedIds(u.id)).not.toContain(post.id);
    });

    it('resolved reports do not count', async () => {
      const post = await createPost(t.db, author.id);
      const [a, b, c] = [await account(30), await account(10), await account(8)];
      await reportBy([a!, b!], 'post', post.id);
      await t.db.update(reports).set({ resolvedAt: new Date() }).where(eq(reports.targetId, post.id));
      await reportBy([c!], 'post', post.id);
      expect(await moderationOf('post', post.id)).toBeNull();
    });

    it('once a moderator decided, the same reporters cannot hide it again; new reporters still count', async () => {
      const post = await createPost(t.db, author.id);
      const decided = [await account(30), await account(10), await account(8)];
      await reportBy(decided, 'post', post.id);
      expect(await moderationOf('post', post.id)).toBe('pending_review');
      const moderator = await account(100);
      await t.db.update(users).set({ role: 'moderator' }).where(eq(users.id, moderator.id));
      const [open] = await t.db.select({ id: reports.id }).from(reports).where(eq(reports.targetId, post.id));
      const dismissed = await t.app.inject({
        method: 'POST',
        url: `/api/moderation/reports/${open!.id}/actions`,
        headers: await authHeader(t.app, moderator.id),
        payload: { actions: [{ action: 'dismiss' }] },
      });
      expect(dismissed.statusCode, dismissed.body).toBe(200);
      expect(await moderationOf('post', post.id)).toBeNull();

      // The same three report again, over and over: the post stays up, and their reports are in the queue.
      for (let round = 0; round < 3; round++) {
        for (const u of decided) {
          const res = await send(u.id, { targetType: 'post', targetId: post.id, reason: 'spam' });
          expect(res.statusCode, res.body).toBe(200);
        }
        expect(await moderationOf('post', post.id)).toBeNull();
      }
      const reopened = await t.db.select().from(reports).where(eq(reports.targetId, post.id));
      expect(reopened.filter((r) => r.resolvedAt === null)).toHaveLength(3);
      expect(await feedIds(bystander.id)).toContain(post.id);

      // Two new trusted reporters with the three decided ones: still up; a third new one hides it.
      await reportBy([await account(20), await account(9)], 'post', post.id);
      expect(await moderationOf('post', post.id)).toBeNull();
      await reportBy([await account(40)], 'post', post.id);
      expect(await moderationOf('post', post.id)).toBe('pending_review');
    });

    it('three trusted accounts hide a comment; a removed one stays removed', async () => {
      const post = await createPost(t.db, bystander.id);
      const comment = await addComment(author.id, post.id, 'Horrible');
      const fresh = await addComment(author.id, post.id, 'Also horrible');
      await reportBy([await account(9), await account(20), await account(2)], 'comment', fresh.id);
      expect(await moderationOf('comment', fresh.id)).toBeNull();
      const trusted = [await account(9), await account(20), await account(40)];
      await reportBy(trusted, 'comment', comment.id);
      expect(await moderationOf('comment', comment.id)).toBe('pending_review');
      expect((await commentTexts(trusted[0]!.id, post.id)).texts).not.toContain('Horrible');

      const removed = await addComment(author.id, post.id, 'Removed already');
      await reportBy([await account(9), await account(20)], 'comment', removed.id);
      await t.db.update(comments).set({ moderation: 'removed' }).where(eq(comments.id, removed.id));
      // A removed comment is not there to report any more.
      const late = await send((await account(50)).id, {
        targetType: 'comment',
        targetId: removed.id,
        reason: 'spam',
      });
      expect(late.statusCode).toBe(404);
      expect(await moderationOf('comment', removed.id)).toBe('removed');
    });
  });
});
