import { randomUUID } from 'node:crypto';
import { ANONYMISED_USERNAME, DEMO_USER_ID, type CommentsResponse } from '@cats/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, comments, posts } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';

/** Issue 24: a post's comments come 20 a page, newest page first, earlier ones by a `before` cursor. */
describe('comments: pages and the before cursor', () => {
  let t: TestApp;
  let owner: CreatedUser;
  let alice: CreatedUser;
  let bob: CreatedUser;
  beforeAll(async () => {
    t = await buildTestApp();
    owner = await createUser(t.db);
    alice = await createUser(t.db);
    bob = await createUser(t.db);
  });
  afterAll(async () => {
    await t.close();
  });

  const getComments = async (userId: string, postId: string, before?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/posts/getComments/${postId}`,
      query: before === undefined ? {} : { before },
      headers: await authHeader(t.app, userId),
    });
  const addComment = async (userId: string, postId: string, newComment: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/posts/createComment/${postId}`,
      headers: await authHeader(t.app, userId),
      payload: { newComment },
    });
  const texts = (body: CommentsResponse) => body.comments.map((c) => c.comment);

  /**
   * `count` comments 'c1'..'cN' a minute apart, except that every third shares its predecessor's
   * instant (the id then decides the order, and a page edge may fall between the two). Returns their
   * texts in the order the API must list them: by (created_at, id).
   */
  async function seedComments(postId: string, count: number, authorOf: (i: number) => string) {
    const start = Date.UTC(2025, 0, 1);
    const rows = Array.from({ length: count }, (_, k) => {
      const i = k + 1;
      const minute = i % 3 === 0 ? i - 1 : i;
      return { postId, userId: authorOf(i), body: `c${i}`, createdAt: new Date(start + minute * 60_000) };
    });
    const inserted = await t.db
      .insert(comments)
      .values(rows)
      .returning({ id: comments.id, body: comments.body, createdAt: comments.createdAt });
    return inserted
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map((r) => r.body);
  }

  /** Every page from the newest back to the first; each page's texts, newest page first. */
  async function walk(userId: string, postId: string) {
    const pages: CommentsResponse[] = [];
    let before: string | undefined;
    for (;;) {
      const res = await getComments(userId, postId, before);
      expect(res.statusCode).toBe(200);
      const body: CommentsResponse = res.json();
      pages.push(body);
      if (body.info.before === null) return pages;
      before = body.info.before;
      expect(pages.length).toBeLessThan(10);
    }
  }

  it('answers the newest 20, oldest first within the page, and earlier pages through info.before', async () => {
    const post = await createPost(t.db, owner.id);
    const expected = await seedComments(post.id, 45, (i) => (i % 2 ? alice.id : bob.id));

    const pages = await walk(owner.id, post.id);
    expect(pages.map((p) => p.comments.length)).toEqual([20, 20, 5]);
    // The newest page holds the last 20, in the order the panel shows them.
    expect(texts(pages[0]!)).toEqual(expected.slice(25));
    expect(texts(pages[1]!)).toEqual(expected.slice(5, 25));
    expect(texts(pages[2]!)).toEqual(expected.slice(0, 5));
    // Every page carries the whole count (the card's), and together they hold each comment once.
    expect(pages.map((p) => p.commentCount)).toEqual([45, 45, 45]);
    const all = pages.toReversed().flatMap(texts);
    expect(all).toEqual(expected);
    expect(new Set(pages.flatMap((p) => p.comments.map((c) => c._id))).size).toBe(45);
    // The cursor is opaque: neither an id nor a date in clear.
    expect(pages[0]!.info.before).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('keeps a page stable while new comments arrive, and answers exactly 20 with no earlier page', async () => {
    const post = await createPost(t.db, owner.id);
    const expected = await seedComments(post.id, 20, () => alice.id);
    const newest = (await getComments(bob.id, post.id)).json() as CommentsResponse;
    expect(texts(newest)).toEqual(expected);
    expect(newest.info.before).toBeNull();

    const post2 = await createPost(t.db, owner.id);
    const expected2 = await seedComments(post2.id, 30, () => alice.id);
    const first = (await getComments(bob.id, post2.id)).json() as CommentsResponse;
    await addComment(alice.id, post2.id, 'arrives later');
    const earlier = (await getComments(bob.id, post2.id, first.info.before!)).json() as CommentsResponse;
    // The cursor is a position, not an offset: the comment that arrived does not shift the page.
    expect(texts(earlier)).toEqual(expected2.slice(0, 10));
    expect(earlier.commentCount).toBe(31);
  });

  it('answers the newest page to createComment and to a deletion, never the whole list', async () => {
    const post = await createPost(t.db, owner.id);
    const expected = await seedComments(post.id, 25, () => bob.id);

    const added = await addComment(alice.id, post.id, 'the newest');
    expect(added.statusCode).toBe(200);
    const body: CommentsResponse = added.json();
    expect(body.comments).toHaveLength(20);
    expect(texts(body)).toEqual([...expected.slice(6), 'the newest']);
    expect(body.comments.at(-1)).toMatchObject({ user: { _id: alice.id }, canDelete: true });
    expect(body.commentCount).toBe(26);
    expect(body.info.before).toEqual(expect.any(String));

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/posts/comments/${body.comments.at(-1)!._id}`,
      headers: await authHeader(t.app, alice.id),
    });
    expect(removed.statusCode).toBe(200);
    const after: CommentsResponse = removed.json();
    expect(texts(after)).toEqual(expected.slice(5));
    expect(after.commentCount).toBe(25);

    // The earlier page of the write's answer continues where it starts.
    const earlier = (await getComments(alice.id, post.id, after.info.before!)).json() as CommentsResponse;
    expect(texts(earlier)).toEqual(expected.slice(0, 5));
    expect(earlier.info.before).toBeNull();
  });

  it('refuses a cursor it did not make with 400 Invalid cursor', async () => {
    const post = await createPost(t.db, owner.id);
    await seedComments(post.id, 3, () => bob.id);
    const forged = (text: string) => Buffer.from(text).toString('base64url');
    for (const before of [
      'garbage',
      '!!!',
      forged('2025-01-01T00:00:00.000000Z'),
      forged(`yesterday|${randomUUID()}`),
      forged(`2025-13-45T99:99:99.000000Z|${randomUUID()}`),
      forged('2025-01-01T00:00:00.000000Z|not-a-uuid'),
    ]) {
      const res = await getComments(alice.id, post.id, before);
      expect(res.statusCode, before).toBe(400);
      expect(res.json(), before).toEqual({ message: 'Invalid cursor' });
    }
    const long = await getComments(alice.id, post.id, 'a'.repeat(201));
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toEqual(expect.any(String));
    // A cursor before every comment is no error: an empty page that still tells the count.
    const empty = await getComments(alice.id, post.id, forged(`2000-01-01T00:00:00.000000Z|${randomUUID()}`));
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ postId: post.id, comments: [], commentCount: 3, info: { before: null } });
  });

  it('leaves out, on every page and in the count, the comments of users the viewer shares a block with', async () => {
    const post = await createPost(t.db, owner.id);
    const carol = await createUser(t.db);
    const dave = await createUser(t.db);
    // 50 comments: every fifth by carol (alice blocked her), every fifth + 1 by dave (he blocked alice).
    const expected = await seedComments(post.id, 50, (i) =>
      i % 5 === 0 ? carol.id : i % 5 === 1 ? dave.id : bob.id,
    );
    await t.db.insert(blocks).values([
      { blockerId: alice.id, blockedId: carol.id },
      { blockerId: dave.id, blockedId: alice.id },
    ]);
    const hidden = new Set(
      (await t.db.select().from(comments).where(eq(comments.postId, post.id)))
        .filter((c) => c.userId === carol.id || c.userId === dave.id)
        .map((c) => c.body),
    );
    const visible = expected.filter((text) => !hidden.has(text));
    expect(visible).toHaveLength(30);

    const pages = await walk(alice.id, post.id);
    expect(pages.map((p) => p.comments.length)).toEqual([20, 10]);
    expect(pages.toReversed().flatMap(texts)).toEqual(visible);
    expect(pages.every((p) => p.commentCount === 30)).toBe(true);
    // Someone outside the blocks sees all 50.
    expect((await walk(bob.id, post.id)).toReversed().flatMap(texts)).toEqual(expected);
  });

  it('shows the demo account the pages with anonymised names', async () => {
    const post = await createPost(t.db, owner.id);
    await seedComments(post.id, 22, () => alice.id);
    const pages = await walk(DEMO_USER_ID, post.id);
    expect(pages.map((p) => p.comments.length)).toEqual([20, 2]);
    for (const c of pages.flatMap((p) => p.comments)) {
      expect(c.user).toEqual({ _id: alice.id, username: ANONYMISED_USERNAME });
      expect(c.canDelete).toBe(false);
    }
  });

  it('answers 404 for earlier pages of a post the viewer may not see', async () => {
    const post = await createPost(t.db, owner.id);
    await seedComments(post.id, 25, () => alice.id);
    const before = ((await getComments(bob.id, post.id)).json() as CommentsResponse).info.before!;
    await t.db.insert(blocks).values({ blockerId: owner.id, blockedId: bob.id });
    const res = await getComments(bob.id, post.id, before);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Post not found' });

    await t.db.update(posts).set({ deletedAt: new Date() }).where(eq(posts.id, post.id));
    expect((await getComments(alice.id, post.id, before)).statusCode).toBe(404);
    expect((await getComments(alice.id, randomUUID(), before)).statusCode).toBe(404);
  });
});
