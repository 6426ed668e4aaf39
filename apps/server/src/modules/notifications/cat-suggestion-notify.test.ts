import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAT_MESSAGES, type PostCatSuggestion, type Notification } from '@cats/contracts';
import { catSuggestions, notificationCounters, notifications } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { createCat, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { NO_RATE_LIMITS } from '../../../test/hostile/support/world.ts';
import { actorIds, notificationsClient } from '../../../test/notifications.ts';
import { pushMessage } from '../push/push-message.ts';
import { listNotifications } from './notifications.repository.ts';

/**
 * Issue 26, "Linking sightings": 'This is Luna' tells the picture's author (cat_suggestion) and, once
 * accepted, the suggester (cat_suggestion_accepted), through the migration's triggers and their rules
 * (blocks, hidden posts, switched-off types, never one's own action). A merge of two cats, and its undo,
 * move old sightings between profiles: they tell nobody anything (migration 0020).
 */
describe('cat suggestion and merge notifications', () => {
  let t: TestApp;
  let api: ReturnType<typeof notificationsClient>;
  beforeAll(async () => {
    t = await buildTestApp(NO_RATE_LIMITS);
    api = notificationsClient(t);
  });
  afterAll(async () => t?.close());

  const users = async (n: number): Promise<CreatedUser[]> => {
    const out = [];
    for (let i = 0; i < n; i += 1) out.push(await createUser(t.db));
    return out;
  };
  const suggest = async (user: CreatedUser, postId: string, catId: string) =>
    (
      (await api.ok(user, 'POST', `/api/posts/${postId}/cat-suggestions`, { catId })).json() as {
        suggestion: PostCatSuggestion;
      }
    ).suggestion;
  const placeKeys = /"(latitude|longitude|locationPrecision|showLocation|home\w*|location\w*)":/i;
  /** Every user's event number: a merge that told anyone anything would move one. */
  const counters = async () =>
    (await t.db.select().from(notificationCounters)).sort((a, b) => a.userId.localeCompare(b.userId));

  it('tells the author who suggests which cat, linking to the picture, with no place; nobody else', async () => {
    const [author, mariposa, carer, fan] = await users(4);
    const luna = await createCat(t.db, carer!.id, { name: 'Luna' });
    await api.follow(fan!, luna.id);
    const postId = await api.uploadSighting(author!, (await createCat(t.db, carer!.id)).id);
    await api.readAll(carer!);
    const carerBefore = await api.unread(carer!);
    await suggest(mariposa!, postId, luna.id);

    const entries = await api.ofType(author!, 'cat_suggestion');
    expect(entries).toHaveLength(1);
    const [entry] = entries as [Notification];
    expect(entry).toMatchObject({
      type: 'cat_suggestion',
      read: false,
      post: { _id: postId },
      cat: { _id: luna.id, name: 'Luna' },
      link: `/posts/${postId}`,
    });
    expect(actorIds(entry)).toEqual([mariposa!.id]);
    // The picture was posted with its location on: the entry has no place, nor its push.
    expect(JSON.stringify(entry)).not.toMatch(placeKeys);
    const [row] = (await listNotifications(t.db, author!.id, 20, null)).filter(
      (r) => r.type === 'cat_suggestion',
    );
    const push = pushMessage(row!);
    expect(push).toMatchObject({
      title: `${mariposa!.username} suggests your picture shows Luna`,
      url: `/posts/${postId}`,
    });
    expect(JSON.stringify(push)).not.toMatch(/51\.5|-0\.12/);
    // A suggestion is the author's business: the suggester, the cat's people and its followers hear nothing.
    for (const who of [mariposa!, fan!]) expect(await api.all(who)).toEqual([]);
    expect(await api.unread(carer!)).toBe(carerBefore);
  });

  it('tells the suggester when the author accepts, and nobody when they decline', async () => {
    const [author, mariposa, other, carer] = await users(4);
    const luna = await createCat(t.db, carer!.id, { name: 'Luna' });
    const first = await createPost(t.db, author!.id);
    const second = await createPost(t.db, author!.id);
    const accepted = await suggest(mariposa!, first.id, luna.id);
    const declined = await suggest(other!, second.id, luna.id);
    await api.ok(author!, 'POST', `/api/posts/${first.id}/cat-suggestions/${accepted._id}/accept`);
    await api.ok(author!, 'POST', `/api/posts/${second.id}/cat-suggestions/${declined._id}/decline`);

    const told = await api.ofType(mariposa!, 'cat_suggestion_accepted');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      post: { _id: first.id },
      cat: { _id: luna.id },
      link: `/posts/${first.id}`,
    });
    expect(actorIds(told[0])).toEqual([author!.id]);
    const [row] = await listNotifications(t.db, mariposa!.id, 20, null);
    expect(pushMessage(row!).title).toBe(`${author!.username} agreed that their picture shows Luna`);
    expect(await api.all(other!)).toEqual([]);
    // The author's own answers tell the author nothing.
    expect(await api.ofType(author!, 'cat_suggestion_accepted')).toEqual([]);
  });

  it('tells the suggester too when the author links the picture to that cat themself', async () => {
    const [author, mariposa, carer] = await users(3);
    const luna = await createCat(t.db, carer!.id, { name: 'Luna' });
    const post = await createPost(t.db, author!.id);
    await suggest(mariposa!, post.id, luna.id);
    await api.linkCat(author!, post.id, luna.id);
    expect(await api.ofType(mariposa!, 'cat_suggestion_accepted')).toHaveLength(1);
  });

  it('respects blocks, switched-off types and hidden posts', async () => {
    const [author, mariposa, carer, picky] = await users(4);
    const luna = await createCat(t.db, carer!.id, { name: 'Luna' });
    // A block made after the suggestion takes the entry out of the author's list, and its count.
    const post = await createPost(t.db, author!.id);
    await suggest(mariposa!, post.id, luna.id);
    expect(await api.ofType(author!, 'cat_suggestion')).toHaveLength(1);
    await api.block(author!, mariposa!);
    expect(await api.ofType(author!, 'cat_suggestion')).toEqual([]);
    expect(await api.unread(author!)).toBe(0);
    // Switched off in the app: no entry at all.
    await api.setInApp(picky!, 'cat_suggestion', false);
    const picture = await createPost(t.db, picky!.id);
    await suggest(carer!, picture.id, luna.id);
    expect(
      await t.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.recipientId, picky!.id), eq(notifications.type, 'cat_suggestion'))),
    ).toEqual([]);
    // The suggester hid the picture after suggesting: they are not told of its acceptance.
    const third = await createPost(t.db, picky!.id);
    const made = await suggest(carer!, third.id, luna.id);
    await api.hide(carer!, third.id);
    await api.ok(picky!, 'POST', `/api/posts/${third.id}/cat-suggestions/${made._id}/accept`);
    expect(await api.ofType(carer!, 'cat_suggestion_accepted', third.id)).toEqual([]);
  });

  it("does not tell a suggester who is no caretaker that a picture by a household cat's home is that cat", async () => {
    const [author, mariposa, carer] = await users(3);
    const home = { latitude: 51.52, longitude: -0.1 };
    const milo = await createCat(t.db, carer!.id, {
      name: 'Milo',
      living: 'household',
      homeLatitude: home.latitude,
      homeLongitude: home.longitude,
    });
    const post = await createPost(t.db, author!.id, {
      latitude: home.latitude + 0.0003,
      longitude: home.longitude,
      showLocation: true,
    });
    // A household cat is suggested by its caretakers alone (decision 022): mariposa is refused at once.
    const asked = await api.send(mariposa!, 'POST', `/api/posts/${post.id}/cat-suggestions`, {
      catId: milo.id,
    });
    expect(asked.statusCode, asked.body).toBe(403);
    expect(asked.json()).toEqual({ message: CAT_MESSAGES.householdSuggestCaretakers });
    // One made before that rule is linked on its caretakers' word alone (issue 46): refused at
    // acceptance, and the suggester told nothing.
    const [made] = await t.db
      .insert(catSuggestions)
      .values({ postId: post.id, catId: milo.id, suggestedBy: mariposa!.id })
      .returning();
    const refused = await api.send(
      author!,
      'POST',
      `/api/posts/${post.id}/cat-suggestions/${made!.id}/accept`,
    );
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toEqual({ message: CAT_MESSAGES.householdLinkCaretakers });
    expect(await api.ofType(mariposa!, 'cat_suggestion_accepted')).toEqual([]);
    expect(await api.unread(mariposa!)).toBe(0);
    // A caretaker suggesting the same of another picture there is told: they know the home.
    const next = await createPost(t.db, author!.id, {
      latitude: home.latitude - 0.0003,
      longitude: home.longitude,
      showLocation: true,
    });
    const theirs = await suggest(carer!, next.id, milo.id);
    await api.ok(author!, 'POST', `/api/posts/${next.id}/cat-suggestions/${theirs._id}/accept`);
    expect(await api.ofType(carer!, 'cat_suggestion_accepted')).toHaveLength(1);
  });

  it('merging two cats tells their followers nothing; their entries follow the sightings, and back on undo', async () => {
    const [carer, follower, bothFan, author] = await users(4);
    const luna = await createCat(t.db, carer!.id, { name: 'Luna' });
    const twin = await createCat(t.db, carer!.id, { name: 'Luna 2' });
    await api.follow(follower!, twin.id);
    await api.follow(bothFan!, luna.id);
    await api.follow(bothFan!, twin.id);
    const old = await api.uploadSighting(author!, twin.id);
    const seen = await api.ofType(follower!, 'cat_sighting', old);
    expect(seen.map((n) => n.cat?.name)).toEqual(['Luna 2']);
    await api.readAll(follower!);
    const before = await counters();

    const merged = await api.ok(carer!, 'POST', `/api/cats/${luna.id}/merge`, { duplicateCatId: twin.id });
    // Nobody was told anything: no user's event number moved, nothing unread.
    expect(await counters()).toEqual(before);
    for (const who of [follower!, bothFan!, carer!]) {
      const entries = await api.ofType(who, 'cat_sighting', old);
      // The one entry about the old sighting, now naming the cat it shows, as read as it was.
      expect(
        entries.map((n) => [n.cat?._id, n.cat?.name]),
        who.username,
      ).toEqual([[luna.id, 'Luna']]);
    }
    expect(await api.unread(follower!)).toBe(0);

    // Linking stays as it was for everyone else: a new sighting of Luna tells her followers at once.
    const fresh = await api.uploadSighting(author!, luna.id);
    expect(await api.ofType(follower!, 'cat_sighting', fresh)).toHaveLength(1);
    await api.readAll(follower!);

    const mergeId = (merged.json() as { merge: { _id: string } }).merge._id;
    const beforeUndo = await counters();
    await api.ok(carer!, 'POST', `/api/cats/${luna.id}/merges/${mergeId}/undo`);
    expect(await counters()).toEqual(beforeUndo);
    expect((await api.ofType(follower!, 'cat_sighting', old)).map((n) => n.cat?.name)).toEqual(['Luna 2']);
    // The sighting linked after the merge stays Luna's, and so does its entry.
    expect((await api.ofType(follower!, 'cat_sighting', fresh)).map((n) => n.cat?.name)).toEqual(['Luna']);
    expect(await api.unread(follower!)).toBe(0);
  });
});
