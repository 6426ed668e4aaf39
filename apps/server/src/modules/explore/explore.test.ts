import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ANONYMISED_USERNAME,
  CLUSTER_NOT_FOUND_MESSAGE,
  DEMO_USER_ID,
  EXPLORE_MESSAGES,
  MAP_MAX_ZOOM,
  type ExploreResponse,
  type MapViewport,
  type Post,
} from '@cats/contracts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { blocks, hiddenPosts, posts, users, type PostRow } from '../../db/schema/index.ts';
import { approximateLocation } from '../location/location-grid.ts';
import { MapStore } from './map-store.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type Auth = { authorization: string };
const as = async (user: { id: string }): Promise<Auth> => authHeader(t.app, user.id);

async function explore(auth: Auth, viewport?: MapViewport) {
  const query = viewport
    ? `?${new URLSearchParams(Object.entries(viewport).map(([k, v]): [string, string] => [k, String(v)]))}`
    : '';
  const res = await t.app.inject({ url: `/api/explore${query}`, headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  return { body: res.json() as ExploreResponse, bytes: res.body.length, raw: res.body };
}

async function clusterPosts(auth: Auth, clusterId: string): Promise<Post[]> {
  const res = await t.app.inject({ url: `/api/explore/clusters/${clusterId}/posts`, headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { posts: Post[] }).posts;
}

/** Post ids a viewer sees in a viewport, whether alone or inside a cluster's count. */
function counted(body: ExploreResponse): number {
  const alone = body.markers ?? body.posts ?? [];
  return alone.length + (body.clusters ?? []).reduce((sum, c) => sum + c.count, 0);
}

/** The lone markers' post ids of a viewport answer. */
const markerIds = (body: ExploreResponse): string[] => body.markers!.map((m) => m._id);

const MALAGA = { latitude: 36.72123, longitude: -4.42137 };
const SPAIN = { west: -10, south: 35, east: 4, north: 44 };
const WORLD = { west: -180, south: -85, east: 180, north: 85 };

let clock = Date.parse('2024-03-01T00:00:00Z');
const located = (
  userId: string,
  at: { latitude: number; longitude: number },
  overrides: Partial<PostRow> = {},
) => {
  clock += 60_000;
  return createPost(t.db, userId, { ...at, showLocation: true, createdAt: new Date(clock), ...overrides });
};

describe('GET /api/explore: what is on the map', () => {
  let viewer: CreatedUser;
  let auth: Auth;
  type Role =
    'shown' | 'switchOff' | 'noCoordinates' | 'hidden' | 'blockedByViewer' | 'blocksViewer' | 'exact' | 'own';
  const ids = {} as Record<Role, string>;

  beforeAll(async () => {
    viewer = await createUser(t.db);
    auth = await as(viewer);
    const other = await createUser(t.db);
    const exact = await createUser(t.db, { exactPublicLocation: true });
    const blockedByViewer = await createUser(t.db);
    const blocksViewer = await createUser(t.db);
    // Spread over a box of about 1 km around a point of its own, far from the other tests' posts.
    const near = (i: number) => ({ latitude: 10.500123 + i * 0.002, longitude: 20.500123 + i * 0.002 });
    ids.shown = (await located(other.id, near(0))).id;
    ids.switchOff = (await located(other.id, near(1), { showLocation: false })).id;
    ids.noCoordinates = (await createPost(t.db, other.id, { showLocation: true })).id;
    ids.hidden = (await located(other.id, near(2))).id;
    ids.blockedByViewer = (await located(blockedByViewer.id, near(3))).id;
    ids.blocksViewer = (await located(blocksViewer.id, near(4))).id;
    ids.exact = (await located(exact.id, near(5))).id;
    ids.own = (await located(viewer.id, near(6))).id;
    await t.db.insert(hiddenPosts).values({ userId: viewer.id, postId: ids.hidden });
    await t.db.insert(blocks).values([
      { blockerId: viewer.id, blockedId: blockedByViewer.id },
      { blockerId: blocksViewer.id, blockedId: viewer.id },
    ]);
  });

  const area = { west: 20.4, south: 10.4, east: 20.6, north: 10.6 };
  const mine = (list: Post[]) => list.filter((p) => Object.values(ids).includes(p._id));

  it('needs a token', async () => {
    expect((await t.app.inject({ url: '/api/explore' })).statusCode).toBe(401);
  });

  it('lists only posts with the switch on, valid coordinates, not hidden and no block either way', async () => {
    const { body } = await explore(auth);
    expect(body.clusters).toBeUndefined();
    expect(body.markers).toBeUndefined();
    expect(
      mine(body.posts!)
        .map((p) => p._id)
        .sort(),
    ).toEqual([ids.shown, ids.exact, ids.own].sort());
  });

  it('shows others the grid-cell centre, the owner and owners who chose it the exact spot', async () => {
    const { body, raw } = await explore(auth);
    const byId = new Map(body.posts!.map((p) => [p._id, p]));
    const [shownRow] = await t.db.select().from(posts).where(eq(posts.id, ids.shown));
    const approx = approximateLocation(shownRow!.latitude!, shownRow!.longitude!);
    expect(byId.get(ids.shown)).toMatchObject({ ...approx, locationPrecision: 'approximate' });
    expect(approx.latitude).not.toBe(shownRow!.latitude);
    expect(raw).not.toContain(String(shownRow!.latitude));
    expect(byId.get(ids.exact)).toMatchObject({
      latitude: 10.510123,
      longitude: 20.510123,
      locationPrecision: 'exact',
    });
    expect(byId.get(ids.own)).toMatchObject({
      latitude: 10.512123,
      longitude: 20.512123,
      locationPrecision: 'exact',
    });
  });

  it('applies the same rules to every zoom of the clustered map', async () => {
    for (const zoom of [3, 8, 12, 16]) {
      const { body } = await explore(auth, { ...area, zoom });
      expect(counted(body), `zoom ${zoom}`).toBe(3);
      for (const id of markerIds(body)) expect([ids.shown, ids.exact, ids.own]).toContain(id);
      for (const c of body.clusters ?? []) {
        const members = await clusterPosts(auth, c.id);
        expect(members.length).toBeGreaterThan(0);
        for (const p of members) expect([ids.shown, ids.exact, ids.own]).toContain(p._id);
      }
    }
    const { body } = await explore(auth, { ...area, zoom: 16 });
    expect(markerIds(body).sort()).toEqual([ids.shown, ids.exact, ids.own].sort());
  });

  it('gives each lone marker its picture, text and the position the card would show', async () => {
    const { body, raw } = await explore(auth, { ...area, zoom: 16 });
    const spec = (await explore(auth)).body.posts!;
    for (const marker of body.markers!) {
      const post = spec.find((p) => p._id === marker._id)!;
      expect(marker).toEqual({
        _id: post._id,
        latitude: post.latitude,
        longitude: post.longitude,
        previewUrl: post.image.variants['64'],
        catName: post.catName,
        username: post.user.username,
        createdAt: post.createdAt,
      });
    }
    const [shownRow] = await t.db.select().from(posts).where(eq(posts.id, ids.shown));
    expect(raw).not.toContain(String(shownRow!.latitude));
    expect(body.markers!.find((m) => m._id === ids.own)).toMatchObject({ latitude: 10.512123 });
  });

  it('blocks both ways: the blocked user does not see the viewer either', async () => {
    const [blockRow] = await t.db.select().from(blocks).where(eq(blocks.blockerId, viewer.id));
    const blockedAuth = await as({ id: blockRow!.blockedId });
    const { body } = await explore(blockedAuth, { ...area, zoom: 16 });
    expect(markerIds(body)).not.toContain(ids.own);
    // shown, hidden (only the viewer hid it), exact, their own and the one by the user who blocked the viewer
    expect(counted(body)).toBe(5);
  });

  it('follows hides, blocks, switches and deletions at once', async () => {
    const author = await createUser(t.db);
    const spot = { latitude: 11.5, longitude: 21.5 };
    const box = { west: 21.4, south: 11.4, east: 21.6, north: 11.6, zoom: 16 };
    const a = await located(author.id, spot);
    const b = await located(author.id, { latitude: 11.51, longitude: 21.51 });
    expect(markerIds((await explore(auth, box)).body).sort()).toEqual([a.id, b.id].sort());

    await t.db.insert(hiddenPosts).values({ userId: viewer.id, postId: a.id });
    expect(markerIds((await explore(auth, box)).body)).toEqual([b.id]);

    await t.db.update(posts).set({ showLocation: false }).where(eq(posts.id, b.id));
    expect(counted((await explore(auth, box)).body)).toBe(0);

    await t.db.update(posts).set({ showLocation: true }).where(eq(posts.id, b.id));
    expect(counted((await explore(auth, box)).body)).toBe(1);
    await t.db.insert(blocks).values({ blockerId: author.id, blockedId: viewer.id });
    expect(counted((await explore(auth, box)).body)).toBe(0);
    await t.db.delete(blocks).where(eq(blocks.blockerId, author.id));
    expect(counted((await explore(auth, box)).body)).toBe(1);

    await t.db.delete(posts).where(eq(posts.id, b.id));
    expect(counted((await explore(auth, box)).body)).toBe(0);
    const c = await located(author.id, spot);
    expect(markerIds((await explore(auth, box)).body)).toEqual([c.id]);
    await t.db.delete(users).where(eq(users.id, author.id));
    expect(counted((await explore(auth, box)).body)).toBe(0);
  });

  it('sees a post whose transaction commits after a later one (PostgreSQL)', async (ctx) => {
    // PGlite is one connection: transactions cannot overlap there.
    if (t.database.kind !== 'postgres') ctx.skip();
    const author = await createUser(t.db);
    const box = { west: 23.4, south: 13.4, east: 23.6, north: 13.6, zoom: 16 };
    const onMap = async () => markerIds((await explore(auth, box)).body).sort();
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let slowId: string | undefined;
    const slow = t.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(posts)
        .values({
          userId: author.id,
          latitude: 13.5,
          longitude: 23.5,
          showLocation: true,
          mediaKey: 'posts/aa',
          width: 1,
          height: 1,
          placeholder: 'A',
        })
        .returning();
      slowId = row!.id;
      await gate;
    });
    await vi.waitFor(() => expect(slowId).toBeDefined());
    const fast = await located(author.id, { latitude: 13.55, longitude: 23.55 });
    expect(await onMap()).toEqual([fast.id]);
    release();
    await slow;
    expect(await onMap()).toEqual([fast.id, slowId!].sort());
  });

  it('moves the clustered positions when the owner switches to exact public locations', async () => {
    const owner = await createUser(t.db);
    const exactSpot = { latitude: 12.50123, longitude: 22.50123 };
    const one = await located(owner.id, exactSpot);
    await located(owner.id, { latitude: 12.50124, longitude: 22.50124 });
    const box = { west: 22.49, south: 12.495, east: 22.51, north: 12.505, zoom: MAP_MAX_ZOOM };
    const before = (await explore(auth, box)).body;
    // Two posts in one 500 m cell share its centre: a stack no zoom can split, placed at that centre.
    expect(before.markers).toHaveLength(0);
    expect(before.clusters).toHaveLength(1);
    const centre = approximateLocation(exactSpot.latitude, exactSpot.longitude);
    expect(before.clusters![0]).toMatchObject({ count: 2, expansionZoom: MAP_MAX_ZOOM + 1 });
    expect(before.clusters![0]!.latitude).toBeCloseTo(centre.latitude, 6);
    expect(before.clusters![0]!.longitude).toBeCloseTo(centre.longitude, 6);
    expect(before.clusters![0]!.latitude).not.toBeCloseTo(exactSpot.latitude, 3);
    const stack = await clusterPosts(auth, before.clusters![0]!.id);
    expect(stack.map((p) => p._id)).toHaveLength(2);
    expect(stack[1]!._id).toBe(one.id); // newest first
    expect(stack[1]!.latitude).toBeCloseTo(centre.latitude, 6);

    await t.db.update(users).set({ exactPublicLocation: true }).where(eq(users.id, owner.id));
    const after = (await explore(auth, box)).body;
    expect(counted(after)).toBe(2);
    const alone = after.markers!.find((m) => m._id === one.id) ?? after.clusters![0]!;
    expect(alone.latitude).toBeCloseTo(exactSpot.latitude, 4);
  });

  it('loads the same map from scratch (a new process) as it patched from the change log', async () => {
    const fresh = await new MapStore(t.db).current();
    for (const zoom of [3, 12, 16]) {
      const a = fresh.query({ ...area, zoom });
      const b = (await explore(auth, { ...area, zoom })).body;
      // The viewer's exclusions aside (the route applies them), the fresh index holds the same points.
      expect(a.singles.length + a.clusters.reduce((n, c) => n + c.count, 0)).toBe(6);
      expect(counted(b)).toBe(3);
    }
    const lone = fresh.query({ ...area, zoom: 16 }).singles;
    const exactRow = lone.find((p) => p.id === ids.exact)!;
    expect(exactRow).toMatchObject({ latitude: 10.510123, longitude: 20.510123 });
    const shown = lone.find((p) => p.id === ids.shown)!;
    expect(shown.latitude).not.toBe(10.500123);
    expect(shown).toMatchObject(approximateLocation(10.500123, 20.500123));
  });

  it('anonymises authors for the demo user', async () => {
    const demo = await as({ id: DEMO_USER_ID });
    const { body } = await explore(demo, { ...area, zoom: 16 });
    expect(body.markers!.length).toBeGreaterThan(0);
    for (const m of body.markers!) expect(m.username).toBe(ANONYMISED_USERNAME);
  });
});

describe('GET /api/explore with a viewport: clusters', () => {
  let auth: Auth;
  const CITIES = [
    { latitude: 36.7213, longitude: -4.4214 }, // Malaga
    { latitude: 37.1773, longitude: -3.5986 }, // Granada
    { latitude: 37.3891, longitude: -5.9845 }, // Seville
    { latitude: 37.8882, longitude: -4.7794 }, // Cordoba
    { latitude: 36.834, longitude: -2.4637 }, // Almeria
  ];
  const PER_CITY = 12;
  let total = 0;

  beforeAll(async () => {
    const viewer = await createUser(t.db);
    auth = await as(viewer);
    const authors = await Promise.all([1, 2, 3].map(() => createUser(t.db, { exactPublicLocation: true })));
    let i = 0;
    for (const city of CITIES) {
      for (let k = 0; k < PER_CITY; k += 1) {
        i += 1;
        // Up to ~2 km around the centre, each post on its own spot.
        const dLat = (((i * 37) % 41) - 20) * 0.001;
        const dLng = (((i * 53) % 43) - 21) * 0.001;
        await located(authors[i % 3]!.id, {
          latitude: city.latitude + dLat,
          longitude: city.longitude + dLng,
        });
      }
    }
    total = CITIES.length * PER_CITY;
  });

  it('keeps every post counted once at every zoom, alone or in a cluster', async () => {
    const andalusia = { west: -7, south: 36, east: -1.5, north: 38.5 };
    for (const zoom of [3, 5, 8, 9]) {
      const { body } = await explore(auth, { ...(zoom < 6 ? SPAIN : andalusia), zoom });
      expect(counted(body), `zoom ${zoom}`).toBe(total);
    }
  });

  it('draws one cluster per region zoomed out, and lone posts zoomed in', async () => {
    const far = (await explore(auth, { ...SPAIN, zoom: 3 })).body;
    expect(far.markers).toHaveLength(0);
    expect(far.clusters!.length).toBeLessThanOrEqual(2);

    const region = (await explore(auth, { west: -7, south: 36, east: -1.5, north: 38.5, zoom: 8 })).body;
    expect(region.clusters!.length).toBeGreaterThanOrEqual(CITIES.length - 1);
    expect(region.clusters!.length).toBeLessThanOrEqual(CITIES.length);

    const city = { west: -4.46, south: 36.69, east: -4.38, north: 36.75 };
    const near = (await explore(auth, { ...city, zoom: 17 })).body;
    expect(near.markers).toHaveLength(PER_CITY);
    expect(near.clusters).toHaveLength(0);
    for (const m of near.markers!) expect(m.previewUrl).toMatch(/\/64\.webp$/);
  });

  it('gives each cluster a position inside its posts, a 64 px picture and a zoom that splits it', async () => {
    const { body } = await explore(auth, { ...SPAIN, zoom: 5 });
    for (const c of body.clusters!) {
      expect(c.previewUrl).toMatch(/^\/media\/posts\/[0-9a-f]+\/64\.webp$/);
      expect(c.id).toMatch(/^5-\d+-\d+$/);
      expect(c.latitude).toBeGreaterThan(36.6);
      expect(c.latitude).toBeLessThan(38);
      expect(c.expansionZoom).toBeGreaterThan(5);
      expect(c.expansionZoom).toBeLessThanOrEqual(MAP_MAX_ZOOM);
      // Zooming to expansionZoom around the cluster shows more than one marker for its posts.
      const d = 0.6 / 2 ** (c.expansionZoom - 8);
      const split = (
        await explore(auth, {
          west: c.longitude - 2 * d,
          south: c.latitude - d,
          east: c.longitude + 2 * d,
          north: c.latitude + d,
          zoom: c.expansionZoom,
        })
      ).body;
      expect(split.markers!.length + split.clusters!.length).toBeGreaterThan(1);
    }
  });

  it('keeps the payload small', async () => {
    const andalusia = { west: -7, south: 36, east: -1.5, north: 38.5 };
    for (const view of [
      { ...SPAIN, zoom: 3 },
      { ...SPAIN, zoom: 5 },
      { ...andalusia, zoom: 8 },
    ]) {
      const { bytes } = await explore(auth, view);
      expect(bytes, `zoom ${view.zoom}`).toBeLessThan(2000);
    }
    // Without a viewport every post comes in full: the viewport form is what the map uses.
    const all = await explore(auth);
    expect(all.bytes).toBeGreaterThan(total * 300);
  });

  it('refuses a bad viewport with a message', async () => {
    const bad = async (query: string) => {
      const res = await t.app.inject({ url: `/api/explore?${query}`, headers: auth });
      expect(res.statusCode, query).toBe(400);
      return (res.json() as { message: string }).message;
    };
    expect(await bad('west=-10&south=35&east=4&north=44')).toBe(EXPLORE_MESSAGES.viewportTogether);
    expect(await bad('zoom=5')).toBe(EXPLORE_MESSAGES.viewportTogether);
    expect(await bad('west=a&south=35&east=4&north=44&zoom=5')).toBe('west must be a number');
    expect(await bad('west=-10&south=45&east=4&north=44&zoom=5')).toBe(EXPLORE_MESSAGES.southAboveNorth);
    expect(await bad('west=-10&south=-95&east=4&north=44&zoom=5')).toBe('south must be between -90 and 90');
    expect(await bad('west=-10&south=35&east=4&north=44&zoom=19')).toBe('zoom must be between 0 and 18');
    expect(await bad('west=-10&south=35&east=4&north=44&zoom=Infinity')).toBe('zoom must be a number');
    // Plain decimals only (issue 23): JavaScript's Number() would read these as 16, 1, 7, 10 and 0.
    expect(await bad('west=0x10&south=35&east=20&north=44&zoom=5')).toBe('west must be a number');
    expect(await bad('west=-10&south=35&east=4&north=44&zoom=0b1')).toBe('zoom must be a number');
    expect(await bad('west=-10&south=35&east=0o7&north=44&zoom=5')).toBe('east must be a number');
    expect(await bad('west=-10&south=35&east=4&north=1e1&zoom=5')).toBe('north must be a number');
    expect(await bad('west=-10&south=%20%20&east=4&north=44&zoom=5')).toBe('south must be a number');
    expect(await bad(new URLSearchParams({ ...WORLD, zoom: 14 } as never).toString())).toBe(
      EXPLORE_MESSAGES.areaTooLarge,
    );
  });
});

describe('GET /api/explore/posts', () => {
  it('returns the posts of a marker or stack that are on the viewer’s map, newest first', async () => {
    const viewer = await createUser(t.db);
    const auth = await as(viewer);
    const author = await createUser(t.db);
    const older = await located(author.id, MALAGA);
    const newer = await located(author.id, MALAGA);
    const hidden = await located(author.id, MALAGA);
    const unlocated = await createPost(t.db, author.id);
    await t.db.insert(hiddenPosts).values({ userId: viewer.id, postId: hidden.id });
    const ids = [
      older.id,
      newer.id,
      hidden.id,
      unlocated.id,
      'not-a-uuid',
      '6b0c2d7e-1f4a-4c1e-9a57-0c8f2f3b9d11',
    ];
    const res = await t.app.inject({ url: `/api/explore/posts?ids=${ids.join(',')}`, headers: auth });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { posts: Post[] };
    expect(body.posts.map((p) => p._id)).toEqual([newer.id, older.id]);
    expect(body.posts[0]!.locationPrecision).toBe('approximate');

    const none = await t.app.inject({ url: '/api/explore/posts', headers: auth });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ message: EXPLORE_MESSAGES.idsRequired });
    expect((await t.app.inject({ url: '/api/explore/posts?ids=x' })).statusCode).toBe(401);
  });
});

describe('GET /api/explore/clusters/:clusterId/posts', () => {
  it('answers 404 for an id the server could not have produced, 401 without a token', async () => {
    const auth = await as(await createUser(t.db));
    for (const id of ['nope', '99-1-1', '3-1', '3-999999-1']) {
      const res = await t.app.inject({ url: `/api/explore/clusters/${id}/posts`, headers: auth });
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ message: CLUSTER_NOT_FOUND_MESSAGE });
    }
    expect((await t.app.inject({ url: '/api/explore/clusters/3-1-1/posts' })).statusCode).toBe(401);
  });
});

describe('GET /api/config/map', () => {
  it('tells anyone where tiles come from, OpenStreetMap by default', async () => {
    const res = await t.app.inject({ url: '/api/config/map' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      attribution: expect.stringContaining('OpenStreetMap'),
    });
    expect(res.headers['cache-control']).toContain('public');
  });

  it('is listed in the OpenAPI document with the explore routes', async () => {
    const res = await t.app.inject({ url: '/api/openapi.json' });
    if (res.statusCode !== 200) return; // the document's route belongs to the app shell
    const paths = Object.keys((res.json() as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/explore',
        '/api/explore/posts',
        '/api/explore/clusters/{clusterId}/posts',
        '/api/config/map',
      ]),
    );
  });
});

describe('MapStore exclusions', () => {
  it('are computed once per viewer and index, and again when the index changes', async () => {
    const store = new MapStore(t.db);
    const author = await createUser(t.db);
    const spot = { latitude: 14.5, longitude: 24.5 };
    const box = { west: 24.4, south: 14.4, east: 24.6, north: 14.6, zoom: 16 };
    const [a, b] = [await located(author.id, spot), await located(author.id, { ...spot, latitude: 14.51 })];
    const index = await store.current();
    const first = store.exclusions(index, [a.id], []);
    expect(store.exclusions(index, [a.id], [])).toBe(first);
    expect(store.exclusions(index, [b.id], [])).not.toBe(first);
    expect(index.query(box, first).singles.map((p) => p.id)).toEqual([b.id]);

    // A new post makes a new index: positions differ, so nothing computed for the old one is reused.
    const c = await located(author.id, { ...spot, latitude: 14.52 });
    const next = await store.current();
    expect(next).not.toBe(index);
    const again = store.exclusions(next, [a.id], []);
    expect(again).not.toBe(first);
    expect(
      next
        .query(box, again)
        .singles.map((p) => p.id)
        .sort(),
    ).toEqual([b.id, c.id].sort());
    // Blocking the author excludes every post of theirs.
    const blocked = store.exclusions(next, [], [author.id]);
    const result = next.query(box, blocked);
    expect(result.singles.length + result.clusters.length).toBe(0);
  });
});
