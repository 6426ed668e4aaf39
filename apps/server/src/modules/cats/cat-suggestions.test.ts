import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAT_MESSAGES,
  CAT_SUGGESTION_LIMIT,
  CAT_SUGGESTION_METRES,
  DEMO_USER_ID,
  type CatSuggestionsResponse,
} from '@cats/contracts';
import { blocks, cats, groupMembers, groups, hiddenPosts, postGroups, posts } from '../../db/schema/index.ts';
import { locationCell } from '../location/location-grid.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createCat, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { rowsOf } from '../../db/raw-results.ts';
import { SUGGESTION_SIGHTINGS_MAX, sightingsInBoxQuery } from './cat-suggestions.repository.ts';
import { suggestionBoxes } from './cat-suggestions.service.ts';

type Point = { latitude: number; longitude: number };

/** Metres between two points (haversine), written out here apart from the server's own. */
function metres(a: Point, b: Point): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) *
      Math.cos(b.latitude * rad) *
      Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

/** The point `north` metres north and `east` metres east of `p` (7 decimals, as the app stores them). */
function moved(p: Point, north: number, east: number): Point {
  const perDegree = (6_371_000 * Math.PI) / 180;
  return {
    latitude: Number((p.latitude + north / perDegree).toFixed(7)),
    longitude: Number((p.longitude + east / (perDegree * Math.cos((p.latitude * Math.PI) / 180))).toFixed(7)),
  };
}

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

/**
 * GET /api/cats/suggestions?near= ('Which cat is this?' on Spot, issue 26): cats seen within 300 m in
 * the last 90 days, nearest first, then the most recently seen, at most 5; only sightings the caller
 * may see count, each measured from the place the caller may see, so that probing reveals no spot.
 */
describe('cat suggestions', () => {
  let t: TestApp;
  let alice: CreatedUser; // a caretaker
  let bob: CreatedUser; // spots cats
  let mallory: CreatedUser; // probes for Bob's spots
  let carol: CreatedUser; // shares no block with anyone
  const demo = { id: DEMO_USER_ID };

  async function suggest(viewer: { id: string }, near: Point | string) {
    const query = typeof near === 'string' ? near : `near=${near.latitude},${near.longitude}`;
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/cats/suggestions?${query}`,
      headers: await authHeader(t.app, viewer.id),
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as CatSuggestionsResponse).cats;
  }
  const ids = async (viewer: { id: string }, near: Point) => (await suggest(viewer, near)).map((c) => c._id);

  beforeAll(async () => {
    t = await buildTestApp();
    alice = await createUser(t.db);
    bob = await createUser(t.db);
    mallory = await createUser(t.db);
    carol = await createUser(t.db);
  });
  afterAll(async () => t?.close());

  it('lists at most 5 cats seen within 300 m in the last 90 days, nearest first, then the most recent', async () => {
    // Bob's own sightings: he sees them exactly, so the distances are the spots' own.
    const here = { latitude: 48.8566, longitude: 2.3522 };
    const at = async (name: string, north: number, when: Date, catId?: string) => {
      const cat = catId ? { id: catId } : await createCat(t.db, alice.id, { name });
      await createPost(t.db, bob.id, {
        catId: cat.id,
        ...moved(here, north, 0),
        showLocation: true,
        createdAt: when,
      });
      return cat.id;
    };
    const c50 = await at('Fifty', 50, daysAgo(3));
    const c120 = await at('Hundred-twenty', 120, daysAgo(1));
    const tieOld = await at('Tie old', 200, daysAgo(20));
    const tieNew = await at('Tie new', 200, daysAgo(2));
    const c280 = await at('Two-eighty', 280, daysAgo(89));
    const c290 = await at('Two-ninety', 290, daysAgo(1));
    await at('Too far', 320, daysAgo(1));
    await at('Too old', 10, daysAgo(91));
    // A cat seen far away lately and here long ago is not suggested; one seen here once is.
    const farNow = await at('Moved away', 2000, daysAgo(1));
    await at('', 30, daysAgo(95), farNow);

    const answer = await suggest(bob, here);
    expect(answer.map((c) => c._id)).toEqual([c50, c120, tieNew, tieOld, c280]);
    expect(answer).toHaveLength(CAT_SUGGESTION_LIMIT);
    expect(answer[0]).toMatchObject({ name: 'Fifty', cover: { postId: expect.any(String) } });
    // Nearer to the far end: the order follows the point asked about.
    expect((await ids(bob, moved(here, 290, 0))).slice(0, 3)).toEqual([c290, c280, expect.any(String)]);
    // A cat with two sightings counts its nearest.
    await at('', 5, daysAgo(30), c290);
    expect((await ids(bob, here))[0]).toBe(c290);
    // Nowhere near anything: an empty list.
    expect(await suggest(bob, { latitude: -33.9, longitude: 18.4 })).toEqual([]);
  });

  it('measures from the ~500 m cell for others: probing around a spot tells nothing more than its cell', async () => {
    // Two of Bob's sightings in one cell, at its opposite corners (~600 m apart), location on.
    const cell = locationCell(40.4168, -3.7038);
    const south = { latitude: cell.south + 0.0001, longitude: cell.west + 0.00015 };
    const north = { latitude: cell.north - 0.0001, longitude: cell.east - 0.00015 };
    expect(metres(south, north)).toBeGreaterThan(500);
    const atSouth = await createCat(t.db, alice.id, { name: 'South corner' });
    const atNorth = await createCat(t.db, alice.id, { name: 'North corner' });
    for (const [cat, spot] of [
      [atSouth, south],
      [atNorth, north],
    ] as const) {
      await createPost(t.db, bob.id, { catId: cat.id, ...spot, showLocation: true });
    }
    const centre = cell.centre;
    // Probes every 100 m over 1.8 x 1.8 km around the cell: an attacker's grid.
    let nearSpotOnly = 0;
    for (let n = -900; n <= 900; n += 100) {
      for (let e = -900; e <= 900; e += 100) {
        const probe = moved(centre, n, e);
        const fromCentre = metres(probe, centre);
        // Rounding at the very edge belongs to neither side.
        if (Math.abs(fromCentre - CAT_SUGGESTION_METRES) < 1) continue;
        const got = await ids(mallory, probe);
        const expected = fromCentre <= CAT_SUGGESTION_METRES;
        // Both corners answer alike at every probe: the answer depends on the cell alone.
        expect([got.includes(atSouth.id), got.includes(atNorth.id)], `probe ${n} N, ${e} E`).toEqual([
          expected,
          expected,
        ]);
        if (!expected && (metres(probe, south) <= 250 || metres(probe, north) <= 250)) nearSpotOnly += 1;
      }
    }
    // The grid held probes close to a spot but far from the centre: there the spot gave nothing away.
    expect(nearSpotOnly).toBeGreaterThan(0);
    // Right at a spot that lies ~335 m from the centre: nothing, for strangers and the demo alike.
    expect(metres(south, centre)).toBeGreaterThan(CAT_SUGGESTION_METRES);
    expect(await ids(mallory, south)).toEqual([]);
    expect(await ids(demo, south)).toEqual([]);
    // Its author places it exactly.
    expect(await ids(bob, south)).toEqual([atSouth.id]);
  });

  it('never counts a sighting whose location is off, except for its author', async () => {
    const spot = { latitude: 41.3874, longitude: 2.1686 };
    const hidden = await createCat(t.db, alice.id, { name: 'Off the map' });
    await createPost(t.db, bob.id, { catId: hidden.id, ...spot, showLocation: false });
    for (let n = -300; n <= 300; n += 150) {
      for (let e = -300; e <= 300; e += 150) {
        for (const viewer of [mallory, alice, demo]) {
          expect(await ids(viewer, moved(spot, n, e)), `probe ${n} N, ${e} E`).toEqual([]);
        }
      }
    }
    expect(await ids(bob, spot)).toEqual([hidden.id]);
  });

  it('measures exactly for group members and exact-public authors, as their posts show', async () => {
    const cell = locationCell(45.4642, 9.19);
    const spot = { latitude: cell.south + 0.0004, longitude: cell.west + 0.0006 };
    // 200 m from the spot, ~500 m from the centre: only an exact place is near it.
    const probe = moved(spot, -200, 0);
    expect(metres(probe, cell.centre)).toBeGreaterThan(CAT_SUGGESTION_METRES);
    const shared = await createCat(t.db, alice.id, { name: 'Shared' });
    const post = await createPost(t.db, bob.id, { catId: shared.id, ...spot, showLocation: true });
    const member = await createUser(t.db);
    const [group] = await t.db
      .insert(groups)
      .values({ name: 'Navigli', code: `Navigli-${crypto.randomUUID().slice(0, 8)}`, ownerId: bob.id })
      .returning();
    await t.db.insert(groupMembers).values([
      { groupId: group!.id, userId: bob.id, role: 'owner' },
      { groupId: group!.id, userId: member.id, role: 'member' },
      { groupId: group!.id, userId: DEMO_USER_ID, role: 'member' },
    ]);
    await t.db.insert(postGroups).values({ postId: post.id, groupId: group!.id, userId: bob.id });
    expect(await ids(member, probe)).toEqual([shared.id]);
    // The demo account is a stranger for location purposes, a member or not.
    expect(await ids(demo, probe)).toEqual([]);
    expect(await ids(mallory, probe)).toEqual([]);

    const open = await createUser(t.db, { exactPublicLocation: true });
    const elsewhere = { latitude: spot.latitude + 0.05, longitude: spot.longitude };
    const public_ = await createCat(t.db, alice.id, { name: 'Public' });
    await createPost(t.db, open.id, { catId: public_.id, ...elsewhere, showLocation: true });
    expect(await ids(mallory, moved(elsewhere, -200, 0))).toEqual([public_.id]);
  });

  it("keeps a household cat's sightings near its home from all but its caretakers and each sighting's author", async () => {
    const home = { latitude: 52.52, longitude: 13.405 };
    const nearHome = moved(home, 120, 0);
    const cat = await createCat(t.db, alice.id, {
      name: 'Housecat',
      living: 'household',
      homeLatitude: home.latitude,
      homeLongitude: home.longitude,
    });
    await createPost(t.db, bob.id, { catId: cat.id, ...nearHome, showLocation: true });
    const cellCentre = locationCell(nearHome.latitude, nearHome.longitude).centre;
    for (const probe of [nearHome, cellCentre, home]) {
      expect(await ids(mallory, probe)).toEqual([]);
      expect(await ids(demo, probe)).toEqual([]);
    }
    // The caretaker, as the post shows it to them: its cell.
    expect(await ids(alice, cellCentre)).toEqual([cat.id]);
    expect(await ids(bob, nearHome)).toEqual([cat.id]);
    // Away from home a caretaker's sighting makes the cat everybody's neighbour; Bob's, by someone who
    // does not care for it, is kept wherever it lies (decision 022: he could move it and watch).
    const away = moved(home, 3000, 0);
    const awayCentre = locationCell(away.latitude, away.longitude).centre;
    await createPost(t.db, bob.id, { catId: cat.id, ...away, showLocation: true });
    expect(await ids(mallory, awayCentre)).toEqual([]);
    expect(await ids(bob, away)).toEqual([cat.id]);
    await createPost(t.db, alice.id, { catId: cat.id, ...away, showLocation: true });
    expect(await ids(mallory, awayCentre)).toEqual([cat.id]);
    // Community cats keep every place.
    await t.db.update(cats).set({ living: 'community' }).where(eq(cats.id, cat.id));
    expect(await ids(mallory, cellCentre)).toEqual([cat.id]);
  });

  it('leaves out hidden, trashed and blocked sightings: a cat seen only by someone blocked is not suggested', async () => {
    const spot = { latitude: 50.8503, longitude: 4.3517 };
    const centre = locationCell(spot.latitude, spot.longitude).centre;
    const dave = await createUser(t.db);
    const erin = await createUser(t.db);
    const byDave = await createCat(t.db, alice.id, { name: 'Daves' });
    const byErin = await createCat(t.db, alice.id, { name: 'Erins' });
    const both = await createCat(t.db, alice.id, { name: 'Both' });
    const hiddenOne = await createCat(t.db, alice.id, { name: 'Hidden' });
    const trashedOne = await createCat(t.db, alice.id, { name: 'Trashed' });
    const located = { ...spot, showLocation: true };
    await createPost(t.db, dave.id, { catId: byDave.id, ...located });
    await createPost(t.db, erin.id, { catId: byErin.id, ...located });
    await createPost(t.db, dave.id, { catId: both.id, ...located });
    await createPost(t.db, bob.id, { catId: both.id, ...located, createdAt: daysAgo(5) });
    const hiddenPost = await createPost(t.db, bob.id, { catId: hiddenOne.id, ...located });
    await createPost(t.db, bob.id, { catId: trashedOne.id, ...located, deletedAt: new Date() });
    // Blocks work both ways: Dave blocked Mallory, Mallory blocked Erin.
    await t.db.insert(blocks).values([
      { blockerId: dave.id, blockedId: mallory.id },
      { blockerId: mallory.id, blockedId: erin.id },
    ]);
    await t.db.insert(hiddenPosts).values({ userId: mallory.id, postId: hiddenPost.id });

    expect(new Set(await ids(mallory, centre))).toEqual(new Set([both.id]));
    // Someone outside the blocks sees them all but the trashed one.
    expect(new Set(await ids(carol, centre))).toEqual(new Set([byDave.id, byErin.id, both.id, hiddenOne.id]));
    // Dave's own trash is his alone; nobody is suggested a cat from it, Dave included.
    expect(await ids(bob, spot)).not.toContain(trashedOne.id);
  });

  it('says which suggested cat is missing, by an alert the viewer may see', async () => {
    const spot = { latitude: 41.3874, longitude: 2.1686 };
    const keeper = await createUser(t.db);
    const blockedByKeeper = await createUser(t.db);
    await t.db.insert(blocks).values({ blockerId: keeper.id, blockedId: blockedByKeeper.id });
    const lost = await createCat(t.db, keeper.id, { name: 'Lost' });
    const other = await createCat(t.db, keeper.id, { name: 'Other' });
    for (const cat of [lost, other])
      await createPost(t.db, bob.id, { catId: cat.id, ...spot, showLocation: true });
    const raised = await t.app.inject({
      method: 'POST',
      url: `/api/cats/${lost.id}/missing`,
      headers: await authHeader(t.app, keeper.id),
      payload: { lastSeenAt: daysAgo(1).toISOString(), place: spot, note: 'Shy.', contact: 'report' },
    });
    expect(raised.statusCode, raised.body).toBe(201);
    const missingOf = async (viewer: { id: string }) =>
      Object.fromEntries((await suggest(viewer, spot)).map((c) => [c.name, c.missing]));
    expect(await missingOf(carol)).toEqual({ Lost: true, Other: false });
    // The alert's raiser shares a block with this viewer: the alert is not theirs to see.
    expect(await missingOf(blockedByKeeper)).toEqual({ Lost: false, Other: false });
  });

  it('says how each suggested cat lives and whether the viewer cares for it (issue 46)', async () => {
    // Spot offers a household cat only to its caretakers: nobody else may link a picture to it.
    const spot = { latitude: 43.2627, longitude: -2.9253 };
    const keeper = await createUser(t.db);
    const house = await createCat(t.db, keeper.id, {
      name: 'House',
      living: 'household',
      caretakers: [alice.id],
    });
    const street = await createCat(t.db, keeper.id, { name: 'Street', living: 'community' });
    for (const cat of [house, street])
      await createPost(t.db, keeper.id, { catId: cat.id, ...spot, showLocation: true });
    const factsOf = async (viewer: { id: string }) =>
      Object.fromEntries((await suggest(viewer, spot)).map((c) => [c.name, [c.living, c.viewerIsCaretaker]]));
    expect(await factsOf(keeper)).toEqual({ House: ['household', true], Street: ['community', true] });
    expect(await factsOf(alice)).toEqual({ House: ['household', true], Street: ['community', false] });
    expect(await factsOf(carol)).toEqual({ House: ['household', false], Street: ['community', false] });
  });

  it('shows the chosen cover where the viewer may see it, else the newest sighting that counted', async () => {
    const spot = { latitude: 47.3769, longitude: 8.5417 };
    const centre = locationCell(spot.latitude, spot.longitude).centre;
    const cat = await createCat(t.db, alice.id, { name: 'Covered' });
    const older = await createPost(t.db, bob.id, {
      catId: cat.id,
      ...spot,
      showLocation: true,
      createdAt: daysAgo(10),
    });
    const newer = await createPost(t.db, bob.id, {
      catId: cat.id,
      ...spot,
      showLocation: true,
      createdAt: daysAgo(1),
    });
    // A cover seen far away (not among the sightings near the point): checked on its own.
    const far = await createPost(t.db, bob.id, {
      catId: cat.id,
      latitude: spot.latitude + 1,
      longitude: spot.longitude,
      showLocation: true,
      createdAt: daysAgo(200),
    });
    const coverOf = async (viewer: { id: string }) => (await suggest(viewer, centre))[0]?.cover?.postId;
    expect(await coverOf(mallory)).toBe(newer.id);
    await t.db.update(cats).set({ coverPostId: older.id }).where(eq(cats.id, cat.id));
    expect(await coverOf(mallory)).toBe(older.id);
    await t.db.update(cats).set({ coverPostId: far.id }).where(eq(cats.id, cat.id));
    expect(await coverOf(mallory)).toBe(far.id);
    // Hidden by the viewer: not their cover.
    await t.db.insert(hiddenPosts).values({ userId: mallory.id, postId: far.id });
    expect(await coverOf(mallory)).toBe(newer.id);
    const [cover] = await suggest(mallory, centre);
    expect(cover!.cover!.image.variants['300']).toMatch(/\/media\/posts\/[0-9a-f]{32}\/300\.webp$/);
  });

  it('finds sightings across the antimeridian', async () => {
    const west = { latitude: -16.5, longitude: 179.9995 };
    const cat = await createCat(t.db, alice.id, { name: 'Dateline' });
    await createPost(t.db, bob.id, { catId: cat.id, ...west, showLocation: true });
    expect(await ids(bob, { latitude: -16.5, longitude: -179.999 })).toEqual([cat.id]);
    const boxes = suggestionBoxes({ latitude: -16.5, longitude: -179.999 }, CAT_SUGGESTION_METRES);
    expect(boxes).toHaveLength(2);
    expect(boxes.some((b) => b.west <= 179.9995 && b.east === 180)).toBe(true);
    // At a pole every longitude is near.
    expect(suggestionBoxes({ latitude: 90, longitude: 0 }, CAT_SUGGESTION_METRES)).toEqual([
      { south: expect.any(Number), north: 90, west: -180, east: 180 },
    ]);
  });

  // Inserts a town's worth of rows and analyses them: seconds on a quiet machine, more on a busy one.
  it(
    'reads the box on posts_cat_sightings_place_idx: latitude scanned, longitude and date checked in the index',
    { timeout: 120_000 },
    async () => {
      const [area] = suggestionBoxes({ latitude: 48.8566, longitude: 2.3522 }, CAT_SUGGESTION_METRES);
      const cat = await createCat(t.db, alice.id, { name: 'Everywhere' });
      let plan = '';
      // A town's worth of sightings, a year of them over 50 x 50 km, for the planner's statistics; then
      // undone, so that the other tests see none of them.
      await t.db
        .transaction(async (tx) => {
          await tx.execute(sql`insert into posts (user_id, media_key, width, height, placeholder, latitude, longitude,
            show_location, cat_id, created_at)
          select ${bob.id}, 'posts/' || md5(i::text), 800, 800, 'AAAA', 48.6 + (i % 97) * 0.005,
                 2.1 + (i % 89) * 0.007, i % 5 > 0, ${cat.id}, now() - (i % 365) * interval '1 day'
            from generate_series(1, 5000) i`);
          await tx.execute(sql`analyze posts`);
          const result = await tx.execute(sql`explain ${sightingsInBoxQuery(bob.id, area!, 90)}`);
          plan = rowsOf(result)
            .map((r) => String(Object.values(r)[0]))
            .join('\n');
          tx.rollback();
        })
        .catch((err: unknown) => {
          if (!(err instanceof Error) || !/rollback/i.test(err.message)) throw err;
        });
      // One scan of the box, or (issue 46) one bitmap scan per grid row of whole cells, ORed.
      expect(plan).toMatch(
        /Index (Only )?Scan using posts_cat_sightings_place_idx on posts p|Bitmap Index Scan on posts_cat_sightings_place_idx/,
      );
      // The scan's own condition (InitPlans above it have theirs).
      const cond =
        plan.match(/posts_cat_sightings_place_idx( on posts p)?.*\n\s*Index Cond: (.*)/)?.[2] ?? '';
      for (const column of ['latitude >=', 'latitude <=', 'longitude >=', 'longitude <=', 'created_at >'])
        expect(cond, plan).toContain(column);
    },
  );

  // Issue 46: the statement weighs at most SUGGESTION_SIGHTINGS_MAX sightings, the newest, of those it
  // reads from the box around the point. When the box took them by their exact spots, a stranger's
  // sighting whose spot lay inside the box's edge took a slot and pushed out an older one: with a
  // thousand newer sightings of their own in the box, Mallory learned on which side of the edge Bob's
  // spot lay (the edge moves with `near`, so to the metre), though its cell was 600 m away.
  it('reads the box by cells: a stranger beyond 300 m takes no slot, wherever in its cell it lies', async () => {
    const cell = locationCell(38.7223, -9.1393);
    // The box's north edge (300 m and half a row beyond the point) crosses Bob's cell 40 % up it.
    const degree = (6_371_000 * Math.PI) / 180;
    const near = {
      latitude: Number((cell.south + 0.4 * 0.0045 - 300 / degree - 0.00225).toFixed(7)),
      longitude: cell.centre.longitude,
    };
    expect(metres(near, cell.centre)).toBeGreaterThan(CAT_SUGGESTION_METRES + 250);
    const older = await createCat(t.db, mallory.id, { name: 'Older' });
    const newer = await createCat(t.db, mallory.id, { name: 'Newer' });
    const bobs = await createCat(t.db, bob.id, { name: 'Far' });
    await createPost(t.db, mallory.id, {
      catId: older.id,
      ...near,
      showLocation: true,
      createdAt: daysAgo(60),
    });
    const spot = await createPost(t.db, bob.id, {
      catId: bobs.id,
      ...near,
      showLocation: true,
      createdAt: daysAgo(30),
    });
    await t.db.insert(posts).values(
      Array.from({ length: SUGGESTION_SIGHTINGS_MAX - 1 }, (_, i) => ({
        userId: mallory.id,
        caption: 'Again',
        mediaKey: `posts/${String(i).padStart(32, '0')}`,
        width: 800,
        height: 800,
        placeholder: 'AAAA',
        catId: newer.id,
        ...near,
        showLocation: true,
        createdAt: daysAgo(1),
      })),
    );
    const told: string[] = [];
    for (let f = 0.05; f < 1; f += 0.1) {
      await t.db
        .update(posts)
        .set({ latitude: Number((cell.south + f * 0.0045).toFixed(7)) })
        .where(eq(posts.id, spot.id));
      told.push((await ids(mallory, near)).sort().join());
    }
    // Every step the same answer, and the older cat in it: Bob's sighting never took its slot.
    expect(new Set(told).size, told.join(' | ')).toBe(1);
    expect(told[0]).toBe([newer.id, older.id].sort().join());
  }, 60_000);

  it('refuses a missing or malformed near with 400 and a message, and strangers to the app with 401', async () => {
    for (const query of [
      '',
      'near=',
      'near=abc',
      'near=91,0',
      'near=0,181',
      'near=1,2,3',
      'near=0x10,5',
      'near=1e1,5',
      'near=1&near=2',
      `near=${'1'.repeat(70)},1`,
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/cats/suggestions?${query}`,
        headers: await authHeader(t.app, mallory.id),
      });
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual({ message: CAT_MESSAGES.nearInvalid });
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/cats/suggestions?near=1,2' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: expect.any(String) });
  });
});
