import { readdirSync } from 'node:fs';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAT_MESSAGES,
  CATS_PAGE_SIZE,
  CAT_SIGHTINGS_PAGE_SIZE,
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  type Cat,
  type CatMapResponse,
  type CatsResponse,
  type CatSightingsResponse,
  type Post,
} from '@cats/contracts';
import { blocks, catCaretakers, cats, hiddenPosts, posts } from '../../db/schema/index.ts';
import { approximateLocation } from '../location/location-grid.ts';
import { metresBetween } from '../visibility/cat-place.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createCat, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { fixture, multipartBody } from '../../../test/fixtures/images.ts';

/** Issue 26, first slice: cat profiles, their sightings, map and list, linking, following, caretakers. */
describe('cats', () => {
  let t: TestApp;
  let alice: CreatedUser; // creates and cares for cats
  let bob: CreatedUser; // a neighbour
  let carol: CreatedUser; // another neighbour
  const h = (user: { id: string }) => authHeader(t.app, user.id);

  async function api(
    user: { id: string } | null,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) {
    return t.app.inject({
      method,
      url,
      headers: user ? await h(user) : {},
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  }
  /** Its caretaker marks the cat missing, last seen an hour ago at `place`. */
  async function markMissing(
    keeper: { id: string },
    catId: string,
    place: { latitude: number; longitude: number },
  ) {
    const res = await api(keeper, 'POST', `/api/cats/${catId}/missing`, {
      lastSeenAt: new Date(Date.now() - 3_600_000).toISOString(),
      place,
      note: 'Grey, red collar.',
      contact: 'report',
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  const catCount = async () => (await t.db.select({ n: count() }).from(cats))[0]!.n;
  const getCat = async (viewer: { id: string }, catId: string) => {
    const res = await api(viewer, 'GET', `/api/cats/${catId}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { cat: Cat }).cat;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    alice = await createUser(t.db);
    bob = await createUser(t.db);
    carol = await createUser(t.db);
  });
  afterAll(async () => t?.close());

  describe('POST /api/cats', () => {
    it('creates a cat whose creator is its first caretaker', async () => {
      const res = await api(alice, 'POST', '/api/cats', {
        name: '  Luna ',
        description: 'Sleeps on the wall',
        coatColours: ['ginger', 'tabby', 'ginger'],
        earTipped: 'yes',
        living: 'community',
      });
      expect(res.statusCode, res.body).toBe(201);
      const { cat, message } = res.json() as { cat: Cat; message: string };
      expect(message).toBe('Cat created');
      expect(cat).toMatchObject({
        name: 'Luna',
        description: 'Sleeps on the wall',
        coatColours: ['ginger', 'tabby'],
        earTipped: 'yes',
        neutered: 'unknown',
        living: 'community',
        createdBy: { _id: alice.id, username: alice.username },
        caretakers: [{ _id: alice.id }],
        lastSeen: null,
        cover: null,
        sightingCount: 0,
        followerCount: 0,
        home: null,
        viewer: { isCaretaker: true, canEdit: true, following: false, canFollow: true },
      });
    });

    it("links the creator's own post and makes it the cover", async () => {
      const post = await createPost(t.db, alice.id);
      const res = await api(alice, 'POST', '/api/cats', { name: 'Momo', postId: post.id });
      expect(res.statusCode, res.body).toBe(201);
      const { cat } = res.json() as { cat: Cat };
      expect(cat.cover?.postId).toBe(post.id);
      expect(cat.lastSeen?.postId).toBe(post.id);
      expect(cat.sightingCount).toBe(1);
      const [row] = await t.db.select({ catId: posts.catId }).from(posts).where(eq(posts.id, post.id));
      expect(row!.catId).toBe(cat._id);
    });

    it("refuses someone else's post, an unknown one, a bad name, the demo account and strangers; nothing is created", async () => {
      const others = await createPost(t.db, bob.id);
      const before = await catCount();
      const cases: [{ id: string } | null, unknown, number, string][] = [
        [alice, { name: 'Tom', postId: others.id }, 403, CAT_MESSAGES.postNotYours],
        [alice, { name: 'Tom', postId: crypto.randomUUID() }, 404, CAT_MESSAGES.postNotFound],
        [alice, { name: 'Tom', postId: 'not-a-uuid' }, 404, CAT_MESSAGES.postNotFound],
        [alice, { name: '   ' }, 400, 'Name is required'],
        [alice, { name: 'x'.repeat(41) }, 400, 'Name is at most 40 characters'],
        [alice, { name: 'Tom', coatColours: ['purple'] }, 400, ''],
        [{ id: DEMO_USER_ID }, { name: 'Tom' }, 403, DEMO_DISABLED_MESSAGE],
        [null, { name: 'Tom' }, 401, ''],
      ];
      for (const [who, body, status, message] of cases) {
        const res = await api(who, 'POST', '/api/cats', body);
        expect(res.statusCode, res.body).toBe(status);
        const answer = res.json() as { message: string };
        expect(typeof answer.message).toBe('string');
        if (message) expect(answer.message).toBe(message);
      }
      expect(await catCount()).toBe(before);
      const [row] = await t.db.select({ catId: posts.catId }).from(posts).where(eq(posts.id, others.id));
      expect(row!.catId).toBeNull();
    });

    it('keeps invariants in the database too', async () => {
      await expect(t.db.insert(cats).values({ name: '' })).rejects.toThrow();
      await expect(t.db.insert(cats).values({ name: 'A', coatColours: ['purple'] })).rejects.toThrow();
      await expect(t.db.insert(cats).values({ name: 'A', living: 'indoors' })).rejects.toThrow();
      await expect(t.db.insert(cats).values({ name: 'A', homeLatitude: 10 })).rejects.toThrow();
      await expect(
        t.db.insert(cats).values({ name: 'A', homeLatitude: 91, homeLongitude: 0 }),
      ).rejects.toThrow();
    });
  });

  describe('GET and PATCH /api/cats/{catId}', () => {
    it('answers 404 for unknown and malformed ids', async () => {
      for (const id of [crypto.randomUUID(), 'nope', '1%27%20or%201=1']) {
        const res = await api(bob, 'GET', `/api/cats/${id}`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: CAT_MESSAGES.notFound });
      }
    });

    it('lets caretakers edit; others and the demo account change nothing', async () => {
      const cat = await createCat(t.db, alice.id, { name: 'Pixel' });
      for (const [who, status, message] of [
        [bob, 403, CAT_MESSAGES.notCaretaker],
        [{ id: DEMO_USER_ID }, 403, DEMO_DISABLED_MESSAGE],
      ] as const) {
        const res = await api(who, 'PATCH', `/api/cats/${cat.id}`, { name: 'Hacked' });
        expect(res.statusCode).toBe(status);
        expect(res.json()).toEqual({ message });
      }
      expect((await getCat(bob, cat.id)).name).toBe('Pixel');
      const res = await api(alice, 'PATCH', `/api/cats/${cat.id}`, {
        name: 'Pixel II',
        neutered: 'yes',
        coatColours: ['black', 'white'],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as { cat: Cat }).cat).toMatchObject({
        name: 'Pixel II',
        neutered: 'yes',
        coatColours: ['black', 'white'],
      });
      const missing = await api(alice, 'PATCH', `/api/cats/${crypto.randomUUID()}`, { name: 'X' });
      expect(missing.statusCode).toBe(404);
    });

    it('takes as cover only one of its sightings the caretaker may see', async () => {
      const cat = await createCat(t.db, alice.id);
      const sighting = await createPost(t.db, bob.id, { catId: cat.id });
      const elsewhere = await createPost(t.db, bob.id);
      for (const coverPostId of [elsewhere.id, crypto.randomUUID(), 'x']) {
        const res = await api(alice, 'PATCH', `/api/cats/${cat.id}`, { coverPostId });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: CAT_MESSAGES.coverNotSighting });
      }
      await t.db.insert(hiddenPosts).values({ userId: alice.id, postId: sighting.id });
      const hidden = await api(alice, 'PATCH', `/api/cats/${cat.id}`, { coverPostId: sighting.id });
      expect(hidden.statusCode).toBe(400);
      await t.db.delete(hiddenPosts).where(eq(hiddenPosts.postId, sighting.id));
      const res = await api(alice, 'PATCH', `/api/cats/${cat.id}`, { coverPostId: sighting.id });
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as { cat: Cat }).cat.cover?.postId).toBe(sighting.id);
    });

    it('shows the home point to caretakers only, and forgets it on null', async () => {
      const cat = await createCat(t.db, alice.id, { caretakers: [carol.id] });
      const res = await api(alice, 'PATCH', `/api/cats/${cat.id}`, {
        home: { latitude: 51.501234, longitude: -0.123456 },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as { cat: Cat }).cat.home).toEqual({ latitude: 51.501234, longitude: -0.123456 });
      expect((await getCat(carol, cat.id)).home).toEqual({ latitude: 51.501234, longitude: -0.123456 });
      for (const viewer of [bob, { id: DEMO_USER_ID }]) {
        const other = await api(viewer, 'GET', `/api/cats/${cat.id}`);
        expect(other.json()).not.toHaveProperty('cat.home');
        expect(other.body).not.toContain('51.501234');
      }
      const half = await api(alice, 'PATCH', `/api/cats/${cat.id}`, { home: { latitude: 51.5 } });
      expect(half.statusCode).toBe(400);
      const cleared = await api(alice, 'PATCH', `/api/cats/${cat.id}`, { home: null });
      expect((cleared.json() as { cat: Cat }).cat.home).toBeNull();
    });
  });

  describe('linking posts', () => {
    it("lets the author link and unlink their post; everyone's views of it name the cat", async () => {
      const cat = await createCat(t.db, alice.id, { name: 'Biscuit' });
      const post = await createPost(t.db, bob.id);
      const res = await api(bob, 'PUT', `/api/posts/${post.id}/cat`, { catId: cat.id });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        updatedPost: { _id: post.id, cat: { _id: cat.id, name: 'Biscuit' } },
      });
      const seen = await api(carol, 'GET', `/api/posts/${post.id}`);
      expect((seen.json() as Post).cat).toEqual({ _id: cat.id, name: 'Biscuit', missing: false });
      // Its cover, until unlinked.
      await api(alice, 'PATCH', `/api/cats/${cat.id}`, { coverPostId: post.id });
      const unlinked = await api(bob, 'PUT', `/api/posts/${post.id}/cat`, { catId: null });
      expect(unlinked.json()).toEqual({ updatedPost: { _id: post.id, cat: null } });
      const [row] = await t.db.select({ cover: cats.coverPostId }).from(cats).where(eq(cats.id, cat.id));
      expect(row!.cover).toBeNull();
      expect(((await api(carol, 'GET', `/api/posts/${post.id}`)).json() as Post).cat).toBeNull();
    });

    it("says on a post's views when its cat is missing, by an alert the viewer may see", async () => {
      const spot = { latitude: 37.3891, longitude: -5.9845 };
      const keeper = await createUser(t.db);
      const blockedByKeeper = await createUser(t.db);
      await t.db.insert(blocks).values({ blockerId: keeper.id, blockedId: blockedByKeeper.id });
      const lost = await createCat(t.db, keeper.id, { name: 'Lost one' });
      const other = await createCat(t.db, keeper.id, { name: 'Other one' });
      const ofLost = await createPost(t.db, bob.id, { catId: lost.id, ...spot, showLocation: true });
      const ofOther = await createPost(t.db, bob.id, { catId: other.id, ...spot, showLocation: true });
      await markMissing(keeper, lost.id, spot);
      const missingOf = async (viewer: { id: string }, postId: string) => {
        const res = await api(viewer, 'GET', `/api/posts/${postId}`);
        expect(res.statusCode, res.body).toBe(200);
        return (res.json() as Post).cat?.missing;
      };
      // The post page, the feed and the cat's own timeline all say it (one statement serves them).
      expect(await missingOf(carol, ofLost.id)).toBe(true);
      expect(await missingOf(carol, ofOther.id)).toBe(false);
      const feed = (await api(carol, 'GET', '/api/feed/1')).json() as { posts: Post[] };
      expect(feed.posts.find((p) => p._id === ofLost.id)?.cat).toEqual({
        _id: lost.id,
        name: 'Lost one',
        missing: true,
      });
      const timeline = (await api(carol, 'GET', `/api/cats/${lost.id}/sightings`)).json() as {
        posts: Post[];
      };
      expect(timeline.posts.map((p) => p.cat?.missing)).toEqual([true]);
      // An alert raised by someone the viewer shares a block with is not shown to them, here either.
      expect(await missingOf(blockedByKeeper, ofLost.id)).toBe(false);
      // Relinked to the missing cat: the answer says so, for the card to show it at once.
      const relinked = await api(bob, 'PUT', `/api/posts/${ofOther.id}/cat`, { catId: lost.id });
      expect(relinked.statusCode, relinked.body).toBe(200);
      expect(relinked.json()).toMatchObject({ updatedPost: { cat: { _id: lost.id, missing: true } } });
      const found = await api(keeper, 'DELETE', `/api/cats/${lost.id}/missing`);
      expect(found.statusCode, found.body).toBe(200);
      expect(await missingOf(carol, ofLost.id)).toBe(false);
    });

    it('refuses others, the demo account, unknown cats and posts; nothing changes', async () => {
      const cat = await createCat(t.db, alice.id);
      const post = await createPost(t.db, bob.id);
      const hiddenFromCarol = await createPost(t.db, bob.id);
      await t.db.insert(hiddenPosts).values({ userId: carol.id, postId: hiddenFromCarol.id });
      const cases: [{ id: string }, string, unknown, number, string][] = [
        [alice, post.id, { catId: cat.id }, 403, CAT_MESSAGES.postNotYours],
        [{ id: DEMO_USER_ID }, post.id, { catId: cat.id }, 403, DEMO_DISABLED_MESSAGE],
        [bob, post.id, { catId: crypto.randomUUID() }, 404, CAT_MESSAGES.notFound],
        [bob, post.id, { catId: 'nope' }, 404, CAT_MESSAGES.notFound],
        [bob, crypto.randomUUID(), { catId: cat.id }, 404, CAT_MESSAGES.postNotFound],
        [carol, hiddenFromCarol.id, { catId: cat.id }, 404, CAT_MESSAGES.postNotFound],
      ];
      for (const [who, postId, body, status, message] of cases) {
        const res = await api(who, 'PUT', `/api/posts/${postId}/cat`, body);
        expect(res.statusCode, res.body).toBe(status);
        expect(res.json()).toEqual({ message });
      }
      const rows = await t.db.select({ catId: posts.catId }).from(posts).where(eq(posts.userId, bob.id));
      expect(rows.filter((r) => r.catId === cat.id)).toEqual([]);
    });

    it('createPost links the new post to a cat, and refuses an unknown cat with nothing stored', async () => {
      const cat = await createCat(t.db, alice.id, { name: 'Spot' });
      const upload = async (catId: string) => {
        const body = multipartBody(
          { comment: 'Here again', catId },
          { name: 'cat.jpg', type: 'image/jpeg', data: fixture('photo-no-gps.jpg') },
        );
        return t.app.inject({
          method: 'POST',
          url: '/api/posts/createPost',
          headers: { ...(await h(bob)), ...body.headers },
          payload: body.payload,
        });
      };
      const created = await upload(cat.id);
      expect(created.statusCode, created.body).toBe(201);
      expect((created.json() as { post: Post }).post.cat).toEqual({
        _id: cat.id,
        name: 'Spot',
        missing: false,
      });
      const postsBefore = (await t.db.select({ n: count() }).from(posts))[0]!.n;
      const filesBefore = readdirSync(t.mediaDir, { recursive: true }).length;
      for (const catId of [crypto.randomUUID(), 'nope']) {
        const res = await upload(catId);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: CAT_MESSAGES.notFound });
      }
      expect((await t.db.select({ n: count() }).from(posts))[0]!.n).toBe(postsBefore);
      expect(readdirSync(t.mediaDir, { recursive: true }).length).toBe(filesBefore);
    });
  });

  describe('sightings, last seen and the map', () => {
    it('lists the sightings the viewer may see, newest first, by cursor, as the feed shows them', async () => {
      const cat = await createCat(t.db, alice.id);
      const base = Date.now() - 60 * 60 * 1000;
      const made: string[] = [];
      for (let i = 0; i < CAT_SIGHTINGS_PAGE_SIZE + 3; i += 1) {
        const post = await createPost(t.db, i % 2 ? bob.id : alice.id, {
          catId: cat.id,
          createdAt: new Date(base + i * 1000),
        });
        made.unshift(post.id);
      }
      const first = await api(carol, 'GET', `/api/cats/${cat.id}/sightings`);
      expect(first.statusCode, first.body).toBe(200);
      const page1 = first.json() as CatSightingsResponse;
      expect(page1.posts.map((p) => p._id)).toEqual(made.slice(0, CAT_SIGHTINGS_PAGE_SIZE));
      expect(page1.posts[0]!.cat).toEqual({ _id: cat.id, name: cat.name, missing: false });
      const second = await api(
        carol,
        'GET',
        `/api/cats/${cat.id}/sightings?cursor=${encodeURIComponent(page1.info.nextCursor!)}`,
      );
      const page2 = second.json() as CatSightingsResponse;
      expect(page2.posts.map((p) => p._id)).toEqual(made.slice(CAT_SIGHTINGS_PAGE_SIZE));
      expect(page2.info.nextCursor).toBeNull();
      const bad = await api(carol, 'GET', `/api/cats/${cat.id}/sightings?cursor=zzz`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ message: 'Invalid cursor' });
      const unknown = await api(carol, 'GET', `/api/cats/${crypto.randomUUID()}/sightings`);
      expect(unknown.statusCode).toBe(404);
    });

    it('leaves out hidden, blocked and trashed sightings everywhere, counts included', async () => {
      const cat = await createCat(t.db, alice.id);
      const dave = await createUser(t.db);
      const visible = await createPost(t.db, bob.id, {
        catId: cat.id,
        createdAt: new Date(Date.now() - 3000),
      });
      const old = await createPost(t.db, bob.id, {
        catId: cat.id,
        createdAt: new Date(Date.now() - 10 * 24 * 3600 * 1000),
      });
      const hidden = await createPost(t.db, bob.id, { catId: cat.id });
      const byBlocked = await createPost(t.db, dave.id, { catId: cat.id });
      const trashed = await createPost(t.db, bob.id, { catId: cat.id, deletedAt: new Date() });
      await t.db.insert(hiddenPosts).values({ userId: carol.id, postId: hidden.id });
      await t.db.insert(blocks).values({ blockerId: dave.id, blockedId: carol.id });
      const sightings = (
        await api(carol, 'GET', `/api/cats/${cat.id}/sightings`)
      ).json() as CatSightingsResponse;
      expect(sightings.posts.map((p) => p._id)).toEqual([visible.id, old.id]);
      const seen = await getCat(carol, cat.id);
      expect(seen.lastSeen?.postId).toBe(visible.id);
      expect([seen.sightingCount, seen.sightingsThisWeek]).toEqual([2, 1]);
      const text = JSON.stringify(await getCat(carol, cat.id));
      for (const id of [hidden.id, byBlocked.id, trashed.id]) expect(text).not.toContain(id);
      // Dave sees his own, not the trashed one of Bob's.
      const daves = await getCat(dave, cat.id);
      expect(daves.lastSeen?.postId).toBe(byBlocked.id);
      expect(daves.sightingCount).toBe(4);
    });

    it('places each sighting as its post does: exact for the author, the cell for others, nothing when off', async () => {
      const cat = await createCat(t.db, alice.id);
      const spot = { latitude: 51.512345, longitude: -0.101234 };
      const off = { latitude: 51.612345, longitude: -0.201234 };
      const onPost = await createPost(t.db, bob.id, {
        catId: cat.id,
        ...spot,
        showLocation: true,
        createdAt: new Date(Date.now() - 5000),
      });
      const offPost = await createPost(t.db, bob.id, { catId: cat.id, ...off, showLocation: false });
      const cell = approximateLocation(spot.latitude, spot.longitude);

      const forCarol = await getCat(carol, cat.id);
      expect(forCarol.lastSeen).toMatchObject({
        postId: offPost.id,
        latitude: null,
        longitude: null,
        locationPrecision: null,
      });
      const map = (await api(carol, 'GET', `/api/cats/${cat.id}/map`)).json() as CatMapResponse;
      expect(map.points).toEqual([
        expect.objectContaining({ postId: onPost.id, ...cell, locationPrecision: 'approximate' }),
      ]);
      const bobsMap = (await api(bob, 'GET', `/api/cats/${cat.id}/map`)).json() as CatMapResponse;
      expect(bobsMap.points).toEqual([
        expect.objectContaining({ postId: onPost.id, ...spot, locationPrecision: 'exact' }),
      ]);
      expect((await getCat(bob, cat.id)).lastSeen).toMatchObject({ ...off, locationPrecision: 'exact' });
      const carolsText = JSON.stringify(forCarol) + JSON.stringify(map);
      for (const n of [spot.latitude, spot.longitude, off.latitude, off.longitude])
        expect(carolsText).not.toContain(String(n));
    });

    it("hides a household cat's sightings near its home from all but its caretakers and each sighting's author", async () => {
      // Bob cares for the cat too: the cells decide for a caretaker's sightings (decision 022); one by
      // anyone else is kept wherever it lies (near-home-cells.test.ts).
      const cat = await createCat(t.db, alice.id, { living: 'household', caretakers: [bob.id] });
      // A follower from the start: told of both sightings before the home point is set.
      const dave = await createUser(t.db);
      expect((await api(dave, 'PUT', `/api/cats/${cat.id}/follow`)).statusCode).toBe(200);
      const nearHome = { latitude: 51.4, longitude: -0.05 };
      // ~150 m north of the sighting: within CAT_HOME_PRIVACY_METRES.
      const home = { latitude: 51.40135, longitude: -0.05 };
      const away = { latitude: 51.43, longitude: -0.05 };
      const atHome = await createPost(t.db, bob.id, { catId: cat.id, ...nearHome, showLocation: true });
      const out = await createPost(t.db, bob.id, {
        catId: cat.id,
        ...away,
        showLocation: true,
        createdAt: new Date(Date.now() - 60_000),
      });
      const patched = await api(alice, 'PATCH', `/api/cats/${cat.id}`, { home });
      expect(patched.statusCode, patched.body).toBe(200);
      const homeCell = approximateLocation(nearHome.latitude, nearHome.longitude);
      const awayCell = approximateLocation(away.latitude, away.longitude);

      for (const viewer of [carol, dave, { id: DEMO_USER_ID }]) {
        // Not linked to the cat at all for them: a listed post id would lead to the post's cell.
        const detail = await getCat(viewer, cat.id);
        expect(detail.lastSeen).toMatchObject({ postId: out.id, ...awayCell });
        expect(detail.sightingCount).toBe(1);
        expect(detail.cover?.postId).toBe(out.id);
        const sightings = (
          await api(viewer, 'GET', `/api/cats/${cat.id}/sightings`)
        ).json() as CatSightingsResponse;
        expect(sightings.posts.map((p) => [p._id, p.latitude, p.showLocation])).toEqual([
          [out.id, awayCell.latitude, true],
        ]);
        const map = (await api(viewer, 'GET', `/api/cats/${cat.id}/map`)).json() as CatMapResponse;
        expect(map.points.map((p) => p.postId)).toEqual([out.id]);
        const listed = (
          await api(viewer, 'GET', `/api/cats?q=${encodeURIComponent(cat.name)}`)
        ).json() as CatsResponse;
        expect(listed.cats.find((c) => c._id === cat.id)?.cover?.postId).toBe(out.id);
      }
      // The follower's entry about the near-home sighting is no longer shown, the other one is.
      const entries = (await api(dave, 'GET', '/api/notifications')).json() as {
        notifications: { post: { _id: string } | null }[];
      };
      expect(entries.notifications.map((n) => n.post?._id)).toEqual([out.id]);
      expect((await api(dave, 'GET', '/api/notifications/unread-count')).json()).toEqual({ count: 1 });
      // Caretaker and author still have it in the timeline.
      for (const viewer of [alice, bob]) {
        const sightings = (
          await api(viewer, 'GET', `/api/cats/${cat.id}/sightings`)
        ).json() as CatSightingsResponse;
        expect(sightings.posts.map((p) => p._id)).toEqual([atHome.id, out.id]);
      }
      // The post's own views keep its cell, but do not name the cat to them.
      for (const viewer of [carol, dave, { id: DEMO_USER_ID }]) {
        const own = (await api(viewer, 'GET', `/api/posts/${atHome.id}`)).json() as Post;
        expect([own.latitude, own.cat]).toEqual([homeCell.latitude, null]);
        const feed = (await api(viewer, 'GET', '/api/feed/1')).json() as { posts: Post[] };
        // The newest post of all, so on the first page.
        expect(feed.posts.find((p) => p._id === atHome.id)!.cat).toBeNull();
        const away = (await api(viewer, 'GET', `/api/posts/${out.id}`)).json() as Post;
        expect(away.cat).toEqual({ _id: cat.id, name: cat.name, missing: false });
      }
      for (const viewer of [alice, bob]) {
        const own = (await api(viewer, 'GET', `/api/posts/${atHome.id}`)).json() as Post;
        expect(own.cat).toEqual({ _id: cat.id, name: cat.name, missing: false });
      }
      // The caretaker sees what the post shows (its cell); the author the exact spot.
      expect((await getCat(alice, cat.id)).lastSeen).toMatchObject({
        ...homeCell,
        locationPrecision: 'approximate',
      });
      expect((await getCat(bob, cat.id)).lastSeen).toMatchObject({ ...nearHome, locationPrecision: 'exact' });
      // A community cat's sightings keep their place.
      await api(alice, 'PATCH', `/api/cats/${cat.id}`, { living: 'community' });
      expect((await getCat(carol, cat.id)).lastSeen).toMatchObject({
        ...homeCell,
        locationPrecision: 'approximate',
      });
    });
  });

  describe('GET /api/cats', () => {
    let marker: string;
    beforeAll(() => {
      marker = `q${Math.random().toString(36).slice(2, 7)}`;
    });

    it('finds cats by name, prefix first, case-insensitive, newest sighting first, by cursor', async () => {
      const names = [`${marker}Alpha`, `Big ${marker.toUpperCase()}`, `${marker}Beta`, 'Other'];
      const made = [];
      for (const [i, name] of names.entries()) {
        const cat = await createCat(t.db, alice.id, { name });
        await createPost(t.db, bob.id, { catId: cat.id, createdAt: new Date(Date.now() - (10 - i) * 1000) });
        made.push(cat);
      }
      const res = await api(carol, 'GET', `/api/cats?q=${marker.toUpperCase()}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as CatsResponse;
      // Prefix matches first (newest first among them), then those containing it.
      expect(body.cats.map((c) => c.name)).toEqual([
        `${marker}Beta`,
        `${marker}Alpha`,
        `Big ${marker.toUpperCase()}`,
      ]);
      expect(body.cats[0]!.lastSeenAt).not.toBeNull();
      expect(body.cats[0]!.cover).not.toBeNull();
      // LIKE's wildcards are plain characters.
      const wild = (await api(carol, 'GET', '/api/cats?q=%25')).json() as CatsResponse;
      expect(wild.cats.filter((c) => !c.name.includes('%'))).toEqual([]);
    });

    it('pages through every cat once', async () => {
      for (let i = 0; i < CATS_PAGE_SIZE + 2; i += 1) await createCat(t.db, alice.id, { name: `Pager ${i}` });
      const seen: string[] = [];
      for (const near of ['', '&near=51.5,-0.1']) {
        seen.length = 0;
        let cursor: string | null = null;
        let pages = 0;
        do {
          const url: string = `/api/cats?q=pager${near}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
          const res = await api(carol, 'GET', url);
          expect(res.statusCode, res.body).toBe(200);
          const body = res.json() as CatsResponse;
          seen.push(...body.cats.map((c) => c._id));
          cursor = body.info.nextCursor;
          pages += 1;
        } while (cursor && pages < 5);
        expect(pages, near).toBe(2);
        expect(new Set(seen).size).toBe(CATS_PAGE_SIZE + 2);
      }
      // Without a query: every cat, newest sighting first, cats never seen last.
      const all = (await api(carol, 'GET', '/api/cats')).json() as CatsResponse;
      expect(all.cats).toHaveLength(CATS_PAGE_SIZE);
      const times = all.cats.map((c) => c.lastSeenAt ?? '');
      expect(times).toEqual([...times].sort().reverse());
      for (const cursor of ['zzz', Buffer.from('{"r":0,"t":"x","i":"y"}').toString('base64url')]) {
        const res = await api(carol, 'GET', `/api/cats?cursor=${cursor}`);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: 'Invalid cursor' });
      }
      const badNear = await api(carol, 'GET', '/api/cats?near=91,0');
      expect(badNear.statusCode).toBe(400);
      expect(badNear.json()).toEqual({ message: CAT_MESSAGES.nearInvalid });
    });

    it("shows the chosen cover to whoever may see it, and the viewer's newest sighting to the rest, on every list", async () => {
      const tag = `cover${Math.random().toString(36).slice(2, 6)}`;
      const spot = { latitude: 40.4168, longitude: -3.7038 };
      const placed = await createCat(t.db, alice.id, { name: `${tag} placed` });
      const unplaced = await createCat(t.db, alice.id, { name: `${tag} unplaced` });
      const covers: Record<string, { chosen: string; newest: string }> = {};
      for (const cat of [placed, unplaced]) {
        const showLocation = cat === placed;
        const chosen = await createPost(t.db, bob.id, {
          catId: cat.id,
          ...spot,
          showLocation,
          createdAt: new Date(Date.now() - 60_000),
        });
        const newest = await createPost(t.db, alice.id, { catId: cat.id, ...spot, showLocation });
        const res = await api(alice, 'PATCH', `/api/cats/${cat.id}`, { coverPostId: chosen.id });
        expect(res.statusCode, res.body).toBe(200);
        covers[cat.id] = { chosen: chosen.id, newest: newest.id };
      }
      const hider = await createUser(t.db);
      const blocker = await createUser(t.db);
      for (const { chosen } of Object.values(covers))
        await t.db.insert(hiddenPosts).values({ userId: hider.id, postId: chosen });
      await t.db.insert(blocks).values({ blockerId: bob.id, blockedId: blocker.id });
      const lists = [
        `/api/cats?q=${tag}`,
        `/api/cats?q=${tag}&near=${spot.latitude},${spot.longitude}`,
        // The nearest list's cats without a place come last, from its own statement.
        `/api/cats?q=${tag}&near=-33.8,151.2`,
      ];
      for (const url of lists) {
        for (const [viewer, which] of [
          [carol, 'chosen'],
          [hider, 'newest'],
          [blocker, 'newest'],
        ] as const) {
          const res = await api(viewer, 'GET', url);
          expect(res.statusCode, res.body).toBe(200);
          const shown = Object.fromEntries(
            (res.json() as CatsResponse).cats.map((c) => [c._id, c.cover?.postId]),
          );
          expect(shown, `${url} for the ${which} cover`).toEqual({
            [placed.id]: covers[placed.id]![which],
            [unplaced.id]: covers[unplaced.id]![which],
          });
        }
      }
    });

    it('says on every list which cats are missing, by an alert the viewer may see', async () => {
      const tag = `lost${Math.random().toString(36).slice(2, 6)}`;
      const spot = { latitude: 37.3891, longitude: -5.9845 };
      const keeper = await createUser(t.db);
      const blockedByKeeper = await createUser(t.db);
      await t.db.insert(blocks).values({ blockerId: keeper.id, blockedId: blockedByKeeper.id });
      const lost = await createCat(t.db, keeper.id, { name: `${tag} lost` });
      const lostUnplaced = await createCat(t.db, keeper.id, { name: `${tag} lost unplaced` });
      const home = await createCat(t.db, keeper.id, { name: `${tag} home` });
      for (const cat of [lost, lostUnplaced, home])
        await createPost(t.db, bob.id, { catId: cat.id, ...spot, showLocation: cat !== lostUnplaced });
      for (const cat of [lost, lostUnplaced]) await markMissing(keeper, cat.id, spot);
      const lists = [
        `/api/cats?q=${tag}`,
        `/api/cats?q=${tag}&near=${spot.latitude},${spot.longitude}`,
        // Cats without a place for the viewer come from the nearest list's own statement.
        `/api/cats?q=${tag}&near=-33.8,151.2`,
      ];
      const missingOn = async (viewer: { id: string }, url: string) => {
        const res = await api(viewer, 'GET', url);
        expect(res.statusCode, res.body).toBe(200);
        return Object.fromEntries((res.json() as CatsResponse).cats.map((c) => [c.name, c.missing]));
      };
      for (const url of lists) {
        expect(await missingOn(carol, url), url).toEqual({
          [`${tag} lost`]: true,
          [`${tag} lost unplaced`]: true,
          [`${tag} home`]: false,
        });
        // An alert raised by someone the viewer shares a block with is not shown to them, here either.
        expect(Object.values(await missingOn(blockedByKeeper, url)), url).toEqual([false, false, false]);
      }
      const found = await api(keeper, 'DELETE', `/api/cats/${lost.id}/missing`);
      expect(found.statusCode, found.body).toBe(200);
      for (const url of lists) expect((await missingOn(carol, url))[`${tag} lost`], url).toBe(false);
    });

    it('says on every list how each cat lives and whether the viewer cares for it (issue 46)', async () => {
      // The web offers a household cat to link or suggest only to its caretakers (decision 022).
      const tag = `liv${Math.random().toString(36).slice(2, 6)}`;
      const spot = { latitude: 40.4168, longitude: -3.7038 };
      const keeper = await createUser(t.db);
      const partner = await createUser(t.db);
      const house = await createCat(t.db, keeper.id, {
        name: `${tag} house`,
        living: 'household',
        caretakers: [partner.id],
      });
      const houseUnplaced = await createCat(t.db, keeper.id, {
        name: `${tag} house unplaced`,
        living: 'household',
      });
      const street = await createCat(t.db, keeper.id, { name: `${tag} street`, living: 'community' });
      for (const cat of [house, houseUnplaced, street])
        await createPost(t.db, keeper.id, { catId: cat.id, ...spot, showLocation: cat !== houseUnplaced });
      const lists = [
        `/api/cats?q=${tag}`,
        `/api/cats?q=${tag}&near=${spot.latitude},${spot.longitude}`,
        `/api/cats?q=${tag}&near=-33.8,151.2`,
      ];
      const factsOn = async (viewer: { id: string }, url: string) => {
        const res = await api(viewer, 'GET', url);
        expect(res.statusCode, res.body).toBe(200);
        return Object.fromEntries(
          (res.json() as CatsResponse).cats.map((c) => [c.name, [c.living, c.viewerIsCaretaker]]),
        );
      };
      for (const url of lists) {
        expect(await factsOn(keeper, url), url).toEqual({
          [`${tag} house`]: ['household', true],
          [`${tag} house unplaced`]: ['household', true],
          [`${tag} street`]: ['community', true],
        });
        expect(await factsOn(partner, url), url).toEqual({
          [`${tag} house`]: ['household', true],
          [`${tag} house unplaced`]: ['household', false],
          [`${tag} street`]: ['community', false],
        });
        expect(await factsOn(carol, url), url).toEqual({
          [`${tag} house`]: ['household', false],
          [`${tag} house unplaced`]: ['household', false],
          [`${tag} street`]: ['community', false],
        });
        expect(await factsOn(partner, `${url}&caredFor=true`), url).toEqual({
          [`${tag} house`]: ['household', true],
        });
      }
    });

    it('orders by nearness only as far as the viewer may see the sightings', async () => {
      const tag = `near${Math.random().toString(36).slice(2, 6)}`;
      const target = { latitude: 36.7213, longitude: -4.4214 };
      // Hidden Whiskers: right at the target, location switched off. Open Whiskers: 2 km away, on.
      const hidden = await createCat(t.db, alice.id, { name: `${tag} hidden` });
      const open = await createCat(t.db, alice.id, { name: `${tag} open` });
      const unseen = await createCat(t.db, alice.id, { name: `${tag} unseen` });
      await createPost(t.db, bob.id, { catId: hidden.id, ...target, showLocation: false });
      await createPost(t.db, bob.id, {
        catId: open.id,
        latitude: target.latitude + 0.018,
        longitude: target.longitude,
        showLocation: true,
      });
      const url = `/api/cats?q=${tag}&near=${target.latitude},${target.longitude}`;
      const forCarol = (await api(carol, 'GET', url)).json() as CatsResponse;
      expect(forCarol.cats.map((c) => c._id)).toEqual([open.id, ...[hidden.id, unseen.id].sort()]);
      // The author sees their own switched-off spot exactly: for them it is the nearest.
      const forBob = (await api(bob, 'GET', url)).json() as CatsResponse;
      expect(forBob.cats.map((c) => c._id)).toEqual([hidden.id, open.id, unseen.id]);
    });
  });

  describe('GET /api/cats?near=, nearest first', () => {
    it('pages every cat once, nearest first as the viewer may place each, near, far and across the antimeridian', async () => {
      const tag = `ring${Math.random().toString(36).slice(2, 6)}`;
      const viewer = await createUser(t.db);
      const ann = await createUser(t.db); // a stranger to the viewer: they see her cells
      const pia = await createUser(t.db, { exactPublicLocation: true }); // her spots are public
      const blocked = await createUser(t.db);
      await t.db.insert(blocks).values({ blockerId: viewer.id, blockedId: blocked.id });
      // Near the antimeridian, so that the boxes the cats seen otherwise are read in split in two.
      const target = { latitude: 10, longitude: 179.99 };
      const north = (metres: number) => ({
        latitude: target.latitude + metres / 111_195,
        longitude: target.longitude,
      });
      type Spot = { latitude: number; longitude: number };
      const expected: { id: string; rank: number; place: Spot | null }[] = [];
      const cat = async (name: string, rank: number, place: Spot | null) => {
        const made = await createCat(t.db, alice.id, { name });
        expected.push({ id: made.id, rank, place });
        return made;
      };
      const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
      // Seen by Ann at growing distances: the viewer measures from each spot's cell.
      for (const [i, metres] of [
        30, 400, 900, 1_600, 3_500, 8_000, 25_000, 90_000, 400_000, 2_500_000,
      ].entries()) {
        const spot = north(metres);
        const c = await cat(`${tag} ann ${i}`, 0, approximateLocation(spot.latitude, spot.longitude));
        await createPost(t.db, ann.id, { catId: c.id, ...spot, showLocation: true });
      }
      // Enough cats between 1.2 and 3.1 km (some sharing a cell, so equally far) for the first page to
      // end short of the globe, its boxes reaching across the antimeridian too.
      for (let i = 0; i < CATS_PAGE_SIZE; i += 1) {
        const spot = north(1_200 + i * 100);
        const c = await cat(`${tag} filler ${i}`, 0, approximateLocation(spot.latitude, spot.longitude));
        await createPost(t.db, ann.id, { catId: c.id, ...spot, showLocation: true });
      }
      // Across the antimeridian, about 1.1 km east: in the second box.
      const across = { latitude: 10.0005, longitude: -179.9995 };
      const acrossCat = await cat(`${tag} across`, 0, across);
      await createPost(t.db, pia.id, { catId: acrossCat.id, ...across, showLocation: true });
      // The other side of the globe.
      const far = { latitude: -10, longitude: 0.5 };
      const farCat = await cat(`${tag} far`, 0, far);
      await createPost(t.db, pia.id, { catId: farCat.id, ...far, showLocation: true });
      // Placed by its newest sighting: seen at the target long ago, 50 km away since.
      const moved = north(50_000);
      const movedCat = await cat(`${tag} moved`, 0, approximateLocation(moved.latitude, moved.longitude));
      await createPost(t.db, ann.id, {
        catId: movedCat.id,
        ...target,
        showLocation: true,
        createdAt: hoursAgo(5),
      });
      await createPost(t.db, ann.id, {
        catId: movedCat.id,
        ...moved,
        showLocation: true,
        createdAt: hoursAgo(1),
      });
      // The newest sighting is by someone the viewer blocked: the one before it counts.
      const before = north(5_000);
      const blockCat = await cat(`${tag} block`, 0, approximateLocation(before.latitude, before.longitude));
      await createPost(t.db, ann.id, {
        catId: blockCat.id,
        ...before,
        showLocation: true,
        createdAt: hoursAgo(5),
      });
      await createPost(t.db, blocked.id, {
        catId: blockCat.id,
        ...target,
        showLocation: true,
        createdAt: hoursAgo(1),
      });
      // The viewer's own switched-off spot: exact for them. Ann's switched-off spot: no place.
      const own = north(2_000);
      const ownCat = await cat(`${tag} own`, 0, own);
      await createPost(t.db, viewer.id, { catId: ownCat.id, ...own, showLocation: false });
      const offCat = await cat(`${tag} off`, 0, null);
      await createPost(t.db, ann.id, { catId: offCat.id, ...north(10), showLocation: false });
      // Newest sighting off, an older one on: the newest decides, so no place.
      const laterOff = await cat(`${tag} later off`, 0, null);
      await createPost(t.db, ann.id, {
        catId: laterOff.id,
        ...north(20),
        showLocation: true,
        createdAt: hoursAgo(5),
      });
      await createPost(t.db, ann.id, {
        catId: laterOff.id,
        ...north(20),
        showLocation: false,
        createdAt: hoursAgo(1),
      });
      // A household cat seen near its home by Ann: kept from the viewer; her older one 9 km off counts.
      // Ann cares for it (decision 022): a sighting by anyone else would be kept wherever it lies.
      const home = north(100);
      const nine = north(9_000);
      const homeCat = await cat(`${tag} home`, 0, approximateLocation(nine.latitude, nine.longitude));
      await t.db
        .update(cats)
        .set({ living: 'household', homeLatitude: home.latitude, homeLongitude: home.longitude })
        .where(eq(cats.id, homeCat.id));
      await t.db.insert(catCaretakers).values({ catId: homeCat.id, userId: ann.id });
      await createPost(t.db, ann.id, {
        catId: homeCat.id,
        ...nine,
        showLocation: true,
        createdAt: hoursAgo(5),
      });
      await createPost(t.db, ann.id, {
        catId: homeCat.id,
        ...home,
        showLocation: true,
        createdAt: hoursAgo(1),
      });
      await cat(`${tag} unseen`, 0, null);
      // Names containing the query come after every name starting with it, placed or not.
      const second = await cat(`a ${tag} second`, 1, north(10));
      await createPost(t.db, pia.id, { catId: second.id, ...north(10), showLocation: true });
      await cat(`b ${tag} second unseen`, 1, null);

      const distance = (place: Spot | null) =>
        place ? metresBetween(target, place) : Number.POSITIVE_INFINITY;
      const order = expected
        .map((e) => ({ ...e, distance: distance(e.place) }))
        .sort(
          (a, b) =>
            a.rank - b.rank ||
            (a.distance === b.distance ? 0 : a.distance < b.distance ? -1 : 1) ||
            (a.id < b.id ? -1 : 1),
        )
        .map((e) => e.id);
      expect(order.length).toBeGreaterThan(CATS_PAGE_SIZE);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const url: string = `/api/cats?q=${tag}&near=${target.latitude},${target.longitude}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await api(viewer, 'GET', url);
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json() as CatsResponse;
        seen.push(...body.cats.map((c) => c._id));
        cursor = body.info.nextCursor;
        pages += 1;
      } while (cursor && pages < 5);
      expect(pages).toBe(3);
      expect(seen).toEqual(order);
      // Ann sees her own spots exactly, and her switched-off one at the target first of all.
      const forAnn = (
        await api(ann, 'GET', `/api/cats?q=${tag}&near=${target.latitude},${target.longitude}`)
      ).json() as CatsResponse;
      expect(forAnn.cats[0]!._id).toBe(offCat.id);
      // Without a name (the cats page's first page, read by statements of their own): every name ranks
      // alike, and this test's cats are the nearest of all.
      const unnamed = (
        await api(viewer, 'GET', `/api/cats?near=${target.latitude},${target.longitude}`)
      ).json() as CatsResponse;
      const byDistance = expected
        .map((e) => ({ id: e.id, distance: distance(e.place) }))
        .sort((a, b) => (a.distance === b.distance ? (a.id < b.id ? -1 : 1) : a.distance - b.distance))
        .map((e) => e.id);
      expect(unnamed.cats.map((c) => c._id)).toEqual(byDistance.slice(0, CATS_PAGE_SIZE));
    });

    it("reads the nearest cats again when more than it read at first share the cells at the page's edge", async () => {
      // The list reads the cats of cat_places nearest first by their spots, up to 128 (NEAREST_READ_LIMIT).
      // Here 140 cats share one ~500 m cell: a stranger sees them all at its centre, equally far, so
      // the page holds the smallest ids, and those belong to the cats whose spots lie farthest, past
      // the first 128. Only a second read, with a higher limit, finds them.
      const tag = `dense${Math.random().toString(36).slice(2, 6)}`;
      const ann = await createUser(t.db);
      const centre = approximateLocation(48.85, 2.35);
      const near = { latitude: centre.latitude! - 400 / 111_195, longitude: centre.longitude! };
      const ids: string[] = [];
      for (let i = 0; i < 140; i += 1) {
        // Farther north, farther from `near`, and a smaller id.
        const id = `00000000-0000-4000-8000-${tag.slice(-4).replace(/[^0-9a-f]/g, '0')}${String(9000 - i).padStart(8, '0')}`;
        const cat = await createCat(t.db, alice.id, { id, name: `${tag} ${i}` });
        const spot = { latitude: centre.latitude! + ((i - 70) * 1) / 111_195, longitude: centre.longitude! };
        await createPost(t.db, ann.id, { catId: cat.id, ...spot, showLocation: true });
        ids.push(id);
      }
      const res = await api(carol, 'GET', `/api/cats?q=${tag}&near=${near.latitude},${near.longitude}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = (res.json() as CatsResponse).cats.map((c) => c._id);
      expect(page).toEqual([...ids].sort().slice(0, CATS_PAGE_SIZE));
      expect(page).toContain(ids[139]);
      // Every page after it: the last ones find fewer than a page among the 128 nearest past the
      // cursor's reach, and read more before anything else.
      const listed = [...page];
      let cursor = (res.json() as CatsResponse).info.nextCursor;
      while (cursor && listed.length < 200) {
        const next = await api(
          carol,
          'GET',
          `/api/cats?q=${tag}&near=${near.latitude},${near.longitude}&cursor=${encodeURIComponent(cursor)}`,
        );
        expect(next.statusCode, next.body).toBe(200);
        const body = next.json() as CatsResponse;
        listed.push(...body.cats.map((c) => c._id));
        cursor = body.info.nextCursor;
      }
      expect(listed).toEqual([...ids].sort());
    });

    it('finds a cat just across the antimeridian first, past more cats on this side than one read holds', async () => {
      // The index orders by degrees, where the far side of the 180th meridian lies 360 degrees away:
      // a cat 300 m across it comes out of the index last. 140 cats 1-3 km away on this side fill a
      // first read (128); the list must not take them for the nearest.
      const tag = `merid${Math.random().toString(36).slice(2, 6)}`;
      const ann = await createUser(t.db, { exactPublicLocation: true });
      const near = { latitude: -17.5, longitude: 179.998 };
      for (let i = 0; i < 140; i += 1) {
        const cat = await createCat(t.db, alice.id, { name: `${tag} ${i}` });
        await createPost(t.db, ann.id, {
          catId: cat.id,
          latitude: near.latitude + (1_000 + i * 15) / 111_195,
          longitude: near.longitude - 0.001,
          showLocation: true,
        });
      }
      const across = await createCat(t.db, alice.id, { name: `${tag} across` });
      await createPost(t.db, ann.id, {
        catId: across.id,
        latitude: near.latitude,
        longitude: -179.999,
        showLocation: true,
      });
      const res = await api(carol, 'GET', `/api/cats?q=${tag}&near=${near.latitude},${near.longitude}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = (res.json() as CatsResponse).cats.map((c) => c.name);
      expect(page[0]).toBe(`${tag} across`);
      expect(page.slice(1, 4)).toEqual([`${tag} 0`, `${tag} 1`, `${tag} 2`]);
    });

    it('finds the cats a viewer places nearer than a stranger would: hid, cares for, took, or blocked', async () => {
      // The list reads the cats a stranger would place (cat_places) and, for this viewer, the cats whose
      // newest sighting they may see is another one (catsSeenOtherwiseNear). Each cat below was last seen by strangers 50 km
      // away and, for the viewer alone, at the target: a page of other cats 1.2-3.1 km off stands
      // between, so each is on the viewer's first page only if that second read found it.
      const tag = `seen${Math.random().toString(36).slice(2, 6)}`;
      const viewer = await createUser(t.db);
      const ann = await createUser(t.db);
      const blocked = await createUser(t.db);
      await t.db.insert(blocks).values({ blockerId: blocked.id, blockedId: viewer.id });
      const target = { latitude: -33.45, longitude: -70.66 };
      const north = (metres: number) => ({
        latitude: target.latitude + metres / 111_195,
        longitude: target.longitude,
      });
      const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
      for (let i = 0; i < CATS_PAGE_SIZE; i += 1) {
        const c = await createCat(t.db, alice.id, { name: `${tag} filler ${i}` });
        await createPost(t.db, ann.id, { catId: c.id, ...north(1_200 + i * 100), showLocation: true });
      }
      const far = north(50_000);
      const twoSightings = async (name: string, nearBy: string, farBy: string) => {
        const c = await createCat(t.db, alice.id, { name: `${tag} ${name}` });
        const near = await createPost(t.db, nearBy, {
          catId: c.id,
          ...target,
          showLocation: true,
          createdAt: hoursAgo(name === 'cared' || name === 'took' ? 1 : 5),
        });
        const away = await createPost(t.db, farBy, {
          catId: c.id,
          ...far,
          showLocation: true,
          createdAt: hoursAgo(name === 'cared' || name === 'took' ? 5 : 1),
        });
        return { cat: c, near, away };
      };
      // The viewer hid the newest picture: the one before, at the target, places it for them.
      const hid = await twoSightings('hid', ann.id, ann.id);
      await t.db.insert(hiddenPosts).values({ userId: viewer.id, postId: hid.away.id });
      // The newest picture is by someone who blocked the viewer.
      const block = await twoSightings('block', ann.id, blocked.id);
      // A household cat seen at its home: strangers see only the older sighting far away.
      const cared = await twoSightings('cared', ann.id, ann.id);
      await t.db
        .update(cats)
        .set({ living: 'household', homeLatitude: target.latitude, homeLongitude: target.longitude })
        .where(eq(cats.id, cared.cat.id));
      await t.db.insert(catCaretakers).values({ catId: cared.cat.id, userId: viewer.id });
      // The viewer's own newest picture is held for review: shown to them alone.
      const took = await twoSightings('took', viewer.id, ann.id);
      await t.db.update(posts).set({ moderation: 'pending_review' }).where(eq(posts.id, took.near.id));

      const url = `/api/cats?q=${tag}&near=${target.latitude},${target.longitude}`;
      const special = [hid, block, cared, took].map((x) => x.cat.id);
      const forViewer = (await api(viewer, 'GET', url)).json() as CatsResponse;
      expect(
        forViewer.cats
          .slice(0, 4)
          .map((c) => c._id)
          .sort(),
      ).toEqual([...special].sort());
      const forStranger = (await api(carol, 'GET', url)).json() as CatsResponse;
      expect(forStranger.cats).toHaveLength(CATS_PAGE_SIZE);
      expect(forStranger.cats.filter((c) => special.includes(c._id))).toEqual([]);
    });
  });

  describe('following and caretakers', () => {
    it('follows and unfollows; the demo account may not; unknown cats are 404', async () => {
      const cat = await createCat(t.db, alice.id);
      const followed = await api(bob, 'PUT', `/api/cats/${cat.id}/follow`);
      expect(followed.json()).toEqual({ following: true, followerCount: 1 });
      expect((await api(bob, 'PUT', `/api/cats/${cat.id}/follow`)).json()).toEqual({
        following: true,
        followerCount: 1,
      });
      expect((await getCat(bob, cat.id)).viewer.following).toBe(true);
      expect((await getCat(carol, cat.id)).followerCount).toBe(1);
      const demo = await api({ id: DEMO_USER_ID }, 'PUT', `/api/cats/${cat.id}/follow`);
      expect(demo.statusCode).toBe(403);
      expect(demo.json()).toEqual({ message: DEMO_DISABLED_MESSAGE });
      expect((await getCat({ id: DEMO_USER_ID }, cat.id)).viewer).toMatchObject({
        canFollow: false,
        canEdit: false,
      });
      expect((await api(bob, 'PUT', `/api/cats/${crypto.randomUUID()}/follow`)).statusCode).toBe(404);
      expect((await api(bob, 'DELETE', `/api/cats/${cat.id}/follow`)).json()).toEqual({
        following: false,
        followerCount: 0,
      });
    });

    it('lets caretakers add and remove caretakers, but never the last one', async () => {
      const cat = await createCat(t.db, alice.id);
      const notCaretaker = await api(bob, 'PUT', `/api/cats/${cat.id}/caretakers/${bob.id}`);
      expect(notCaretaker.statusCode).toBe(403);
      expect(notCaretaker.json()).toEqual({ message: CAT_MESSAGES.notCaretaker });
      const added = await api(alice, 'PUT', `/api/cats/${cat.id}/caretakers/${bob.id}`);
      expect(added.statusCode, added.body).toBe(200);
      expect((added.json() as { caretakers: { _id: string }[] }).caretakers.map((u) => u._id)).toEqual([
        alice.id,
        bob.id,
      ]);
      expect((await getCat(bob, cat.id)).viewer).toMatchObject({ isCaretaker: true, canEdit: true });
      for (const [userId, status, message] of [
        [crypto.randomUUID(), 404, CAT_MESSAGES.caretakerUnknown],
        ['nope', 404, CAT_MESSAGES.caretakerUnknown],
        [DEMO_USER_ID, 400, CAT_MESSAGES.caretakerDemo],
      ] as const) {
        const res = await api(alice, 'PUT', `/api/cats/${cat.id}/caretakers/${userId}`);
        expect(res.statusCode).toBe(status);
        expect(res.json()).toEqual({ message });
      }
      // Bob removes Alice; then he is the last and stays.
      expect((await api(bob, 'DELETE', `/api/cats/${cat.id}/caretakers/${alice.id}`)).statusCode).toBe(200);
      const last = await api(bob, 'DELETE', `/api/cats/${cat.id}/caretakers/${bob.id}`);
      expect(last.statusCode).toBe(409);
      expect(last.json()).toEqual({ message: CAT_MESSAGES.lastCaretaker });
      const rows = await t.db.select().from(catCaretakers).where(eq(catCaretakers.catId, cat.id));
      expect(rows.map((r) => r.userId)).toEqual([bob.id]);
      const demo = await api({ id: DEMO_USER_ID }, 'DELETE', `/api/cats/${cat.id}/caretakers/${bob.id}`);
      expect(demo.statusCode).toBe(403);
    });

    it('shows a cat across a block, without the blocked creator and caretakers', async () => {
      const erin = await createUser(t.db);
      const frank = await createUser(t.db);
      const cat = await createCat(t.db, erin.id, { caretakers: [alice.id] });
      await t.db.insert(blocks).values({ blockerId: frank.id, blockedId: erin.id });
      const seen = await getCat(frank, cat.id);
      expect(seen.createdBy).toBeNull();
      expect(seen.caretakers.map((u) => u._id)).toEqual([alice.id]);
      expect(JSON.stringify(seen)).not.toContain(erin.id);
      const add = await api(alice, 'PUT', `/api/cats/${cat.id}/caretakers/${frank.id}`);
      expect(add.statusCode).toBe(200);
      const blockedAdd = await api(frank, 'PUT', `/api/cats/${cat.id}/caretakers/${erin.id}`);
      expect(blockedAdd.statusCode).toBe(404);
      expect(blockedAdd.json()).toEqual({ message: CAT_MESSAGES.caretakerUnknown });
    });
  });

  it('account deletion: cats with other caretakers stay, those the user alone cared for go', async () => {
    const gina = await createUser(t.db);
    const shared = await createCat(t.db, gina.id, { caretakers: [alice.id] });
    const alone = await createCat(t.db, gina.id);
    const sighting = await createPost(t.db, bob.id, { catId: alone.id });
    await api(bob, 'PUT', `/api/cats/${shared.id}/follow`);
    const res = await api(gina, 'DELETE', `/api/profile/deleteUser/${gina.id}`);
    expect(res.statusCode, res.body).toBe(204);
    const kept = await getCat(alice, shared.id);
    expect(kept.createdBy).toBeNull();
    expect(kept.caretakers.map((u) => u._id)).toEqual([alice.id]);
    expect(kept.followerCount).toBe(1);
    expect((await api(alice, 'GET', `/api/cats/${alone.id}`)).statusCode).toBe(404);
    const [post] = await t.db.select({ catId: posts.catId }).from(posts).where(eq(posts.id, sighting.id));
    expect(post!.catId).toBeNull();
  });
});
