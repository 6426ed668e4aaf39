import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { ANONYMISED_USERNAME, DEMO_USER_ID, DEMO_USERNAME, type Notification } from '@cats/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupMembers, notificationCounters, notifications } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { NO_RATE_LIMITS } from '../../../test/hostile/support/world.ts';
import { actorIds, notificationsClient } from '../../../test/notifications.ts';

/**
 * Issue 25, 'What is notified': every type, written in its cause's transaction (migration 0014 and the
 * services), and taken back when its cause is undone; never for one's own actions, never between users
 * who share a block, never about a post the recipient hid, never of a type switched off.
 */
describe('notification types', () => {
  let t: TestApp;
  let api: ReturnType<typeof notificationsClient>;
  beforeAll(async () => {
    t = await buildTestApp(NO_RATE_LIMITS);
    api = notificationsClient(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const users = async (n: number): Promise<CreatedUser[]> => {
    const out = [];
    for (let i = 0; i < n; i += 1) out.push(await createUser(t.db));
    return out;
  };
  const rowsAbout = (postId: string) =>
    t.db.select().from(notifications).where(eq(notifications.postId, postId));

  describe('comments and replies', () => {
    it("tells the post's author of each comment, with its text and a link to it; never of their own", async () => {
      const [author, fan] = await users(2);
      const postId = (await createPost(t.db, author!.id)).id;
      const commentId = await api.comment(fan!, postId, 'What a <b>beauty</b>!');
      await api.comment(author!, postId, 'Thank you');

      const entries = await api.all(author!);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        type: 'comment',
        read: false,
        actorCount: 1,
        post: { _id: postId },
        comment: { _id: commentId, excerpt: 'What a <b>beauty</b>!' },
        group: null,
        link: `/posts/${postId}#comment-${commentId}`,
      });
      expect(actorIds(entries[0])).toEqual([fan!.id]);
      expect(entries[0]!.post!.thumbnailUrl).toMatch(/^\/media\/posts\/.+\/64\.webp$/);
      // The fan hears of the author's answer as a reply in the thread; the author of nothing of their own.
      expect((await api.all(fan!)).map((n) => n.type)).toEqual(['reply']);
      expect(await api.unread(author!)).toBe(1);
    });

    it('groups the replies of a thread per participant per 12 h, names the repliers, and moves up when read', async () => {
      const [author, b, c, d, e] = await users(5);
      const postId = (await createPost(t.db, author!.id)).id;
      await api.comment(b!, postId, 'first');
      await api.comment(c!, postId, 'second');
      await api.comment(d!, postId, 'third');

      // b: one entry for c's and d's replies; c: one for d's; d and the author: none of type reply.
      const [ofB] = await api.ofType(b!, 'reply', postId);
      expect(ofB).toMatchObject({ actorCount: 2, read: false, comment: { excerpt: 'third' } });
      expect(actorIds(ofB)).toEqual([d!.id, c!.id]);
      expect(ofB!.link).toBe(`/posts/${postId}#comment-${ofB!.comment!._id}`);
      expect((await api.ofType(c!, 'reply', postId)).map(actorIds)).toEqual([[d!.id]]);
      expect(await api.ofType(d!, 'reply', postId)).toEqual([]);
      expect(await api.ofType(author!, 'reply', postId)).toEqual([]);
      expect((await api.ofType(author!, 'comment', postId)).map(actorIds)).toEqual([
        [d!.id],
        [c!.id],
        [b!.id],
      ]);

      // While unread, a further reply joins b's entry where it stands (no new event to write).
      await api.comment(e!, postId, 'fourth');
      const [stillUnread] = await api.ofType(b!, 'reply', postId);
      expect(stillUnread).toMatchObject({ seq: ofB!.seq, actorCount: 3, comment: { excerpt: 'fourth' } });

      // Once read, the next reply makes it unread again and moves it up, as a like does.
      await api.readAll(b!);
      const other = (await createPost(t.db, e!.id)).id;
      await api.comment(b!, other, 'elsewhere');
      await api.comment(e!, other, 'an answer elsewhere');
      expect((await api.all(b!))[0]!.post!._id).toBe(other);
      await api.readAll(b!);
      await api.comment(c!, postId, 'fifth');
      const list = await api.all(b!);
      expect(list[0]).toMatchObject({ type: 'reply', post: { _id: postId }, read: false, actorCount: 3 });
      expect(list[0]!.seq).toBeGreaterThan(ofB!.seq);
      expect(actorIds(list[0])).toEqual([c!.id, e!.id, d!.id]);
      expect(await api.unread(b!)).toBe(1);
    });

    it('tells at most the 50 most recent participants of a thread, whatever its size', async () => {
      const author = await createUser(t.db);
      const postId = (await createPost(t.db, author.id)).id;
      const participants = await users(60);
      // Written directly (the trigger runs all the same); one minute apart, oldest first.
      await t.db.execute(sql`insert into comments (post_id, user_id, body, created_at)
        select ${postId}::uuid, u.id, 'hello', now() - interval '2 hours' + u.n * interval '1 minute'
        from unnest(${sql.param(participants.map((p) => p.id))}::uuid[]) with ordinality as u(id, n)`);
      // Everything they were told so far is read: the next comment is the one measured.
      await t.db.update(notifications).set({ readAt: new Date() }).where(eq(notifications.postId, postId));
      const last = await createUser(t.db);
      await api.comment(last, postId, 'the last word');

      const told = await t.db
        .select({ recipientId: notifications.recipientId })
        .from(notifications)
        .where(
          and(
            eq(notifications.postId, postId),
            eq(notifications.type, 'reply'),
            sql`${notifications.readAt} is null`,
          ),
        );
      expect(told.map((r) => r.recipientId).sort()).toEqual(
        participants
          .slice(10)
          .map((p) => p.id)
          .sort(),
      );
    });

    it('takes back what a deleted comment said: its comment entry, and a reply entry left without replies', async () => {
      const [author, b, c, d] = await users(4);
      const postId = (await createPost(t.db, author!.id)).id;
      await api.comment(b!, postId, 'first');
      const byC = await api.comment(c!, postId, 'second');
      expect(await api.ofType(b!, 'reply', postId)).toHaveLength(1);

      // The author deletes c's comment: the author's 'comment' entry and b's reply entry both go.
      await api.deleteComment(author!, byC);
      expect((await api.ofType(author!, 'comment', postId)).map(actorIds)).toEqual([[b!.id]]);
      expect(await api.ofType(b!, 'reply', postId)).toEqual([]);
      expect((await rowsAbout(postId)).map((r) => r.type)).toEqual(['comment']);

      // With two replies, deleting one leaves the entry to the other.
      const byD = await api.comment(d!, postId, 'third');
      await api.comment(c!, postId, 'fourth');
      await api.deleteComment(d!, byD);
      const [left] = await api.ofType(b!, 'reply', postId);
      expect(actorIds(left)).toEqual([c!.id]);
      expect(left!.comment!.excerpt).toBe('fourth');
      expect(await api.unread(b!)).toBe(1);
    });
  });

  describe('groups', () => {
    it('tells the owner of a join request while it is pending, and the requester of the answer', async () => {
      const [owner, accepted, declined] = await users(3);
      const group = await api.createGroup(owner!, 'Rooftops');
      await api.askToJoin(accepted!, group.code);
      await api.askToJoin(declined!, group.code);

      const requests = await api.ofType(owner!, 'join_request');
      expect(requests.map((n) => [actorIds(n), n.group, n.link])).toEqual([
        [[declined!.id], { _id: group.id, name: 'Rooftops' }, `/groups/${group.id}`],
        [[accepted!.id], { _id: group.id, name: 'Rooftops' }, `/groups/${group.id}`],
      ]);
      expect(await api.unread(owner!)).toBe(2);

      await api.answer(owner!, group.id, accepted!, 'accept');
      await api.answer(owner!, group.id, declined!, 'decline');
      // Handled: the requests' entries are gone; the answers are the requesters' (never the owner's).
      expect(await api.all(owner!)).toEqual([]);
      expect(await api.unread(owner!)).toBe(0);
      expect((await api.all(accepted!)).map((n) => [n.type, actorIds(n), n.group?._id, n.link])).toEqual([
        ['request_accepted', [owner!.id], group.id, `/groups/${group.id}`],
      ]);
      expect((await api.all(declined!)).map((n) => [n.type, actorIds(n), n.group?._id, n.link])).toEqual([
        ['request_declined', [owner!.id], group.id, '/groups'],
      ]);
    });

    it('takes the entry back when the request goes with its author (account deleted)', async () => {
      const [owner, requester] = await users(2);
      const group = await api.createGroup(owner!, 'Gardens');
      await api.askToJoin(requester!, group.code);
      expect(await api.ofType(owner!, 'join_request')).toHaveLength(1);
      await api.ok(requester!, 'DELETE', `/api/profile/deleteUser/${requester!.id}`);
      expect(await api.ofType(owner!, 'join_request')).toEqual([]);
    });

    it('tells a member the owner removed, not one who left', async () => {
      const [owner, removed, leaver] = await users(3);
      const group = await api.groupWith(owner!, 'Harbour', [removed!, leaver!]);
      await api.readAll(removed!);
      await api.ok(owner!, 'DELETE', `/api/groups/${group.id}/members/${removed!.id}`);
      await api.ok(leaver!, 'DELETE', `/api/groups/${group.id}/members/${leaver!.id}`);
      const [entry] = await api.all(removed!);
      expect(entry).toMatchObject({ type: 'removed_from_group', read: false, link: '/groups' });
      expect(actorIds(entry)).toEqual([owner!.id]);
      expect((await api.all(leaver!)).map((n) => n.type)).toEqual(['request_accepted']);
      expect(await api.ofType(owner!, 'removed_from_group')).toEqual([]);
    });

    it('tells every other member of a post shared with their group, and takes it back when unshared', async () => {
      const [owner, author, member] = await users(3);
      const group = await api.groupWith(owner!, 'Lanes', [author!, member!]);
      const postId = await api.upload(author!, [group.id]);

      for (const who of [owner!, member!]) {
        const shares = await api.ofType(who, 'group_share');
        expect(shares.map((n) => [actorIds(n), n.post?._id, n.group, n.link])).toEqual([
          [[author!.id], postId, { _id: group.id, name: 'Lanes' }, `/posts/${postId}`],
        ]);
      }
      expect(await api.ofType(author!, 'group_share')).toEqual([]);

      // Unshared through the share dialog: gone; shared again: told again.
      await api.ok(author!, 'PUT', `/api/posts/${postId}/groups`, { groupIds: [] });
      expect(await api.ofType(member!, 'group_share')).toEqual([]);
      expect(await rowsAbout(postId)).toEqual([]);
      await api.ok(author!, 'PUT', `/api/posts/${postId}/groups`, { groupIds: [group.id] });
      expect(await api.ofType(member!, 'group_share', postId)).toHaveLength(1);
      // Saving the same groups again tells nobody twice.
      await api.ok(author!, 'PUT', `/api/posts/${postId}/groups`, { groupIds: [group.id] });
      expect(await api.ofType(member!, 'group_share', postId)).toHaveLength(1);

      // The author removed from the group: their shares went with the membership, and so do the entries.
      await api.ok(owner!, 'DELETE', `/api/groups/${group.id}/members/${author!.id}`);
      expect(await api.ofType(member!, 'group_share')).toEqual([]);
      expect(await api.ofType(owner!, 'group_share')).toEqual([]);
    });

    it('tells a large group in one statement', async () => {
      const [owner, author] = await users(2);
      const group = await api.groupWith(owner!, 'Big', [author!]);
      const crowd = await users(300);
      await t.db
        .insert(groupMembers)
        .values(crowd.map((u) => ({ groupId: group.id, userId: u.id, role: 'member' as const })));
      const postId = await api.upload(author!, [group.id]);
      const rows = await t.db
        .select({ recipientId: notifications.recipientId, seq: notifications.seq })
        .from(notifications)
        .where(and(eq(notifications.postId, postId), eq(notifications.type, 'group_share')));
      expect(rows.map((r) => r.recipientId).sort()).toEqual([owner!.id, ...crowd.map((u) => u.id)].sort());
      // Each member's first entry: their counters were taken once each.
      const counters = await t.db
        .select()
        .from(notificationCounters)
        .where(
          inArray(
            notificationCounters.userId,
            crowd.map((u) => u.id),
          ),
        );
      expect(counters.every((c) => c.seq === 1)).toBe(true);
      expect(rows.filter((r) => r.recipientId !== owner!.id).every((r) => r.seq === 1)).toBe(true);
    });
  });

  describe('blocks, hidden posts and switches', () => {
    it('never tells anyone of a user they share a block with, either way', async () => {
      const [owner, blocker, blocked] = await users(3);
      const group = await api.groupWith(owner!, 'Blocks', [blocker!, blocked!]);
      await api.block(blocker!, blocked!);
      await api.readAll(blocker!);
      await api.readAll(blocked!);

      // A share to the group tells neither of the other.
      await api.upload(blocked!, [group.id]);
      await api.upload(blocker!, [group.id]);
      expect(await api.ofType(blocker!, 'group_share')).toEqual([]);
      expect(await api.ofType(blocked!, 'group_share')).toEqual([]);
      expect(await api.ofType(owner!, 'group_share')).toHaveLength(2);

      // Replies in a thread on a third person's post: neither is told of the other.
      const postId = (await createPost(t.db, owner!.id)).id;
      await api.comment(blocker!, postId, 'one');
      await api.comment(blocked!, postId, 'two');
      await api.comment(blocker!, postId, 'three');
      expect(await api.ofType(blocker!, 'reply')).toEqual([]);
      expect(await api.ofType(blocked!, 'reply')).toEqual([]);

      // A join request from someone the owner blocked is not announced.
      const other = await api.createGroup(blocker!, 'Mine');
      await api.askToJoin(blocked!, other.code);
      expect(await api.ofType(blocker!, 'join_request')).toEqual([]);
      expect(await api.unread(blocker!)).toBe(0);
      expect(await api.unread(blocked!)).toBe(0);
    });

    it('a block made later takes the existing entries out of view, either way', async () => {
      const [author, fan, critic, bystander] = await users(4);
      const postId = (await createPost(t.db, author!.id)).id;
      const fansPost = (await createPost(t.db, fan!.id)).id;
      await api.like(fan!, postId);
      await api.comment(fan!, postId, 'lovely');
      await api.comment(critic!, postId, 'meh');
      await api.comment(author!, fansPost, 'yours is lovely too');
      await api.comment(bystander!, fansPost, 'agreed');
      expect((await api.all(author!)).map((n) => n.type).sort()).toEqual([
        'comment',
        'comment',
        'like',
        'reply',
      ]);
      expect(await api.unread(author!)).toBe(4);

      // The fan blocks the author: the author no longer sees the fan's like or comment, nor the reply
      // entry about the fan's post; the critic's comment stays.
      await api.block(fan!, author!);
      const left = await api.all(author!);
      expect(left.map((n) => [n.type, actorIds(n)])).toEqual([['comment', [critic!.id]]]);
      expect(await api.unread(author!)).toBe(1);
      // And the other way round: the author blocks the critic.
      await api.block(author!, critic!);
      expect(await api.all(author!)).toEqual([]);
      expect(await api.unread(author!)).toBe(0);
      // The fan, too, no longer sees anything from the author.
      expect((await api.all(fan!)).filter((n) => actorIds(n).includes(author!.id))).toEqual([]);
    });

    it('never tells anyone about a post they hid, and hides what they were told before', async () => {
      const [author, b, c] = await users(3);
      const postId = (await createPost(t.db, author!.id)).id;
      await api.comment(b!, postId, 'first');
      await api.comment(c!, postId, 'second');
      expect(await api.ofType(b!, 'reply', postId)).toHaveLength(1);
      await api.hide(b!, postId);
      expect(await api.ofType(b!, 'reply', postId)).toEqual([]);
      expect(await api.unread(b!)).toBe(0);
      // A new reply after the hide writes nothing for b (not just hidden from view).
      await t.db
        .update(notifications)
        .set({ readAt: new Date() })
        .where(eq(notifications.recipientId, b!.id));
      const before = (await rowsAbout(postId)).filter((r) => r.recipientId === b!.id);
      await api.comment(c!, postId, 'third');
      expect((await rowsAbout(postId)).filter((r) => r.recipientId === b!.id)).toEqual(before);

      // Shared with a group after a member hid it: that member is not told.
      const [owner, sharer] = await users(2);
      const group = await api.groupWith(owner!, 'Hidden', [sharer!, b!]);
      const shared = await api.upload(sharer!);
      await api.hide(b!, shared);
      await api.ok(sharer!, 'PUT', `/api/posts/${shared}/groups`, { groupIds: [group.id] });
      expect(await api.ofType(b!, 'group_share')).toEqual([]);
      expect(await api.ofType(owner!, 'group_share', shared)).toHaveLength(1);
    });

    it('writes no entry of a type switched off in the app, and writes again once it is back on', async () => {
      const [author, fan, other, owner] = await users(4);
      const postId = (await createPost(t.db, author!.id)).id;
      await api.setInApp(author!, 'comment', false);
      await api.setInApp(fan!, 'reply', false);
      await api.comment(fan!, postId, 'one');
      await api.comment(other!, postId, 'two');
      expect(await rowsAbout(postId)).toEqual([]);

      await api.setInApp(author!, 'comment', true);
      await api.comment(other!, postId, 'three');
      expect((await api.ofType(author!, 'comment')).map(actorIds)).toEqual([[other!.id]]);

      // The set-based path (a group share) reads the switch too.
      const group = await api.groupWith(owner!, 'Switches', [fan!, other!]);
      await api.setInApp(other!, 'group_share', false);
      const shared = await api.upload(fan!, [group.id]);
      expect(await api.ofType(other!, 'group_share')).toEqual([]);
      expect(await api.ofType(owner!, 'group_share', shared)).toHaveLength(1);
    });
  });

  describe('the post and the account', () => {
    it("hides a trashed post's entries from everyone and shows them again when it is restored", async () => {
      const [author, fan, other] = await users(3);
      const postId = await api.upload(author!);
      await api.like(fan!, postId);
      await api.comment(fan!, postId, 'one');
      await api.comment(other!, postId, 'two');
      const before = { author: await api.all(author!), fan: await api.all(fan!) };
      expect(before.author).toHaveLength(3);
      expect(before.fan).toHaveLength(1);

      await api.ok(author!, 'DELETE', `/api/posts/${postId}`);
      expect(await api.all(author!)).toEqual([]);
      expect(await api.all(fan!)).toEqual([]);
      expect(await api.unread(author!)).toBe(0);
      expect(await api.unread(fan!)).toBe(0);

      await api.ok(author!, 'POST', `/api/posts/${postId}/restore`);
      expect(await api.all(author!)).toEqual(before.author);
      expect(await api.all(fan!)).toEqual(before.fan);
    });

    it('deleting an account deletes its notifications and every entry it caused for others', async () => {
      const [author, leaver, other, owner] = await users(4);
      const postId = (await createPost(t.db, author!.id)).id;
      const leaversPost = (await createPost(t.db, leaver!.id)).id;
      const group = await api.groupWith(owner!, 'Leaving', [leaver!, author!]);
      await api.like(leaver!, postId);
      await api.comment(other!, postId, 'before');
      await api.comment(leaver!, postId, 'bye');
      await api.upload(leaver!, [group.id]);
      await api.comment(author!, leaversPost, 'nice');
      await api.askToJoin(leaver!, (await api.createGroup(author!, 'Another')).code);
      expect((await api.all(author!)).map((n) => n.type).sort()).toEqual([
        'comment',
        'comment',
        'group_share',
        'join_request',
        'like',
        'request_accepted',
      ]);
      expect((await api.ofType(other!, 'reply')).map(actorIds)).toEqual([[leaver!.id]]);
      expect(await api.all(leaver!)).not.toEqual([]);

      await api.ok(leaver!, 'DELETE', `/api/profile/deleteUser/${leaver!.id}`);
      expect((await api.all(author!)).map((n) => [n.type, actorIds(n)])).toEqual([
        ['comment', [other!.id]],
        ['request_accepted', [owner!.id]],
      ]);
      expect(await api.ofType(other!, 'reply')).toEqual([]);
      expect(await api.ofType(owner!, 'group_share')).toEqual([]);
      // Gone from the database, not only from view.
      const left = await t.db
        .select({ id: notifications.id })
        .from(notifications)
        .where(or(eq(notifications.recipientId, leaver!.id), eq(notifications.actorId, leaver!.id)));
      expect(left).toEqual([]);
      expect(
        (await t.db.select().from(notifications).where(eq(notifications.recipientId, other!.id))).map(
          (r) => r.type,
        ),
      ).toEqual([]);
    });
  });

  describe('the demo account', () => {
    it('its likes tell the author; it writes nothing else, and sees other names anonymised', async () => {
      const [author, owner, sharer] = await users(3);
      const postId = (await createPost(t.db, author!.id)).id;
      await api.like({ id: DEMO_USER_ID }, postId);
      const [liked] = await api.ofType(author!, 'like', postId);
      expect(liked!.actors.map((a) => [a._id, a.username])).toEqual([[DEMO_USER_ID, DEMO_USERNAME]]);

      // A comment, a join request, a read mark or a switch: refused, and nothing written.
      const group = await api.groupWith(owner!, 'Demo', [sharer!]);
      const refusals = [
        await api.send({ id: DEMO_USER_ID }, 'POST', `/api/posts/createComment/${postId}`, {
          newComment: 'x',
        }),
        await api.send({ id: DEMO_USER_ID }, 'POST', '/api/groups/joinGroup', { submitData: group.code }),
        await api.send({ id: DEMO_USER_ID }, 'POST', '/api/notifications/read', {}),
        await api.send({ id: DEMO_USER_ID }, 'PUT', '/api/notifications/preferences', {
          preferences: { like: { inApp: false, push: false } },
        }),
      ];
      for (const res of refusals) {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toHaveProperty('message');
      }
      expect(await api.ofType(author!, 'comment')).toEqual([]);
      expect(await api.ofType(owner!, 'join_request')).toEqual([]);

      // What the demo sees: a share to a group it is in (the seed makes it a member of one), named as
      // every other user is named to it.
      await t.db.insert(groupMembers).values({ groupId: group.id, userId: DEMO_USER_ID, role: 'member' });
      const shared = await api.upload(sharer!, [group.id]);
      const seen: Notification[] = await api.all({ id: DEMO_USER_ID });
      expect(seen.map((n) => [n.type, n.post?._id, n.group?.name])).toEqual([
        ['group_share', shared, 'Demo'],
      ]);
      expect(seen[0]!.actors.map((a) => [a._id, a.username])).toEqual([[sharer!.id, ANONYMISED_USERNAME]]);
      // Reading the list changes nothing (it is not marked read by being seen).
      expect(await api.unread({ id: DEMO_USER_ID })).toBe(1);
    });
  });
});
