import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  ANONYMISED_USERNAME,
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  GROUP_MESSAGES,
  type CreateGroupResponse,
  type GroupDetail,
  type GroupMapResponse,
  type GroupsResponse,
  type OwnJoinRequestsResponse,
  type PagedPostsResponse,
} from '@cats/contracts';
import {
  groupMembers,
  groups,
  joinRequests,
  notifications,
  postGroups,
  posts,
} from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { codeBase, generateCode } from './groups.service.ts';

const MALFORMED = ['not-a-uuid', '123', "1' or '1'='1", '00000000-0000-0000-0000-00000000000g'];
const UNKNOWN = '3f1c2b9a-1111-4222-8333-444455556666';

describe('groups', () => {
  let t: TestApp;
  let owner: CreatedUser;
  let stranger: CreatedUser;
  const as = (user: { id: string }) => authHeader(t.app, user.id);

  async function call<T = unknown>(
    user: { id: string },
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<{ status: number; body: T }> {
    const res = await t.app.inject({
      method,
      url,
      headers: await as(user),
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: res.statusCode, body: res.json() as T };
  }

  async function createGroup(user: { id: string }, name: string) {
    const res = await call<CreateGroupResponse>(user, 'POST', '/api/groups/createGroup', {
      submitData: name,
    });
    expect(res.status).toBe(200);
    return res.body.group;
  }

  /** A group owned by `groupOwner` with `members` already accepted. */
  async function groupWith(groupOwner: { id: string }, name: string, members: { id: string }[]) {
    const group = await createGroup(groupOwner, name);
    for (const m of members) {
      expect((await call(m, 'POST', '/api/groups/joinGroup', { submitData: group.code })).status).toBe(200);
      const accepted = await call(groupOwner, 'POST', `/api/groups/${group._id}/requests/${m.id}/accept`);
      expect(accepted.status).toBe(200);
    }
    return group;
  }

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await createUser(t.db);
    stranger = await createUser(t.db);
  });
  afterAll(async () => t?.close());

  describe('create', () => {
    it('creates a group owned by the caller with a Name-XXXX-XXXX code', async () => {
      const res = await call<CreateGroupResponse>(owner, 'POST', '/api/groups/createGroup', {
        submitData: '  Cat Lovers #1 ',
      });
      expect(res.status).toBe(200);
      const { group } = res.body;
      expect(group.groupName).toBe('Cat Lovers #1');
      expect(group.code).toMatch(/^CatLovers1-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
      expect(res.body.message).toContain(group.code);
      expect(res.body.ownedGroups).toContainEqual({ _id: group._id, groupName: 'Cat Lovers #1' });
      expect(res.body.memberGroups).toEqual([]);
      const rows = await t.db.select().from(groupMembers).where(eq(groupMembers.groupId, group._id));
      expect(rows).toEqual([expect.objectContaining({ userId: owner.id, role: 'owner' })]);
    });

    it('accepts exactly 20 characters and refuses 21, empty and missing names with a message', async () => {
      const twenty = 'A'.repeat(20);
      expect((await call(owner, 'POST', '/api/groups/createGroup', { submitData: twenty })).status).toBe(200);
      const tooLong = await call<{ message: string }>(owner, 'POST', '/api/groups/createGroup', {
        submitData: 'B'.repeat(21),
      });
      expect(tooLong).toEqual({ status: 400, body: { message: GROUP_MESSAGES.nameTooLong } });
      // 20 characters, some of them outside the BMP: counted as characters, not UTF-16 units.
      const emoji = '🐈'.repeat(20);
      expect((await call(owner, 'POST', '/api/groups/createGroup', { submitData: emoji })).status).toBe(200);
      for (const submitData of ['', '    ', undefined, 42]) {
        const res = await call<{ message: string }>(owner, 'POST', '/api/groups/createGroup', { submitData });
        expect(res.status).toBe(400);
        expect(res.body.message).toBe(GROUP_MESSAGES.nameRequired);
      }
      const names = (await t.db.select({ name: groups.name }).from(groups)).map((r) => r.name);
      expect(names.some((n) => n.startsWith('B'))).toBe(false);
    });

    it('gives same-named groups distinct codes; the database refuses a duplicate in any case', async () => {
      // Three groups named alike: codes must differ even if the secrets repeat.
      const created = await Promise.all(['Paris', 'paris', 'PARIS'].map((n) => createGroup(stranger, n)));
      const lower = created.map((g) => g.code.toLowerCase());
      expect(new Set(lower).size).toBe(3);
      // The database refuses a duplicate whatever the case (group-codes.test.ts: the service retries).
      const [first] = created;
      await expect(
        t.db.insert(groups).values({ name: 'x', code: first!.code.toUpperCase(), ownerId: stranger.id }),
      ).rejects.toThrow();
    });

    it('builds codes from the name without spaces, dashes or #', () => {
      expect(codeBase('New York')).toBe('NewYork');
      expect(codeBase('# # #')).toBe('Group');
      expect(codeBase('Cats-R-Us')).toBe('CatsRUs');
      expect(generateCode('San José')).toMatch(/^SanJosé-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    });

    it('lists owned and member groups separately', async () => {
      const outsider = await createUser(t.db);
      const host = await createUser(t.db);
      const own = await createGroup(outsider, 'Mine');
      const theirs = await groupWith(host, 'Theirs', [outsider]);
      const res = await call<GroupsResponse>(outsider, 'GET', '/api/groups');
      expect(res.body).toEqual({
        ownedGroups: [{ _id: own._id, groupName: 'Mine' }],
        memberGroups: [{ _id: theirs._id, groupName: 'Theirs' }],
      });
    });
  });

  describe('join requests', () => {
    it('walks request, pending list, accept, membership', async () => {
      const a = await createUser(t.db);
      const b = await createUser(t.db, { username: `bob_${Date.now().toString(36)}` });
      const group = await createGroup(a, 'London');

      const joined = await call<{ message: string }>(b, 'POST', '/api/groups/joinGroup', {
        // Codes match whatever the case and surrounding spaces.
        submitData: `  ${group.code.toLowerCase()} `,
      });
      expect(joined).toEqual({ status: 200, body: { message: GROUP_MESSAGES.requestSent } });
      // Not a member yet: the group stays closed to them.
      expect((await call(b, 'GET', `/api/groups/${group._id}`)).status).toBe(404);
      expect((await call<GroupsResponse>(b, 'GET', '/api/groups')).body.memberGroups).toEqual([]);

      const asOwner = await call<GroupDetail>(a, 'GET', `/api/groups/${group._id}`);
      expect(asOwner.body.pendingRequests).toEqual([
        {
          user: expect.objectContaining({ _id: b.id, username: b.username }),
          requestedAt: expect.any(String),
        },
      ]);

      const accepted = await call<{ message: string; group: GroupDetail }>(
        a,
        'POST',
        `/api/groups/${group._id}/requests/${b.id}/accept`,
      );
      expect(accepted.status).toBe(200);
      expect(accepted.body.message).toBe(GROUP_MESSAGES.requestAccepted);
      expect(accepted.body.group.pendingRequests).toEqual([]);
      expect(accepted.body.group.members.map((m) => [m.user._id, m.role])).toEqual([
        [a.id, 'owner'],
        [b.id, 'member'],
      ]);

      const asMember = await call<GroupDetail>(b, 'GET', `/api/groups/${group._id}`);
      expect(asMember.status).toBe(200);
      expect(asMember.body).toMatchObject({
        _id: group._id,
        groupName: 'London',
        code: group.code,
        role: 'member',
      });
      expect(asMember.body.pendingRequests).toBeUndefined();
      expect((await call<GroupsResponse>(b, 'GET', '/api/groups')).body.memberGroups).toEqual([
        { _id: group._id, groupName: 'London' },
      ]);
      // Accepting twice finds no request.
      const again = await call(a, 'POST', `/api/groups/${group._id}/requests/${b.id}/accept`);
      expect(again).toEqual({ status: 404, body: { message: GROUP_MESSAGES.requestNotFound } });
    });

    it('refuses unknown codes, repeated requests, members and owners, duplicating nothing', async () => {
      const a = await createUser(t.db);
      const b = await createUser(t.db);
      const c = await createUser(t.db);
      const group = await groupWith(a, 'Dup', [c]);
      for (const code of ['Nowhere#0000', `${group.code}x`, 'x'.repeat(200)]) {
        const res = await call(b, 'POST', '/api/groups/joinGroup', { submitData: code });
        expect(res).toEqual({ status: 400, body: { message: GROUP_MESSAGES.codeNotFound } });
      }
      const empty = await call(b, 'POST', '/api/groups/joinGroup', { submitData: ' ' });
      expect(empty).toEqual({ status: 400, body: { message: GROUP_MESSAGES.codeRequired } });

      expect((await call(b, 'POST', '/api/groups/joinGroup', { submitData: group.code })).status).toBe(200);
      const twice = await call(b, 'POST', '/api/groups/joinGroup', { submitData: group.code });
      expect(twice).toEqual({ status: 400, body: { message: GROUP_MESSAGES.alreadyRequested } });
      const memberAgain = await call(c, 'POST', '/api/groups/joinGroup', { submitData: group.code });
      expect(memberAgain).toEqual({ status: 400, body: { message: GROUP_MESSAGES.alreadyMember } });
      const ownerJoins = await call(a, 'POST', '/api/groups/joinGroup', { submitData: group.code });
      expect(ownerJoins).toEqual({ status: 400, body: { message: GROUP_MESSAGES.alreadyOwner } });

      const requests = await t.db.select().from(joinRequests).where(eq(joinRequests.groupId, group._id));
      expect(requests.map((r) => r.userId)).toEqual([b.id]);
    });

    it('declines: the request goes, no membership; the user may ask again', async () => {
      const a = await createUser(t.db);
      const b = await createUser(t.db);
      const group = await createGroup(a, 'Decliners');
      await call(b, 'POST', '/api/groups/joinGroup', { submitData: group.code });
      const declined = await call<{ message: string; group: GroupDetail }>(
        a,
        'POST',
        `/api/groups/${group._id}/requests/${b.id}/decline`,
      );
      expect(declined.status).toBe(200);
      expect(declined.body.message).toBe(GROUP_MESSAGES.requestDeclined);
      expect(declined.body.group.pendingRequests).toEqual([]);
      expect(declined.body.group.members.map((m) => m.user._id)).toEqual([a.id]);
      expect((await call(b, 'GET', `/api/groups/${group._id}`)).status).toBe(404);
      expect((await call(b, 'POST', '/api/groups/joinGroup', { submitData: group.code })).status).toBe(200);
    });

    it('lets only the owner answer requests', async () => {
      const a = await createUser(t.db);
      const m = await createUser(t.db);
      const b = await createUser(t.db);
      const group = await groupWith(a, 'Owners only', [m]);
      await call(b, 'POST', '/api/groups/joinGroup', { submitData: group.code });
      for (const answer of ['accept', 'decline']) {
        const byMember = await call(m, 'POST', `/api/groups/${group._id}/requests/${b.id}/${answer}`);
        expect(byMember).toEqual({ status: 403, body: { message: GROUP_MESSAGES.ownerOnly } });
        const byRequester = await call(b, 'POST', `/api/groups/${group._id}/requests/${b.id}/${answer}`);
        expect(byRequester.status).toBe(404);
      }
      const requests = await t.db.select().from(joinRequests).where(eq(joinRequests.groupId, group._id));
      expect(requests).toHaveLength(1);
    });
  });

  describe("the requester's own pending requests (issue 28)", () => {
    /** The groups of the owner's join_request entries about `asker`, straight from the table. */
    const joinEntries = async (recipient: { id: string }, asker: { id: string }) =>
      (
        await t.db
          .select({
            groupId: notifications.groupId,
            actorId: notifications.actorId,
            type: notifications.type,
          })
          .from(notifications)
          .where(eq(notifications.recipientId, recipient.id))
      )
        .filter((n) => n.type === 'join_request' && n.actorId === asker.id)
        .map((n) => n.groupId);

    it("lists them newest first; cancelling one removes it and the owner's notification about it", async () => {
      const a = await createUser(t.db);
      const b = await createUser(t.db);
      const first = await createGroup(a, 'First street');
      const second = await createGroup(a, 'Second street');
      expect(await call(b, 'GET', '/api/groups/requests')).toEqual({ status: 200, body: { requests: [] } });
      await call(b, 'POST', '/api/groups/joinGroup', { submitData: first.code });
      await call(b, 'POST', '/api/groups/joinGroup', { submitData: second.code });

      const listed = await call<OwnJoinRequestsResponse>(b, 'GET', '/api/groups/requests');
      expect(listed.status).toBe(200);
      expect(listed.body.requests.map((r) => r.group)).toEqual([
        { _id: second._id, groupName: 'Second street' },
        { _id: first._id, groupName: 'First street' },
      ]);
      expect(Number.isNaN(Date.parse(listed.body.requests[0]!.requestedAt))).toBe(false);
      // The owner sees neither: they asked nothing.
      expect((await call<OwnJoinRequestsResponse>(a, 'GET', '/api/groups/requests')).body.requests).toEqual(
        [],
      );
      expect((await joinEntries(a, b)).sort()).toEqual([first._id, second._id].sort());

      const cancelled = await call(b, 'DELETE', `/api/groups/${first._id}/request`);
      expect(cancelled).toEqual({ status: 200, body: { message: GROUP_MESSAGES.requestCancelled } });
      expect(
        (await call<OwnJoinRequestsResponse>(b, 'GET', '/api/groups/requests')).body.requests.map(
          (r) => r.group._id,
        ),
      ).toEqual([second._id]);
      expect(await joinEntries(a, b)).toEqual([second._id]);
      const detail = await call<GroupDetail>(a, 'GET', `/api/groups/${first._id}`);
      expect(detail.body.pendingRequests).toEqual([]);

      // Once is enough; asking again afterwards works.
      expect(await call(b, 'DELETE', `/api/groups/${first._id}/request`)).toEqual({
        status: 404,
        body: { message: GROUP_MESSAGES.ownRequestNotFound },
      });
      expect((await call(b, 'POST', '/api/groups/joinGroup', { submitData: first.code })).status).toBe(200);
      expect((await joinEntries(a, b)).sort()).toEqual([first._id, second._id].sort());
    });

    it("cancels only the caller's own request: others, members and bad ids get 404 and change nothing", async () => {
      const a = await createUser(t.db);
      const b = await createUser(t.db);
      const m = await createUser(t.db);
      const group = await groupWith(a, 'Only mine', [m]);
      await call(b, 'POST', '/api/groups/joinGroup', { submitData: group.code });
      const notFound = { status: 404, body: { message: GROUP_MESSAGES.ownRequestNotFound } };
      // The owner, a member and a stranger have no request of their own there.
      for (const who of [a, m, stranger]) {
        expect(await call(who, 'DELETE', `/api/groups/${group._id}/request`)).toEqual(notFound);
      }
      for (const id of [...MALFORMED.map(encodeURIComponent), UNKNOWN]) {
        expect(await call(b, 'DELETE', `/api/groups/${id}/request`)).toEqual(notFound);
      }
      const rows = await t.db.select().from(joinRequests).where(eq(joinRequests.groupId, group._id));
      expect(rows.map((r) => r.userId)).toEqual([b.id]);
      expect(await joinEntries(a, b)).toEqual([group._id]);
      expect((await call<GroupDetail>(m, 'GET', `/api/groups/${group._id}`)).status).toBe(200);
      // Upper-case ids are the same UUID.
      expect((await call(b, 'DELETE', `/api/groups/${group._id.toUpperCase()}/request`)).status).toBe(200);
    });

    it('an answered request is no longer listed', async () => {
      const a = await createUser(t.db);
      const b = await createUser(t.db);
      const group = await groupWith(a, 'Answered', [b]);
      expect((await call<OwnJoinRequestsResponse>(b, 'GET', '/api/groups/requests')).body.requests).toEqual(
        [],
      );
      expect((await call(b, 'DELETE', `/api/groups/${group._id}/request`)).status).toBe(404);
    });

    it('needs a token', async () => {
      for (const [method, url] of [
        ['GET', '/api/groups/requests'],
        ['DELETE', `/api/groups/${UNKNOWN}/request`],
      ] as const) {
        expect((await t.app.inject({ method, url })).statusCode).toBe(401);
      }
    });
  });

  describe('members, leaving, codes and deletion', () => {
    it('the owner removes a member; a member cannot remove others; the owner cannot leave', async () => {
      const a = await createUser(t.db);
      const b = await createUser(t.db);
      const c = await createUser(t.db);
      const group = await groupWith(a, 'Removals', [b, c]);
      const byMember = await call(b, 'DELETE', `/api/groups/${group._id}/members/${c.id}`);
      expect(byMember).toEqual({ status: 403, body: { message: GROUP_MESSAGES.ownerOnly } });
      const ownerLeaves = await call(a, 'DELETE', `/api/groups/${group._id}/members/${a.id}`);
      expect(ownerLeaves).toEqual({ status: 400, body: { message: GROUP_MESSAGES.ownerCannotLeave } });

      const removed = await call<{ message: string; group: GroupDetail }>(
        a,
        'DELETE',
        `/api/groups/${group._id}/members/${c.id}`,
      );
      expect(removed.status).toBe(200);
      expect(removed.body.message).toBe(GROUP_MESSAGES.memberRemoved);
      expect(removed.body.group.members.map((m) => m.user._id)).toEqual([a.id, b.id]);
      expect((await call(c, 'GET', `/api/groups/${group._id}`)).status).toBe(404);
      const twice = await call(a, 'DELETE', `/api/groups/${group._id}/members/${c.id}`);
      expect(twice).toEqual({ status: 404, body: { message: GROUP_MESSAGES.memberNotFound } });

      const left = await call(b, 'DELETE', `/api/groups/${group._id}/members/${b.id}`);
      expect(left).toEqual({ status: 200, body: { message: GROUP_MESSAGES.leftGroup } });
      expect((await call<GroupsResponse>(b, 'GET', '/api/groups')).body.memberGroups).toEqual([]);
      expect((await call<GroupDetail>(a, 'GET', `/api/groups/${group._id}`)).body.members).toHaveLength(1);
    });

    it('a leaving member takes their shared posts with them', async () => {
      const a = await createUser(t.db);
      const b = await createUser(t.db);
      const group = await groupWith(a, 'Leavers', [b]);
      const post = await createPost(t.db, b.id, { latitude: 51.5, longitude: -0.12 });
      await t.db.insert(postGroups).values({ postId: post.id, groupId: group._id, userId: post.userId });
      const before = await call<PagedPostsResponse>(a, 'GET', `/api/groups/${group._id}/posts`);
      expect(before.body.posts.map((p) => p._id)).toEqual([post.id]);
      await call(b, 'DELETE', `/api/groups/${group._id}/members/${b.id}`);
      const after = await call<PagedPostsResponse>(a, 'GET', `/api/groups/${group._id}/posts`);
      expect(after.body.posts).toEqual([]);
      expect(await t.db.select().from(postGroups).where(eq(postGroups.postId, post.id))).toEqual([]);
    });

    it('the owner regenerates the code: the old code stops working, the new one works', async () => {
      const a = await createUser(t.db);
      const m = await createUser(t.db);
      const b = await createUser(t.db);
      const group = await groupWith(a, 'Rome', [m]);
      expect((await call(m, 'POST', `/api/groups/${group._id}/code`)).status).toBe(403);
      const res = await call<{ message: string; code: string }>(a, 'POST', `/api/groups/${group._id}/code`);
      expect(res.status).toBe(200);
      expect(res.body.code).toMatch(/^Rome-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
      expect(res.body.code).not.toBe(group.code);
      expect(res.body.message).toBe(GROUP_MESSAGES.codeRegenerated);
      const old = await call(b, 'POST', '/api/groups/joinGroup', { submitData: group.code });
      expect(old).toEqual({ status: 400, body: { message: GROUP_MESSAGES.codeNotFound } });
      expect((await call(b, 'POST', '/api/groups/joinGroup', { submitData: res.body.code })).status).toBe(
        200,
      );
      expect((await call<GroupDetail>(m, 'GET', `/api/groups/${group._id}`)).body.code).toBe(res.body.code);
    });

    it('only the owner deletes; members, requests and shares go, posts stay', async () => {
      const a = await createUser(t.db);
      const m = await createUser(t.db);
      const b = await createUser(t.db);
      const group = await groupWith(a, 'Doomed', [m]);
      await call(b, 'POST', '/api/groups/joinGroup', { submitData: group.code });
      const post = await createPost(t.db, m.id);
      await t.db.insert(postGroups).values({ postId: post.id, groupId: group._id, userId: post.userId });

      expect((await call(m, 'DELETE', `/api/groups/${group._id}`)).status).toBe(403);
      expect((await call(b, 'DELETE', `/api/groups/${group._id}`)).status).toBe(404);
      const deleted = await call(a, 'DELETE', `/api/groups/${group._id}`);
      expect(deleted).toEqual({ status: 200, body: { message: GROUP_MESSAGES.groupDeleted } });
      expect((await call(a, 'GET', `/api/groups/${group._id}`)).status).toBe(404);
      expect((await call<GroupsResponse>(m, 'GET', '/api/groups')).body.memberGroups).toEqual([]);
      expect(await t.db.select().from(joinRequests).where(eq(joinRequests.groupId, group._id))).toEqual([]);
      expect(await t.db.select({ id: posts.id }).from(posts).where(eq(posts.id, post.id))).toEqual([
        { id: post.id },
      ]);
      expect(await t.db.select().from(postGroups).where(eq(postGroups.postId, post.id))).toEqual([]);
    });

    it('answers 404 for malformed and unknown ids, and for non-members, on every group route', async () => {
      const a = await createUser(t.db);
      const group = await createGroup(a, 'Private');
      const ids = [...MALFORMED.map(encodeURIComponent), UNKNOWN];
      for (const id of ids) {
        for (const [method, url] of [
          ['GET', `/api/groups/${id}`],
          ['GET', `/api/groups/${id}/posts`],
          ['GET', `/api/groups/${id}/map`],
          ['POST', `/api/groups/${id}/code`],
          ['DELETE', `/api/groups/${id}`],
          ['POST', `/api/groups/${id}/requests/${a.id}/accept`],
          ['DELETE', `/api/groups/${id}/members/${a.id}`],
        ] as const) {
          const res = await call(a, method, url);
          expect(res.status, `${method} ${url}`).toBe(404);
        }
        const badUser = await call(a, 'POST', `/api/groups/${group._id}/requests/${id}/accept`);
        expect(badUser.status).toBe(404);
        const badMember = await call(a, 'DELETE', `/api/groups/${group._id}/members/${id}`);
        expect(badMember.status).toBe(404);
        const badPost = await call(a, 'PUT', `/api/posts/${id}/groups`, { groupIds: [] });
        expect(badPost.status).toBe(404);
      }
      for (const url of [
        `/api/groups/${group._id}`,
        `/api/groups/${group._id}/posts`,
        `/api/groups/${group._id}/map`,
      ]) {
        expect((await call(stranger, 'GET', url)).status).toBe(404);
      }
    });

    it('refuses requests without a token', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/groups' });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('the demo user', () => {
    const demo = { id: DEMO_USER_ID };

    it('may read but every write is refused with the demo message', async () => {
      const group = await createGroup(owner, 'Demo target');
      expect(await call(demo, 'GET', '/api/groups')).toEqual({
        status: 200,
        body: { ownedGroups: [], memberGroups: [] },
      });
      expect(await call(demo, 'GET', '/api/groups/requests')).toEqual({
        status: 200,
        body: { requests: [] },
      });
      const post = await createPost(t.db, DEMO_USER_ID);
      for (const [method, url, payload] of [
        ['POST', '/api/groups/createGroup', { submitData: 'Demo group' }],
        ['POST', '/api/groups/joinGroup', { submitData: group.code }],
        ['POST', `/api/groups/${group._id}/requests/${owner.id}/accept`, undefined],
        ['POST', `/api/groups/${group._id}/requests/${owner.id}/decline`, undefined],
        ['DELETE', `/api/groups/${group._id}/members/${owner.id}`, undefined],
        ['POST', `/api/groups/${group._id}/code`, undefined],
        ['DELETE', `/api/groups/${group._id}`, undefined],
        ['DELETE', `/api/groups/${group._id}/request`, undefined],
        ['PUT', `/api/posts/${post.id}/groups`, { groupIds: [group._id] }],
      ] as const) {
        const res = await call(demo, method, url, payload);
        expect(res, `${method} ${url}`).toEqual({ status: 403, body: { message: DEMO_DISABLED_MESSAGE } });
      }
      expect((await call<GroupsResponse>(owner, 'GET', '/api/groups')).body.ownedGroups).toContainEqual({
        _id: group._id,
        groupName: 'Demo target',
      });
      expect(await t.db.select().from(joinRequests).where(eq(joinRequests.userId, DEMO_USER_ID))).toEqual([]);
    });

    it('sees other members anonymised when it is a member (seeded)', async () => {
      const group = await createGroup(owner, 'Demo member');
      await t.db.insert(groupMembers).values({ groupId: group._id, userId: DEMO_USER_ID, role: 'member' });
      const res = await call<GroupDetail>(demo, 'GET', `/api/groups/${group._id}`);
      expect(res.status).toBe(200);
      const names = Object.fromEntries(res.body.members.map((m) => [m.user._id, m.user.username]));
      expect(names[owner.id]).toBe(ANONYMISED_USERNAME);
      expect(names[DEMO_USER_ID]).not.toBe(ANONYMISED_USERNAME);
    });
  });

  describe('sharing posts and the group pictures', () => {
    it('shares and unshares an own post; members only; only the owner', async () => {
      const a = await createUser(t.db);
      const b = await createUser(t.db);
      const g1 = await groupWith(a, 'One', [b]);
      const g2 = await groupWith(a, 'Two', [b]);
      const foreign = await createGroup(stranger, 'Foreign');
      const post = await createPost(t.db, b.id, {
        latitude: 40.4168,
        longitude: -3.7038,
        showLocation: false,
      });

      const shared = await call<{ groupIds: string[] }>(b, 'PUT', `/api/posts/${post.id}/groups`, {
        groupIds: [g1._id, g2._id, g1._id.toUpperCase()],
      });
      expect(shared.status).toBe(200);
      expect(shared.body.groupIds.sort()).toEqual([g1._id, g2._id].sort());
      const notMine = await call(b, 'PUT', `/api/posts/${post.id}/groups`, {
        groupIds: [g1._id, foreign._id],
      });
      expect(notMine).toEqual({ status: 400, body: { message: GROUP_MESSAGES.notGroupMember } });
      const malformed = await call(b, 'PUT', `/api/posts/${post.id}/groups`, { groupIds: ['nope'] });
      expect(malformed.status).toBe(400);
      const byOther = await call(a, 'PUT', `/api/posts/${post.id}/groups`, { groupIds: [g1._id] });
      expect(byOther).toEqual({ status: 403, body: { message: GROUP_MESSAGES.notPostOwner } });
      const missing = await call(b, 'PUT', `/api/posts/${post.id}/groups`, {});
      expect(missing.status).toBe(400);
      // The refused calls changed nothing.
      const rows = await t.db.select().from(postGroups).where(eq(postGroups.postId, post.id));
      expect(rows.map((r) => r.groupId).sort()).toEqual([g1._id, g2._id].sort());

      const inGroup = await call<PagedPostsResponse>(a, 'GET', `/api/groups/${g2._id}/posts`);
      expect(inGroup.body.posts.map((p) => p._id)).toEqual([post.id]);

      const unshared = await call(b, 'PUT', `/api/posts/${post.id}/groups`, { groupIds: [g1._id] });
      expect(unshared).toEqual({ status: 200, body: { groupIds: [g1._id] } });
      expect((await call<PagedPostsResponse>(a, 'GET', `/api/groups/${g2._id}/posts`)).body.posts).toEqual(
        [],
      );
      expect((await call(b, 'PUT', `/api/posts/${post.id}/groups`, { groupIds: [] })).body).toEqual({
        groupIds: [],
      });
      expect((await call<PagedPostsResponse>(a, 'GET', `/api/groups/${g1._id}/posts`)).body.posts).toEqual(
        [],
      );
    });

    it('createPost shares with the groups given in groupIds that the author belongs to, and only those', async () => {
      const a = await createUser(t.db);
      const own = await createGroup(a, 'Own');
      const foreign = await createGroup(stranger, 'Not mine');
      const boundary = `----cats${Date.now()}`;
      const field = (name: string, value: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const payload = Buffer.concat([
        Buffer.from(
          field('comment', 'shared at birth') +
            field('groupIds', JSON.stringify([own._id, foreign._id, 'garbage'])) +
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cat.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        readFileSync(
          join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'images', 'photo-no-gps.jpg'),
        ),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/posts/createPost',
        headers: { ...(await as(a)), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(res.statusCode, res.body).toBe(201);
      const { post } = res.json() as { post: { _id: string; groupIds: string[] } };
      expect(post.groupIds).toEqual([own._id]);
      const feed = await call<PagedPostsResponse>(a, 'GET', `/api/groups/${own._id}/posts`);
      expect(feed.body.posts.map((p) => p._id)).toEqual([post._id]);
      expect(await t.db.select().from(postGroups).where(eq(postGroups.groupId, foreign._id))).toEqual([]);
    });

    it('members see exact locations of shared posts whose location is on; a switched-off one shows none', async () => {
      const a = await createUser(t.db);
      const b = await createUser(t.db);
      const group = await groupWith(a, 'Exact', [b]);
      const hidden = await createPost(t.db, b.id, {
        latitude: 48.858_37,
        longitude: 2.294_48,
        showLocation: false,
      });
      const shown = await createPost(t.db, b.id, {
        latitude: 41.402_94,
        longitude: 2.174_38,
        showLocation: true,
      });
      const noGps = await createPost(t.db, b.id);
      const notShared = await createPost(t.db, b.id, { latitude: 1, longitude: 1, showLocation: true });
      for (const p of [hidden, shown, noGps]) {
        await t.db.insert(postGroups).values({ postId: p.id, groupId: group._id, userId: p.userId });
      }

      const feed = await call<PagedPostsResponse>(a, 'GET', `/api/groups/${group._id}/posts`);
      expect(feed.status).toBe(200);
      const byId = new Map(feed.body.posts.map((p) => [p._id, p]));
      expect([...byId.keys()].sort()).toEqual([hidden.id, shown.id, noGps.id].sort());
      // Switched off: no location for anyone but its owner, group members included (issue 23).
      expect(byId.get(hidden.id)).toMatchObject({ latitude: null, longitude: null, locationPrecision: null });
      expect(byId.get(shown.id)).toMatchObject({
        latitude: 41.402_94,
        longitude: 2.174_38,
        locationPrecision: 'exact',
      });
      expect(byId.get(noGps.id)).toMatchObject({ latitude: null, longitude: null });
      expect(byId.has(notShared.id)).toBe(false);

      const map = await call<GroupMapResponse>(a, 'GET', `/api/groups/${group._id}/map`);
      expect(map.body.posts.map((p) => [p._id, p.latitude, p.longitude])).toEqual([
        [shown.id, 41.402_94, 2.174_38],
      ]);
      // The owner of the switched-off post still sees it, exactly, in the group's feed.
      const own = await call<PagedPostsResponse>(b, 'GET', `/api/groups/${group._id}/posts`);
      expect(own.body.posts.find((p) => p._id === hidden.id)).toMatchObject({
        latitude: 48.858_37,
        longitude: 2.294_48,
        locationPrecision: 'exact',
      });
    });

    it('pages the group feed with cursors, newest first, without repeats', async () => {
      const a = await createUser(t.db);
      const group = await createGroup(a, 'Pages');
      const ids: string[] = [];
      for (let i = 0; i < 25; i += 1) {
        const p = await createPost(t.db, a.id, { createdAt: new Date(Date.UTC(2024, 0, 1, 0, i)) });
        await t.db.insert(postGroups).values({ postId: p.id, groupId: group._id, userId: p.userId });
        ids.push(p.id);
      }
      const first = await call<PagedPostsResponse>(a, 'GET', `/api/groups/${group._id}/posts`);
      expect(first.body.posts).toHaveLength(20);
      expect(first.body.info.next).toBe(2);
      const cursor = first.body.info.nextCursor!;
      const second = await call<PagedPostsResponse>(
        a,
        'GET',
        `/api/groups/${group._id}/posts?cursor=${encodeURIComponent(cursor)}`,
      );
      expect(second.body.posts).toHaveLength(5);
      expect(second.body.info.nextCursor).toBeNull();
      const seen = [...first.body.posts, ...second.body.posts].map((p) => p._id);
      expect(seen).toEqual([...ids].reverse());
      const byPage = await call<PagedPostsResponse>(a, 'GET', `/api/groups/${group._id}/posts?page=2`);
      expect(byPage.body.posts.map((p) => p._id)).toEqual(second.body.posts.map((p) => p._id));
      const badCursor = await call(a, 'GET', `/api/groups/${group._id}/posts?cursor=garbage`);
      expect(badCursor.status).toBe(400);
    });
  });
});
