import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catCaretakers, catPlaces, cats, posts, users } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { createCat, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';

/**
 * cat_places (migration 0032): where a stranger would place each cat, its newest sighting anyone may
 * see, kept by triggers. The list nearest first reads its cats from it (cats-nearest.repository.ts ›
 * catsPlacedNearest), so a row that lags behind a change would leave a cat out of the list. Every
 * change that can move a stranger's newest sighting is made here and the row read back.
 */
describe('cat_places', () => {
  let t: TestApp;
  let ann: CreatedUser;
  let ben: CreatedUser;
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
  const spot = (i: number) => ({ latitude: 36.7 + i / 1000, longitude: -4.4 });

  async function placeOf(catId: string) {
    const [row] = await t.db.select().from(catPlaces).where(eq(catPlaces.catId, catId));
    return row ? { postId: row.postId, latitude: row.latitude, longitude: row.longitude } : null;
  }
  const at = (post: { id: string }, i: number) => ({ postId: post.id, ...spot(i) });

  beforeAll(async () => {
    t = await buildTestApp();
    ann = await createUser(t.db);
    ben = await createUser(t.db);
  });
  afterAll(async () => t?.close());

  it('follows the newest sighting as pictures are added, trashed, restored, relinked and deleted', async () => {
    const cat = await createCat(t.db, ann.id);
    expect(await placeOf(cat.id)).toBeNull();
    const older = await createPost(t.db, ann.id, {
      catId: cat.id,
      ...spot(1),
      showLocation: true,
      createdAt: hoursAgo(5),
    });
    expect(await placeOf(cat.id)).toEqual(at(older, 1));
    const newer = await createPost(t.db, ben.id, {
      catId: cat.id,
      ...spot(2),
      showLocation: true,
      createdAt: hoursAgo(1),
    });
    expect(await placeOf(cat.id)).toEqual(at(newer, 2));
    // A picture older than the newest changes nothing.
    await createPost(t.db, ben.id, { catId: cat.id, ...spot(3), showLocation: true, createdAt: hoursAgo(9) });
    expect(await placeOf(cat.id)).toEqual(at(newer, 2));

    await t.db.update(posts).set({ deletedAt: new Date() }).where(eq(posts.id, newer.id));
    expect(await placeOf(cat.id)).toEqual(at(older, 1));
    await t.db.update(posts).set({ deletedAt: null }).where(eq(posts.id, newer.id));
    expect(await placeOf(cat.id)).toEqual(at(newer, 2));

    // Relinked to another cat: both cats' rows move.
    const other = await createCat(t.db, ben.id);
    await t.db.update(posts).set({ catId: other.id }).where(eq(posts.id, newer.id));
    expect(await placeOf(cat.id)).toEqual(at(older, 1));
    expect(await placeOf(other.id)).toEqual(at(newer, 2));
    await t.db.update(posts).set({ catId: null }).where(eq(posts.id, newer.id));
    expect(await placeOf(other.id)).toBeNull();

    // Moved, then deleted for good (an account's deletion removes its posts).
    await t.db.update(posts).set(spot(4)).where(eq(posts.id, older.id));
    expect(await placeOf(cat.id)).toEqual(at(older, 4));
    await t.db.delete(posts).where(eq(posts.id, older.id));
    expect((await placeOf(cat.id))?.latitude).toBe(spot(3).latitude);
    // The cat deleted: its row goes with it.
    await t.db.delete(cats).where(eq(cats.id, cat.id));
    expect(await placeOf(cat.id)).toBeNull();
  });

  it('places no cat whose newest sighting shows strangers no place, and skips what they may not see', async () => {
    const cat = await createCat(t.db, ann.id);
    const seen = await createPost(t.db, ann.id, {
      catId: cat.id,
      ...spot(1),
      showLocation: true,
      createdAt: hoursAgo(5),
    });
    const newest = await createPost(t.db, ben.id, {
      catId: cat.id,
      ...spot(2),
      showLocation: true,
      createdAt: hoursAgo(1),
    });
    // Location switched off on the newest: a stranger sees that sighting, without a place.
    await t.db.update(posts).set({ showLocation: false }).where(eq(posts.id, newest.id));
    expect(await placeOf(cat.id)).toBeNull();
    await t.db.update(posts).set({ showLocation: true }).where(eq(posts.id, newest.id));
    expect(await placeOf(cat.id)).toEqual(at(newest, 2));
    // Held for review, removed, or by a suspended author: strangers see the one before.
    for (const hidden of [
      { moderation: 'pending_review' },
      { moderation: 'removed' },
      { authorSuspended: true },
    ]) {
      await t.db.update(posts).set(hidden).where(eq(posts.id, newest.id));
      expect(await placeOf(cat.id), JSON.stringify(hidden)).toEqual(at(seen, 1));
      await t.db
        .update(posts)
        .set({ moderation: null, authorSuspended: false })
        .where(eq(posts.id, newest.id));
      expect(await placeOf(cat.id)).toEqual(at(newest, 2));
    }
    // No place at all for an unlocated newest sighting.
    await createPost(t.db, ben.id, { catId: cat.id, createdAt: hoursAgo(0.5) });
    expect(await placeOf(cat.id)).toBeNull();
  });

  it("leaves out a household cat's sightings near its home, as its home is set, moved and cleared", async () => {
    // Ben cares for the cat: the cells decide for a caretaker's sightings (decision 022).
    const cat = await createCat(t.db, ann.id, { caretakers: [ben.id] });
    const away = await createPost(t.db, ben.id, {
      catId: cat.id,
      ...spot(20), // ~2.2 km north of spot(0)
      showLocation: true,
      createdAt: hoursAgo(5),
    });
    const nearHome = await createPost(t.db, ben.id, {
      catId: cat.id,
      ...spot(0),
      showLocation: true,
      createdAt: hoursAgo(1),
    });
    expect(await placeOf(cat.id)).toEqual(at(nearHome, 0));
    const home = { homeLatitude: spot(0).latitude + 0.001, homeLongitude: spot(0).longitude }; // ~110 m
    await t.db
      .update(cats)
      .set({ living: 'household', ...home })
      .where(eq(cats.id, cat.id));
    expect(await placeOf(cat.id)).toEqual(at(away, 20));
    // One who does not care for it has each sighting kept wherever it lies: Ben no longer a caretaker,
    // strangers are given no place of the cat; a caretaker again, the cells decide again.
    const bensRow = and(eq(catCaretakers.catId, cat.id), eq(catCaretakers.userId, ben.id));
    await t.db.delete(catCaretakers).where(bensRow);
    expect(await placeOf(cat.id)).toBeNull();
    await t.db.insert(catCaretakers).values({ catId: cat.id, userId: ben.id });
    expect(await placeOf(cat.id)).toEqual(at(away, 20));
    // A community cat's home point hides nothing.
    await t.db.update(cats).set({ living: 'community' }).where(eq(cats.id, cat.id));
    expect(await placeOf(cat.id)).toEqual(at(nearHome, 0));
    await t.db.update(cats).set({ living: 'household' }).where(eq(cats.id, cat.id));
    expect(await placeOf(cat.id)).toEqual(at(away, 20));
    await t.db.update(cats).set({ homeLatitude: null, homeLongitude: null }).where(eq(cats.id, cat.id));
    expect(await placeOf(cat.id)).toEqual(at(nearHome, 0));
  });

  it("moves with a suspension of the author's every post", async () => {
    const author = await createUser(t.db);
    const first = await createCat(t.db, ann.id);
    const second = await createCat(t.db, ann.id);
    const kept = await createPost(t.db, ann.id, {
      catId: first.id,
      ...spot(1),
      showLocation: true,
      createdAt: hoursAgo(5),
    });
    await createPost(t.db, author.id, { catId: first.id, ...spot(2), showLocation: true });
    await createPost(t.db, author.id, { catId: second.id, ...spot(3), showLocation: true });
    await t.db.update(posts).set({ authorSuspended: true }).where(eq(posts.userId, author.id));
    expect(await placeOf(first.id)).toEqual(at(kept, 1));
    expect(await placeOf(second.id)).toBeNull();
    await t.db.delete(users).where(eq(users.id, author.id));
    expect(await placeOf(first.id)).toEqual(at(kept, 1));
  });

  // PGlite runs one statement at a time: nothing can commit between a trigger's read and its write.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'keeps the newest when two sightings of one cat are added at once (PostgreSQL)',
    async () => {
      const cat = await createCat(t.db, ann.id);
      const insert = (client: pg.Client, userId: string, i: number, createdAt: Date) =>
        client.query(
          `insert into posts (user_id, media_key, width, height, placeholder, latitude, longitude, show_location, cat_id, created_at)
           values ($1, $2, 800, 800, 'AAAA', $3, $4, true, $5, $6) returning id`,
          [userId, `posts/cp-${i}-${Date.now()}`, spot(i).latitude, spot(i).longitude, cat.id, createdAt],
        );
      const first = new pg.Client({ connectionString: t.databaseUrl! });
      const second = new pg.Client({ connectionString: t.databaseUrl! });
      await first.connect();
      await second.connect();
      try {
        // The newer sighting's transaction writes first and stays open; the older one's trigger then
        // runs while it is open. Without the per-cat lock the older would read the cat without the
        // newer, and its write, after the newer's commit, would leave the older in the row.
        await first.query('begin');
        const newer = await insert(first, ann.id, 1, hoursAgo(1));
        await second.query('begin');
        const olderDone = insert(second, ben.id, 2, hoursAgo(5)).then(() => second.query('commit'));
        await new Promise((resolve) => setTimeout(resolve, 200));
        await first.query('commit');
        await olderDone;
        expect(await placeOf(cat.id)).toEqual({ postId: newer.rows[0].id, ...spot(1) });
      } finally {
        await first.end();
        await second.end();
      }
    },
  );
});
