import { randomUUID } from 'node:crypto';
import { ANONYMISED_USERNAME, DEMO_USER_ID, type CommentsResponse } from '@cats/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, comments, users } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';

describe('comments: getComments, createComment, delete', () => {
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

  const getComments = async (userId: string, postId: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/posts/getComments/${postId}`,
      headers: await authHeader(t.app, userId),
    });
  const addComment = async (userId: string, postId: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/posts/createComment/${postId}`,
      headers: await authHeader(t.app, userId),
      payload: payload as object,
    });
  const deleteComment = async (userId: string, commentId: string) =>
    t.app.inject({
      method: 'DELETE',
      url: `/api/posts/comments/${commentId}`,
      headers: await authHeader(t.app, userId),
    });
  const texts = (body: CommentsResponse) => body.comments.map((c) => c.comment);

  it('starts empty and answers the newest page, oldest first, after each comment', async () => {
    const post = await createPost(t.db, owner.id);
    const empty = await getComments(alice.id, post.id);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ postId: post.id, comments: [], commentCount: 0, info: { before: null } });

    const first = await addComment(alice.id, post.id, { newComment: '  What a lovely tabby  ' });
    expect(first.statusCode).toBe(200);
    const firstBody: CommentsResponse = first.json();
    expect(firstBody.postId).toBe(post.id);
    expect(firstBody.comments).toHaveLength(1);
    expect(firstBody.comments[0]).toMatchObject({
      comment: 'What a lovely tabby',
      user: { _id: alice.id, username: alice.username },
      canDelete: true,
    });
    expect(firstBody.comments[0]!.user.profilePicUrl).toBeUndefined();
    expect(Date.parse(firstBody.comments[0]!.createdAt)).not.toBeNaN();

    const second = await addComment(bob.id, post.id, { newComment: 'Seen him on Elm Street' });
    expect(texts(second.json())).toEqual(['What a lovely tabby', 'Seen him on Elm Street']);

    const listed = await getComments(owner.id, post.id);
    expect(texts(listed.json())).toEqual(['What a lovely tabby', 'Seen him on Elm Street']);
    expect(listed.json().comments.map((c: { user: { _id: string } }) => c.user._id)).toEqual([
      alice.id,
      bob.id,
    ]);
  });

  it('shows the author picture URLs when the author has one', async () => {
    const withPic = await createUser(t.db, { profilePicKey: `avatars/${'ab'.repeat(32)}` });
    const post = await createPost(t.db, owner.id);
    const res = await addComment(withPic.id, post.id, { newComment: 'Purr' });
    expect(res.json().comments[0].user).toEqual({
      _id: withPic.id,
      username: withPic.username,
      profilePicUrl: `/media/avatars/${'ab'.repeat(32)}/300.webp`,
      avatarUrl: `/media/avatars/${'ab'.repeat(32)}/72.webp`,
    });
  });

  it('marks canDelete for the author and the post owner only', async () => {
    const post = await createPost(t.db, owner.id);
    await addComment(alice.id, post.id, { newComment: 'by alice' });
    await addComment(bob.id, post.id, { newComment: 'by bob' });
    const flags = async (userId: string) =>
      (await getComments(userId, post.id)).json().comments.map((c: { canDelete: boolean }) => c.canDelete);
    expect(await flags(alice.id)).toEqual([true, false]);
    expect(await flags(bob.id)).toEqual([false, true]);
    expect(await flags(owner.id)).toEqual([true, true]);
    const stranger = await createUser(t.db);
    expect(await flags(stranger.id)).toEqual([false, false]);
  });

  it('validates the comment: 1 to 500 characters after trimming', async () => {
    const post = await createPost(t.db, owner.id);
    for (const payload of [
      { newComment: '' },
      { newComment: '   \n\t ' },
      { newComment: 'x'.repeat(501) },
      { newComment: 42 },
      {},
    ]) {
      const res = await addComment(alice.id, post.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    }
    expect((await addComment(alice.id, post.id, { newComment: '' })).json().message).toBe(
      'Comment cannot be empty',
    );
    expect((await addComment(alice.id, post.id, { newComment: 'x'.repeat(501) })).json().message).toBe(
      'Comment is at most 500 characters',
    );
    expect(await t.db.select().from(comments).where(eq(comments.postId, post.id))).toHaveLength(0);

    const nul = await addComment(alice.id, post.id, { newComment: 'a\u0000b' });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toEqual({ message: 'Comment contains invalid characters' });
    for (const control of ['\u0007', '\u001b[31m', '\u007f']) {
      const res = await addComment(alice.id, post.id, { newComment: `a${control}b` });
      expect(res.statusCode, JSON.stringify(control)).toBe(400);
      expect(res.json()).toEqual({ message: 'Comment contains invalid characters' });
    }
    expect(await t.db.select().from(comments).where(eq(comments.postId, post.id))).toHaveLength(0);
    // Line breaks are kept, inside the text; trimming takes them off the ends only.
    const lines = await addComment(alice.id, post.id, { newComment: '\nFirst line\r\nSecond\tline\r\n' });
    expect(lines.statusCode).toBe(200);
    expect(lines.json().comments[0].comment).toBe('First line\nSecond\tline');
    await deleteComment(alice.id, lines.json().comments[0]._id);
    const unicode = await addComment(alice.id, post.id, { newComment: 'Miau 🐈 ñ \ud800' });
    expect(unicode.statusCode).toBe(200);
    await deleteComment(alice.id, unicode.json().comments[0]._id);

    const longest = await addComment(alice.id, post.id, { newComment: ` ${'y'.repeat(500)} ` });
    expect(longest.statusCode).toBe(200);
    expect(longest.json().comments[0].comment).toBe('y'.repeat(500));
  });

  it('refuses the demo user with 403 and shows it anonymised usernames', async () => {
    const post = await createPost(t.db, owner.id);
    const refused = await addComment(DEMO_USER_ID, post.id, { newComment: 'hello' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'Feature disabled for demo user' });
    expect(refused.headers['www-authenticate']).toBeUndefined();
    // Refused before validation too.
    expect((await addComment(DEMO_USER_ID, post.id, { newComment: '' })).statusCode).toBe(403);
    expect(await t.db.select().from(comments).where(eq(comments.postId, post.id))).toHaveLength(0);

    await addComment(alice.id, post.id, { newComment: 'visible to the demo' });
    const seen = await getComments(DEMO_USER_ID, post.id);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().comments[0].user).toEqual({ _id: alice.id, username: ANONYMISED_USERNAME });
    expect(seen.json().comments[0].canDelete).toBe(false);
  });

  it('answers 404 for unknown and malformed post ids alike', async () => {
    for (const id of [randomUUID(), 'nope', '1; drop table posts']) {
      const path = encodeURIComponent(id);
      const get = await getComments(alice.id, path);
      expect(get.statusCode, id).toBe(404);
      expect(get.json()).toEqual({ message: 'Post not found' });
      const add = await addComment(alice.id, path, { newComment: 'hi' });
      expect(add.statusCode, id).toBe(404);
    }
  });

  describe('deleting', () => {
    it('lets the author delete their comment and answers the updated list', async () => {
      const post = await createPost(t.db, owner.id);
      await addComment(alice.id, post.id, { newComment: 'keep' });
      const added = await addComment(alice.id, post.id, { newComment: 'remove me' });
      const target = added.json().comments[1]._id as string;
      const res = await deleteComment(alice.id, target);
      expect(res.statusCode).toBe(200);
      expect(res.json().postId).toBe(post.id);
      expect(texts(res.json())).toEqual(['keep']);
      expect(await t.db.select().from(comments).where(eq(comments.id, target))).toHaveLength(0);
    });

    it("lets the post owner delete anyone's comment on their post", async () => {
      const post = await createPost(t.db, owner.id);
      const added = await addComment(bob.id, post.id, { newComment: 'rude remark' });
      const res = await deleteComment(owner.id, added.json().comments[0]._id);
      expect(res.statusCode).toBe(200);
      expect(res.json().comments).toEqual([]);
    });

    it('refuses everyone else with 403 and keeps the comment', async () => {
      const post = await createPost(t.db, owner.id);
      const added = await addComment(alice.id, post.id, { newComment: 'mine' });
      const id = added.json().comments[0]._id as string;
      for (const userId of [bob.id, DEMO_USER_ID]) {
        const res = await deleteComment(userId, id);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({
          message: 'You can only delete your own comments or comments on your posts',
        });
        expect(res.headers['www-authenticate']).toBeUndefined();
      }
      // Owning another post gives no right over this one.
      const otherPost = await createPost(t.db, bob.id);
      expect(otherPost.id).not.toBe(post.id);
      expect((await deleteComment(bob.id, id)).statusCode).toBe(403);
      expect(await t.db.select().from(comments).where(eq(comments.id, id))).toHaveLength(1);
    });

    it('answers 404 for unknown and malformed comment ids', async () => {
      for (const id of [randomUUID(), 'abc', '0']) {
        const res = await deleteComment(alice.id, id);
        expect(res.statusCode, id).toBe(404);
        expect(res.json()).toEqual({ message: 'Comment not found' });
      }
    });
  });

  describe('hiding and blocking', () => {
    it('answers 404 for comments of a post the viewer hid, while others still see them', async () => {
      const post = await createPost(t.db, owner.id);
      await addComment(bob.id, post.id, { newComment: 'still here' });
      const hider = await createUser(t.db);
      const hide = await t.app.inject({
        method: 'PUT',
        url: `/api/posts/hidePost/${post.id}`,
        headers: await authHeader(t.app, hider.id),
        payload: { currentUserId: hider.id },
      });
      expect(hide.statusCode).toBe(200);
      expect((await getComments(hider.id, post.id)).statusCode).toBe(404);
      expect((await addComment(hider.id, post.id, { newComment: 'x' })).statusCode).toBe(404);
      expect(texts((await getComments(alice.id, post.id)).json())).toEqual(['still here']);
    });

    it('leaves out comments by users the viewer blocked and by users who blocked the viewer', async () => {
      const post = await createPost(t.db, owner.id);
      const carol = await createUser(t.db);
      const dave = await createUser(t.db);
      await addComment(carol.id, post.id, { newComment: 'carol' });
      await addComment(dave.id, post.id, { newComment: 'dave' });
      await addComment(alice.id, post.id, { newComment: 'alice' });

      const block = await t.app.inject({
        method: 'PUT',
        url: '/api/profile/blockUser/',
        headers: await authHeader(t.app, alice.id),
        payload: { blockedUser: { _id: carol.id, username: carol.username }, postId: post.id },
      });
      expect(block.statusCode).toBe(200);
      await t.db.insert(blocks).values({ blockerId: dave.id, blockedId: alice.id });

      expect(texts((await getComments(alice.id, post.id)).json())).toEqual(['alice']);
      // Both ways: carol no longer sees alice's comment either, and dave does not see alice's.
      expect(texts((await getComments(carol.id, post.id)).json())).toEqual(['carol', 'dave']);
      expect(texts((await getComments(dave.id, post.id)).json())).toEqual(['carol', 'dave']);
      // Uninvolved users see all three.
      expect(texts((await getComments(bob.id, post.id)).json())).toEqual(['carol', 'dave', 'alice']);
      // Adding one answers the filtered list too.
      expect(texts((await addComment(alice.id, post.id, { newComment: 'again' })).json())).toEqual([
        'alice',
        'again',
      ]);

      // A comment the viewer cannot see is 404 for them, not 403.
      const carolsComment = await t.db.select().from(comments).where(eq(comments.userId, carol.id));
      expect((await deleteComment(alice.id, carolsComment[0]!.id)).statusCode).toBe(404);
    });

    it('answers 404 for a post whose author shares a block with the viewer', async () => {
      const blocker = await createUser(t.db);
      const post = await createPost(t.db, blocker.id);
      await t.db.insert(blocks).values({ blockerId: blocker.id, blockedId: alice.id });
      expect((await getComments(alice.id, post.id)).statusCode).toBe(404);
      expect((await addComment(alice.id, post.id, { newComment: 'hi' })).statusCode).toBe(404);

      const blocked = await createUser(t.db);
      const post2 = await createPost(t.db, blocked.id);
      await t.db.insert(blocks).values({ blockerId: alice.id, blockedId: blocked.id });
      expect((await getComments(alice.id, post2.id)).statusCode).toBe(404);
      expect((await getComments(bob.id, post2.id)).statusCode).toBe(200);
    });
  });

  it('removes comments of a deleted user from the list', async () => {
    const post = await createPost(t.db, owner.id);
    const leaver = await createUser(t.db);
    await addComment(leaver.id, post.id, { newComment: 'bye' });
    await t.db.delete(users).where(eq(users.id, leaver.id));
    expect((await getComments(alice.id, post.id)).json().comments).toEqual([]);
  });
});
