import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP_MESSAGES, type CreateGroupResponse, type PagedPostsResponse } from '@cats/contracts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { fixture, multipartBody } from '../../../test/fixtures/images.ts';
import { groupMembers, postGroups } from '../../db/schema/index.ts';

/**
 * Issue 23: leaving or being removed from a group while sharing a post with it must not leave the
 * post shared. Before the membership was part of the share (drizzle/0005), a share checked the
 * membership first and wrote afterwards, and a removal committed in between left the post shared
 * with people its author had left (5 runs in 15 on PostgreSQL).
 */
describe('a share and a removal at the same time', () => {
  let t: TestApp;
  let owner: CreatedUser;
  let groupId: string;

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await createUser(t.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/groups/createGroup',
      headers: await authHeader(t.app, owner.id),
      payload: { submitData: 'Racers' },
    });
    groupId = (res.json() as CreateGroupResponse).group._id;
  });
  afterAll(async () => t?.close());

  const sharesOf = async (postId: string) =>
    t.db
      .select()
      .from(postGroups)
      .where(and(eq(postGroups.postId, postId), eq(postGroups.groupId, groupId)));

  async function join(user: CreatedUser) {
    await t.db.insert(groupMembers).values({ groupId, userId: user.id, role: 'member' });
  }

  it.each(['removed by the owner', 'leaving'] as const)(
    'never leaves the post shared when the member is %s meanwhile (15 rounds)',
    async (how) => {
      for (let round = 0; round < 15; round += 1) {
        const member = await createUser(t.db);
        await join(member);
        const post = await createPost(t.db, member.id, {
          latitude: 51.5,
          longitude: -0.12,
          showLocation: true,
        });
        const memberAuth = await authHeader(t.app, member.id);
        const removerAuth = how === 'leaving' ? memberAuth : await authHeader(t.app, owner.id);
        const share = t.app.inject({
          method: 'PUT',
          url: `/api/posts/${post.id}/groups`,
          headers: memberAuth,
          payload: { groupIds: [groupId] },
        });
        const remove = t.app.inject({
          method: 'DELETE',
          url: `/api/groups/${groupId}/members/${member.id}`,
          headers: removerAuth,
        });
        const [shared, removed] = await Promise.all([share, remove]);
        expect(removed.statusCode, removed.body).toBe(200);
        // Either the share came first (and went with the membership) or it was refused clearly.
        if (shared.statusCode !== 200)
          expect(shared.json(), shared.body).toEqual({ message: GROUP_MESSAGES.notGroupMember });
        expect(await sharesOf(post.id), `round ${round}`).toEqual([]);
        const feed = await t.app.inject({
          method: 'GET',
          url: `/api/groups/${groupId}/posts`,
          headers: await authHeader(t.app, owner.id),
        });
        expect((feed.json() as PagedPostsResponse).posts.map((p) => p._id)).not.toContain(post.id);
      }
    },
  );

  it('refuses a share by a non-member in the database itself, whatever the code around it does', async () => {
    const outsider = await createUser(t.db);
    const post = await createPost(t.db, outsider.id);
    await expect(
      t.db.insert(postGroups).values({ postId: post.id, groupId, userId: outsider.id }),
    ).rejects.toThrow();
    // Nor can a share name someone else as the post's author.
    const member = await createUser(t.db);
    await join(member);
    await expect(
      t.db.insert(postGroups).values({ postId: post.id, groupId, userId: member.id }),
    ).rejects.toThrow();
    expect(await sharesOf(post.id)).toEqual([]);
  });

  it('createPost leaves out a group its author was removed from, and still creates the post', async () => {
    const member = await createUser(t.db);
    await join(member);
    await t.db
      .delete(groupMembers)
      .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, member.id)));
    const body = multipartBody(
      { comment: 'after leaving', groupIds: JSON.stringify([groupId]) },
      { name: 'cat.jpg', type: 'image/jpeg', data: fixture('photo-gps.jpg') },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/posts/createPost',
      headers: { ...(await authHeader(t.app, member.id)), ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { post } = res.json() as { post: { _id: string; groupIds: string[] } };
    expect(post.groupIds).toEqual([]);
    expect(await sharesOf(post._id)).toEqual([]);
  });
});
