import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '@cats/contracts';
import { notifications, posts } from '../../db/schema/index.ts';
import { violatesConstraint } from '../../lib/db-errors.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { createCat, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { NO_RATE_LIMITS } from '../../../test/hostile/support/world.ts';
import { actorIds, notificationsClient } from '../../../test/notifications.ts';

/**
 * Issue 25 'a new sighting of a cat you follow or care for', issue 26 'Follow a cat: its new sightings
 * will notify you': a post linked to a cat tells the cat's followers and caretakers (migration 0017),
 * in the link's own transaction, and takes it back when the link is undone.
 */
describe('cat sighting notifications', () => {
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
  const sightings = (user: { id: string }, postId?: string) => api.ofType(user, 'cat_sighting', postId);
  /** The rows of a post's sighting entries, whoever may see them: what was written, not what is shown. */
  const rowsAbout = (postId: string) =>
    t.db
      .select({ recipientId: notifications.recipientId, catId: notifications.catId })
      .from(notifications)
      .where(and(eq(notifications.postId, postId), eq(notifications.type, 'cat_sighting')));
  /** A key of an entry (at any depth) that could place it: none may exist. */
  const placeKeys = /"(latitude|longitude|locationPrecision|showLocation|home\w*|location\w*)":/i;

  it("tells the cat's followers and caretakers of a new sighting, once each, naming the author and the cat", async () => {
    const [carer, follower, both, author, bystander] = await users(5);
    const cat = await createCat(t.db, carer!.id, { name: 'Luna', caretakers: [both!.id] });
    await api.follow(follower!, cat.id);
    await api.follow(both!, cat.id);
    // The author follows the cat too: their own sighting tells them nothing.
    await api.follow(author!, cat.id);

    const postId = await api.uploadSighting(author!, cat.id);
    for (const who of [carer!, follower!, both!]) {
      const entries = await api.all(who);
      expect(entries).toHaveLength(1);
      const [entry] = entries as [Notification];
      expect(entry).toMatchObject({
        type: 'cat_sighting',
        read: false,
        actorCount: 1,
        post: { _id: postId },
        cat: { _id: cat.id, name: 'Luna' },
        group: null,
        comment: null,
        link: `/posts/${postId}`,
      });
      expect(actorIds(entry)).toEqual([author!.id]);
      // The post was uploaded with its location on: the entry still carries no place at all.
      expect(JSON.stringify(entry)).not.toMatch(placeKeys);
      expect(JSON.stringify(entry)).not.toContain('51.5');
      expect(await api.unread(who)).toBe(1);
    }
    expect(await sightings(author!)).toEqual([]);
    expect(await api.all(bystander!)).toEqual([]);
    expect((await rowsAbout(postId)).map((r) => r.recipientId).sort()).toEqual(
      [carer!.id, follower!.id, both!.id].sort(),
    );
  });

  it('tells when a post is linked later, takes it back when unlinked, and moves it to the other cat on a relink', async () => {
    const [carer, follower, other, fanOfBoth, author] = await users(5);
    const luna = await createCat(t.db, carer!.id, { name: 'Luna' });
    const momo = await createCat(t.db, other!.id, { name: 'Momo' });
    await api.follow(follower!, luna.id);
    await api.follow(fanOfBoth!, luna.id);
    await api.follow(fanOfBoth!, momo.id);
    const postId = await api.upload(author!);
    expect(await rowsAbout(postId)).toEqual([]);

    await api.linkCat(author!, postId, luna.id);
    for (const who of [carer!, follower!, fanOfBoth!]) {
      expect((await sightings(who, postId)).map((n) => n.cat)).toEqual([{ _id: luna.id, name: 'Luna' }]);
    }
    // Saved again with the same cat: nobody is told twice.
    await api.linkCat(author!, postId, luna.id);
    expect(await rowsAbout(postId)).toHaveLength(3);

    // Relinked to Momo: Luna's people lose the entry, Momo's are told; a fan of both keeps one, Momo's.
    await api.linkCat(author!, postId, momo.id);
    expect(await sightings(carer!)).toEqual([]);
    expect(await sightings(follower!)).toEqual([]);
    expect(await api.unread(follower!)).toBe(0);
    expect((await sightings(other!, postId)).map((n) => n.cat)).toEqual([{ _id: momo.id, name: 'Momo' }]);
    expect((await sightings(fanOfBoth!)).map((n) => n.cat?._id)).toEqual([momo.id]);

    // Unlinked: gone from the database, not only from view.
    await api.linkCat(author!, postId, null);
    expect(await rowsAbout(postId)).toEqual([]);
    expect(await sightings(other!)).toEqual([]);
    expect(await api.unread(fanOfBoth!)).toBe(0);
  });

  it('never tells anyone who shares a block with the author, either way, and a later block hides what was said', async () => {
    const [carer, blocker, blocked, author, later] = await users(5);
    const cat = await createCat(t.db, carer!.id, { caretakers: [blocked!.id] });
    await api.follow(blocker!, cat.id);
    await api.follow(later!, cat.id);
    await api.block(blocker!, author!); // a follower blocked the author
    await api.block(author!, blocked!); // the author blocked a caretaker

    const postId = await api.uploadSighting(author!, cat.id);
    expect(await sightings(blocker!)).toEqual([]);
    expect(await sightings(blocked!)).toEqual([]);
    expect((await rowsAbout(postId)).map((r) => r.recipientId).sort()).toEqual([carer!.id, later!.id].sort());

    await api.block(later!, author!);
    expect(await sightings(later!)).toEqual([]);
    expect(await api.unread(later!)).toBe(0);
    expect(await sightings(carer!, postId)).toHaveLength(1);
  });

  it('never tells anyone about a post they hid', async () => {
    const [carer, hider, author] = await users(3);
    const cat = await createCat(t.db, carer!.id);
    await api.follow(hider!, cat.id);
    const postId = await api.upload(author!);
    await api.hide(hider!, postId);
    await api.linkCat(author!, postId, cat.id);
    expect(await sightings(hider!)).toEqual([]);
    expect((await rowsAbout(postId)).map((r) => r.recipientId)).toEqual([carer!.id]);
  });

  it('writes no entry for someone who switched the type off, and writes again once it is back on', async () => {
    const [carer, follower, author] = await users(3);
    const cat = await createCat(t.db, carer!.id);
    await api.follow(follower!, cat.id);
    await api.setInApp(follower!, 'cat_sighting', false);
    const first = await api.uploadSighting(author!, cat.id);
    expect((await rowsAbout(first)).map((r) => r.recipientId)).toEqual([carer!.id]);

    await api.setInApp(follower!, 'cat_sighting', true);
    const second = await api.uploadSighting(author!, cat.id);
    expect((await sightings(follower!)).map((n) => n.post?._id)).toEqual([second]);
  });

  it("hides a trashed sighting's entries until it is restored; a post in the trash tells nobody", async () => {
    const [carer, follower, author] = await users(3);
    const cat = await createCat(t.db, carer!.id);
    await api.follow(follower!, cat.id);
    const postId = await api.uploadSighting(author!, cat.id);
    const before = await sightings(follower!);
    expect(before).toHaveLength(1);

    await api.ok(author!, 'DELETE', `/api/posts/${postId}`);
    expect(await sightings(follower!)).toEqual([]);
    expect(await sightings(carer!)).toEqual([]);
    expect(await api.unread(follower!)).toBe(0);
    // The API links no post in the trash (404); written directly, the trigger still tells nobody.
    const res = await api.send(author!, 'PUT', `/api/posts/${postId}/cat`, { catId: null });
    expect(res.statusCode).toBe(404);
    await t.db.update(posts).set({ catId: null }).where(eq(posts.id, postId));
    await t.db.update(posts).set({ catId: cat.id }).where(eq(posts.id, postId));
    expect(await rowsAbout(postId)).toEqual([]);
    const trashed = await createPost(t.db, author!.id, { catId: cat.id, deletedAt: new Date() });
    expect(await rowsAbout(trashed.id)).toEqual([]);

    // A sighting trashed and restored untouched shows its entry again, as every entry about a post does.
    const kept = await api.uploadSighting(author!, cat.id);
    const shown = await sightings(follower!, kept);
    expect(shown).toHaveLength(1);
    await api.ok(author!, 'DELETE', `/api/posts/${kept}`);
    expect(await sightings(follower!, kept)).toEqual([]);
    await api.ok(author!, 'POST', `/api/posts/${kept}/restore`);
    expect(await sightings(follower!, kept)).toEqual(shown);
  });

  it('goes with the post, and with the cat, when either is deleted for good', async () => {
    const [carer, follower, author] = await users(3);
    const cat = await createCat(t.db, carer!.id);
    const other = await createCat(t.db, carer!.id);
    await api.follow(follower!, cat.id);
    await api.follow(follower!, other.id);
    const gone = (await createPost(t.db, author!.id, { catId: cat.id })).id;
    const stays = (await createPost(t.db, author!.id, { catId: other.id })).id;
    expect(await rowsAbout(gone)).toHaveLength(2);
    await t.db.delete(posts).where(eq(posts.id, gone));
    expect(await rowsAbout(gone)).toEqual([]);
    await t.db.execute(sql`delete from cats where id = ${other.id}`);
    expect(await rowsAbout(stays)).toEqual([]);
    expect(await api.all(follower!)).toEqual([]);
  });

  it('shows nothing about a cat a moderator removed, and shows it again when the cat is restored', async () => {
    const [carer, follower, author] = await users(3);
    const removed = await createCat(t.db, carer!.id);
    const live = await createCat(t.db, carer!.id);
    await api.follow(follower!, removed.id);
    await api.follow(follower!, live.id);
    const hiddenPost = (await createPost(t.db, author!.id, { catId: removed.id })).id;
    const shownPost = (await createPost(t.db, author!.id, { catId: live.id })).id;
    expect((await sightings(follower!)).map((n) => n.post?._id).sort()).toEqual(
      [hiddenPost, shownPost].sort(),
    );

    await t.db.execute(sql`update cats set removed_at = now() where id = ${removed.id}`);
    expect((await sightings(follower!)).map((n) => n.post?._id)).toEqual([shownPost]);
    expect(await api.unread(follower!)).toBe(1);
    // The rows stay (a moderator may restore the cat): only what is shown changes.
    expect(await rowsAbout(hiddenPost)).toHaveLength(2);

    await t.db.execute(sql`update cats set removed_at = null where id = ${removed.id}`);
    expect(await sightings(follower!)).toHaveLength(2);
    expect(await api.unread(follower!)).toBe(2);
  });

  it("near a household cat's home tells its caretakers without a place, and shows followers nothing", async () => {
    const [carer, follower, author] = await users(3);
    const cat = await createCat(t.db, carer!.id, {
      name: 'Homebody',
      living: 'household',
      homeLatitude: 51.50135,
      homeLongitude: -0.12,
    });
    await api.follow(follower!, cat.id);
    // Only a household cat's caretakers link a picture to it (issue 46): the author's, a few metres from
    // the home, is linked as their acceptance of a caretaker's 'This is…' would link it.
    const postId = (
      await createPost(t.db, author!.id, {
        catId: cat.id,
        latitude: 51.5,
        longitude: -0.12,
        showLocation: true,
      })
    ).id;
    const [entry] = await sightings(carer!, postId);
    expect(entry).toMatchObject({ cat: { _id: cat.id, name: 'Homebody' }, link: `/posts/${postId}` });
    const text = JSON.stringify(entry);
    expect(text).not.toMatch(placeKeys);
    expect(text).not.toContain('51.5');
    expect(text).not.toContain('-0.12');
    // The follower would pair the post (and so its cell) with the cat: not theirs to see (migration
    // 0018), in the list or the count.
    expect(await sightings(follower!, postId)).toEqual([]);
    expect(await api.all(follower!)).toEqual([]);
  });

  it('tells many followers in one statement, each counter taken once', async () => {
    const [carer, author] = await users(2);
    const cat = await createCat(t.db, carer!.id);
    const crowd = await users(200);
    await t.db.execute(sql`insert into cat_follows (cat_id, user_id)
      select ${cat.id}::uuid, u from unnest(${sql.param(crowd.map((u) => u.id))}::uuid[]) u`);
    const postId = (await createPost(t.db, author!.id, { catId: cat.id })).id;
    const rows = await t.db
      .select({ recipientId: notifications.recipientId, seq: notifications.seq })
      .from(notifications)
      .where(eq(notifications.postId, postId));
    expect(rows.map((r) => r.recipientId).sort()).toEqual([carer!.id, ...crowd.map((u) => u.id)].sort());
    expect(rows.filter((r) => r.recipientId !== carer!.id).every((r) => r.seq === 1)).toBe(true);
  });

  it('the database refuses a sighting entry without a cat, and a cat on any other type', async () => {
    const [carer, author] = await users(2);
    const cat = await createCat(t.db, carer!.id);
    const post = await createPost(t.db, author!.id);
    const refusal = (insert: Promise<unknown>) =>
      insert.then(
        () => 'written',
        (err: unknown) => (violatesConstraint(err, 'notifications_cat_types') ? 'refused' : String(err)),
      );
    // Each row is otherwise valid for its type: only the cat makes it wrong.
    expect(
      await refusal(
        t.db.execute(sql`insert into notifications (recipient_id, type, actor_id, post_id, seq)
          values (${carer!.id}, 'cat_sighting', ${author!.id}, ${post.id}, 999)`),
      ),
    ).toBe('refused');
    expect(
      await refusal(
        t.db.execute(sql`insert into notifications (recipient_id, type, post_id, window_start, cat_id, seq)
          values (${carer!.id}, 'like', ${post.id}, now(), ${cat.id}, 999)`),
      ),
    ).toBe('refused');
  });
});
