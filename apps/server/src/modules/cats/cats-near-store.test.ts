import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CATS_PAGE_SIZE } from '@cats/contracts';
import { buildTestApp, secondInstance, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createCat, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { blocks, catCaretakers, cats, hiddenPosts, posts, users } from '../../db/schema/index.ts';
import { approximateLocation } from '../location/location-grid.ts';
import { metresBetween } from '../visibility/cat-place.ts';
import { listCats } from './cats-list.service.ts';

/**
 * The near list's first page comes from per-process caches (cats-near-store.ts), kept fresh by
 * migration 0041's change log. Each change below is written through the database (instance A's pool)
 * while instance B, which has already served the page, answers next: B's page must show the change
 * and equal what the SQL path (listCats without the caches) answers for the same viewer.
 */
let t: TestApp;
let b: { app: FastifyInstance; close(): Promise<void> };

beforeAll(async () => {
  t = await buildTestApp();
});

afterAll(async () => {
  await b?.close();
  await t?.close();
});

type Page = { cats: { _id: string; name: string; missing: boolean; lastSeenAt: string | null }[] };

describe('GET /api/cats?near= first page, cached per process', () => {
  // A place of its own, far from every other test's cats.
  // Rounded as the query carries it, so that the SQL path measures from the same point.
  const centre = {
    latitude: Number((47.3 + Math.random() * 0.1).toFixed(6)),
    longitude: Number((-30.2 + Math.random() * 0.1).toFixed(6)),
  };
  const north = (metres: number) => ({
    latitude: centre.latitude + metres / 111_195,
    longitude: centre.longitude,
  });
  const nearQuery = `near=${centre.latitude.toFixed(6)},${centre.longitude.toFixed(6)}`;

  let ann: CreatedUser;
  let bob: CreatedUser;
  let sam: CreatedUser;

  /** The page as instance B serves it, checked against the SQL path's answer for the same viewer. */
  async function pageOnB(viewer: CreatedUser): Promise<Page> {
    const res = await b.app.inject({
      method: 'GET',
      url: `/api/cats?${nearQuery}`,
      headers: await authHeader(b.app, viewer.id),
    });
    expect(res.statusCode, res.body).toBe(200);
    const served = res.json<Page>();
    const fromSql = await listCats(
      { db: t.db, publicBase: t.config.S3_PUBLIC_URL },
      { userId: viewer.id, isDemo: false },
      { near: centre },
    );
    expect(served).toEqual(JSON.parse(JSON.stringify(fromSql)));
    return served;
  }
  const ids = (page: Page) => page.cats.map((c) => c._id);

  beforeAll(async () => {
    ann = await createUser(t.db);
    bob = await createUser(t.db);
    sam = await createUser(t.db);
    // More cats than a page, 1-3 km north: the page is full without the cats added below.
    for (let i = 0; i < CATS_PAGE_SIZE + 4; i += 1) {
      const cat = await createCat(t.db, ann.id, { name: `near store ${i}` });
      await createPost(t.db, ann.id, { catId: cat.id, ...north(1_000 + i * 100), showLocation: true });
    }
    // B starts with them in its caches: from here on it learns of changes from the log alone.
    b = await secondInstance(t);
  });

  it('shows a sighting added meanwhile, and drops one trashed, on the other instance', async () => {
    const before = await pageOnB(sam);
    const cat = await createCat(t.db, ann.id, { name: 'near store added' });
    const post = await createPost(t.db, ann.id, { catId: cat.id, ...north(10), showLocation: true });
    const added = await pageOnB(sam);
    expect(ids(added)[0]).toBe(cat.id);
    expect(ids(added).slice(1)).toEqual(ids(before).slice(0, -1));

    await t.db.update(posts).set({ deletedAt: new Date() }).where(eq(posts.id, post.id));
    expect(ids(await pageOnB(sam))).toEqual(ids(before));
  });

  it("follows a viewer's hides and blocks, and a cat's new name, on the other instance", async () => {
    const cat = await createCat(t.db, ann.id, { name: 'near store hidden' });
    // An older sighting by Ann 3.5 km away, the newest by Bob at the centre.
    await createPost(t.db, ann.id, {
      catId: cat.id,
      ...north(3_500),
      showLocation: true,
      createdAt: new Date(Date.now() - 3_600_000),
    });
    const bobs = await createPost(t.db, bob.id, { catId: cat.id, ...north(20), showLocation: true });
    expect(ids(await pageOnB(sam))[0]).toBe(cat.id);

    // Sam hides Bob's picture: the cat goes back to Ann's, past the page's end.
    await t.db.insert(hiddenPosts).values({ userId: sam.id, postId: bobs.id });
    expect(ids(await pageOnB(sam))).not.toContain(cat.id);
    await t.db
      .delete(hiddenPosts)
      .where(and(eq(hiddenPosts.userId, sam.id), eq(hiddenPosts.postId, bobs.id)));
    expect(ids(await pageOnB(sam))[0]).toBe(cat.id);

    // Sam blocks Bob: the same. Unblocked, back at the top.
    await t.db.insert(blocks).values({ blockerId: sam.id, blockedId: bob.id });
    expect(ids(await pageOnB(sam))).not.toContain(cat.id);
    await t.db.delete(blocks).where(and(eq(blocks.blockerId, sam.id), eq(blocks.blockedId, bob.id)));
    expect(ids(await pageOnB(sam))[0]).toBe(cat.id);

    // A new name shows at once (the page row of a stranger is cached too).
    await t.db.update(cats).set({ name: 'near store renamed' }).where(eq(cats.id, cat.id));
    expect((await pageOnB(sam)).cats[0]!.name).toBe('near store renamed');
    await t.db.update(posts).set({ deletedAt: new Date() }).where(eq(posts.id, bobs.id));
  });

  it('follows an author choosing exact public places, and a new caretaker, on the other instance', async () => {
    // Pia's spot north of the centre, where its cell's centre lies a good way nearer or farther than it;
    // a control cat whose exact public spot lies between the two: going exact swaps the two cats.
    const pia = await createUser(t.db);
    const exacty = await createUser(t.db, { exactPublicLocation: true });
    const gap = (m: number) =>
      metresBetween(centre, north(m)) -
      metresBetween(centre, approximateLocation(north(m).latitude, north(m).longitude));
    const metres = [150, 200, 250, 300, 350, 400, 450].sort(
      (x, y) => Math.abs(gap(y)) - Math.abs(gap(x)),
    )[0]!;
    const spot = north(metres);
    expect(Math.abs(gap(metres))).toBeGreaterThan(50);
    const hers = await createCat(t.db, pia.id, { name: 'near store exact' });
    await createPost(t.db, pia.id, { catId: hers.id, ...spot, showLocation: true });
    const control = await createCat(t.db, exacty.id, { name: 'near store control' });
    await createPost(t.db, exacty.id, {
      catId: control.id,
      ...north(metres - gap(metres) / 2),
      showLocation: true,
    });
    const viewer = await createUser(t.db);
    const order = async () => ids(await pageOnB(viewer)).filter((id) => id === hers.id || id === control.id);
    const before = await order();
    await t.db.update(users).set({ exactPublicLocation: true }).where(eq(users.id, pia.id));
    expect(await order()).toEqual([...before].reverse());

    // A household cat with its home at Pia's sighting: kept from the viewer until they care for it.
    await t.db
      .update(cats)
      .set({ living: 'household', homeLatitude: spot.latitude, homeLongitude: spot.longitude })
      .where(eq(cats.id, hers.id));
    expect(ids(await pageOnB(viewer))).not.toContain(hers.id);
    await t.db.insert(catCaretakers).values({ catId: hers.id, userId: viewer.id });
    expect(ids(await pageOnB(viewer))).toContain(hers.id);
    expect(ids(await pageOnB(sam))).not.toContain(hers.id);
  });
});
