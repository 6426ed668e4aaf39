import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_USER_ID,
  MISSING_NEAR_METRES,
  type CreateGroupResponse,
  type ExploreResponse,
  type NotificationsResponse,
} from '@cats/contracts';
import { groupMembers, missingAlerts, posts as postsTable } from '../../src/db/schema/index.ts';
import { locationCell, type LocationCell } from '../../src/modules/location/location-grid.ts';
import { buildTestApp, type TestApp } from '../build-app.ts';
import { authHeader, createCat, createPost, createUser } from '../factories.ts';
import { NO_RATE_LIMITS, smallJpeg, uploadPost } from '../hostile/support/world.ts';
import { parseSse } from '../sse-client.ts';
import { metres, walkGetRoutes, walkTicket, type WalkViewer } from './location-walk.ts';

/**
 * Issue 46, "Side channels": an answer that anyone but the owner (or a cat's caretakers) receives may
 * depend on a secret point only as coarsely as that viewer may see the point itself: its ~500 m cell,
 * or nothing for a switched-off location. So the attacker's probe is the test: each kind of secret
 * point is moved in many small steps that stay inside one cell, and after each step every GET route of
 * the API (the location walk's, so a route added later is probed without being named here) is asked,
 * as every viewer who may not see the point exactly, with `near` points and viewports all around it.
 * Every answer must be the same at every step: no yes/no, list, count or order may move with the point.
 * Only fields that change by themselves (timestamps) are left out of the comparison.
 */

type Point = { latitude: number; longitude: number };
type Name = 'owner' | 'member' | 'stranger' | 'other' | 'sighter';

/** A point at fractions (0..1) of a cell's height and width, from its south-west corner. */
const inCell = (cell: LocationCell, north: number, east: number): Point => ({
  latitude: Number((cell.south + north * (cell.north - cell.south)).toFixed(7)),
  longitude: Number((cell.west + east * (cell.east - cell.west)).toFixed(7)),
});

/** A walk of `n` small steps across the whole cell, corner to corner and back along the other diagonal. */
function stepsInside(cell: LocationCell, n = 7): Point[] {
  const out: Point[] = [];
  for (let i = 0; i < n; i += 1) {
    const f = 0.03 + (0.94 * i) / (n - 1);
    out.push(i % 2 === 0 ? inCell(cell, f, f) : inCell(cell, f, 1 - f));
  }
  return out;
}

/** The cell `rows` rows north and `columns` columns east of a London origin (~500 m each). */
const cellAt = (rows: number, columns: number) =>
  locationCell(51.5012 + rows * 0.0045, -0.1234 + columns * 0.0072);

/** Keys whose values change by themselves (the time of an edit, of a request): not compared. */
const MOVING_KEYS = new Set(['createdAt', 'updatedAt', 'editedAt', 'time', 'now', 'uptimeSeconds']);

function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([k]) => !MOVING_KEYS.has(k))
        .map(([k, v]) => [k, normalise(v)]),
    );
  }
  return value;
}

/** An answer as the comparison sees it: the status and the body without its self-changing fields. */
function comparable(status: number, contentType: string, body: string): string {
  if (contentType.startsWith('text/event-stream')) {
    const events = parseSse(body).map((e) => {
      let data: unknown = e.data;
      try {
        data = normalise(JSON.parse(e.data));
      } catch {
        // not JSON: compared as it is
      }
      return { event: e.event, id: e.id, data };
    });
    return JSON.stringify({ status, events });
  }
  try {
    return JSON.stringify({ status, body: normalise(JSON.parse(body)) });
  } catch {
    return JSON.stringify({ status, body });
  }
}

describe('moving a secret point inside its ~500 m cell changes no answer anyone else receives', () => {
  let t: TestApp;
  const ids = {} as Record<Name, string>;
  let groupId: string;
  const cats = { a: '', b: '', home: '', juniper: '', kit: '' };
  const posts = { on: '', off: '', other: '', sighting: '', nearHome: '', kitFar: '', offNearHome: '' };
  let alertId: string;
  let viewers: (WalkViewer & { name: 'stranger' | 'member' | 'demo' | 'signed out' })[];
  const clusterIds = new Map<string, string[]>();
  let ownerHeaders: Record<string, string> = {};

  /** Where each secret lives: the shown post, the switched-off one, the last-seen place, the cat's home. */
  const cells = {
    on: cellAt(0, 0),
    off: cellAt(0, 6),
    lastSeen: cellAt(-6, 0),
    home: cellAt(8, 8),
    nearHome: cellAt(8, -8),
    offNearHome: cellAt(-8, 8),
  };
  /** Up the middle of a cell from its south edge to its north edge: across 200 m of a point just south. */
  const stepsUp = (cell: LocationCell, n = 7) =>
    Array.from({ length: n }, (_, i) => inCell(cell, 0.03 + (0.94 * i) / (n - 1), 0.45 + 0.1 * (i % 2)));
  /** The same down the cell: towards a sighting just north of it. */
  const homeSteps = stepsUp(cellAt(8, 8)).reverse();
  /** Points an attacker asks about: the cell's centre and corners, and 100-550 m beyond each side. */
  function probes(cell: LocationCell): string[] {
    const out: Point[] = [];
    for (const n of [-0.6, 0.5, 1.6]) for (const e of [-0.6, 0.5, 1.6]) out.push(inCell(cell, n, e));
    for (const [n, e] of [
      [0, 0],
      [1, 1],
      [0, 1],
      [1, 0],
      [-0.2, 0.5],
      [1.2, 0.5],
      [0.5, -0.2],
      [0.5, 1.2],
    ])
      out.push(inCell(cell, n!, e!));
    // About 2 km out (the missing list's reach), where its edge cuts through the cell.
    for (const [n, e] of [
      [-3.5, 0.5],
      [-3.9, 0.5],
      [4.5, 0.5],
      [4.9, 0.5],
      [0.5, -3.6],
      [0.5, 4.6],
    ])
      out.push(inCell(cell, n!, e!));
    return out.map((p) => `near=${p.latitude},${p.longitude}`);
  }
  /** Viewports over a cell, at the zooms where cells and clusters part. */
  const viewports = (cell: LocationCell) =>
    [11, 14, 17, 18, 18].map((zoom, i) => {
      const halfLon = (360 * 1280) / (256 * 2 ** zoom) / 2;
      const halfLat = halfLon * 0.6;
      // The closest ones off-centre, so that their edges cut through the cell.
      const lat = cell.centre.latitude + (i > 3 ? 0.001 : 0);
      const lon = cell.centre.longitude + (i > 3 ? 0.0015 : 0);
      return new URLSearchParams({
        west: String(lon - halfLon),
        south: String(lat - halfLat),
        east: String(lon + halfLon),
        north: String(lat + halfLat),
        zoom: String(zoom),
      }).toString();
    });
  const VIEWPORTS = Object.values(cells).flatMap(viewports);

  const headers = (name: Name) => authHeader(t.app, ids[name]);
  async function ok(name: Name, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) {
    const res = await t.app.inject({ method, url, headers: await headers(name), payload });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res;
  }

  beforeAll(async () => {
    t = await buildTestApp(NO_RATE_LIMITS);
    for (const name of ['owner', 'member', 'stranger', 'other', 'sighter'] as const)
      ids[name] = (await createUser(t.db)).id;

    // The owner's group, with the member and (as the seed does) the demo account in it.
    const created = await ok('owner', 'POST', '/api/groups/createGroup', { submitData: 'Probe' });
    const group = (created.json() as CreateGroupResponse).group;
    groupId = group._id;
    await ok('member', 'POST', '/api/groups/joinGroup', { submitData: group.code });
    await ok('owner', 'POST', `/api/groups/${groupId}/requests/${ids.member}/accept`);
    await t.db.insert(groupMembers).values({ groupId, userId: DEMO_USER_ID, role: 'member' });

    // Cat A (the owner's, community): seen by the owner at the shown and the switched-off secrets.
    // Cat B (another neighbour's): seen in the same cell as the shown secret, so that any order
    // between the two cats measured from the exact spot would change as it moves.
    // Cat H (the owner's household cat): seen by a neighbour just north of the cell of its home.
    const made = async (who: Name, name: string, living: string) => {
      const res = await ok(who, 'POST', '/api/cats', { name, living });
      return (res.json() as { cat: { _id: string } }).cat._id;
    };
    cats.a = await made('owner', 'Ash', 'community');
    cats.b = await made('other', 'Bramble', 'community');
    cats.home = await made('owner', 'Hazel', 'household');
    let seed = 0;
    const upload = async (who: Name, at: Point, show: boolean, catId: string, share: boolean) => {
      // A neighbour's picture of the owner's household cat is linked as the caretaker's acceptance of
      // 'This is …' would link it (issue 46: only caretakers link a post to a household cat).
      const byNeighbour = who === 'sighter' || (who === 'other' && catId === cats.kit);
      const fields: Record<string, string> = {
        comment: 'On the wall',
        showLocation: String(show),
        latitude: String(at.latitude),
        longitude: String(at.longitude),
        ...(byNeighbour ? {} : { catId }),
      };
      if (share) fields.groupIds = JSON.stringify([groupId]);
      const id = (await uploadPost(t.app, await headers(who), await smallJpeg((seed += 1)), fields))._id;
      if (byNeighbour) await t.db.update(postsTable).set({ catId }).where(eq(postsTable.id, id));
      return id;
    };
    // The switched-off one first: the shown one is cat A's newest sighting, which places her.
    posts.off = await upload('owner', stepsInside(cells.off)[0]!, false, cats.a, true);
    posts.on = await upload('owner', stepsInside(cells.on)[0]!, true, cats.a, true);
    posts.other = await upload('other', inCell(cells.on, 0.5, 0.5), true, cats.b, false);
    posts.sighting = await upload('sighter', inCell(cells.home, 1.2, 0.5), true, cats.home, false);
    await ok('owner', 'PATCH', `/api/cats/${cats.home}`, { home: homeSteps[0] });

    // More cats seen around the shown secret, in its cell and the cells about it, so that the near list
    // runs to a second page and cat A's rank among them is what an order by its exact spot would move.
    for (let i = 0; i < 26; i += 1) {
      const cat = await createCat(t.db, ids.other, { name: `Near ${i}`, living: 'community' });
      const spot = inCell(cells.on, -1.5 + (i % 6) * 0.55 + 0.1, -1.5 + Math.floor(i / 6) * 0.8 + 0.05);
      await createPost(t.db, ids.other, { catId: cat.id, ...spot, showLocation: true });
    }

    // Two household cats of the owner's whose homes lie just south of a neighbour's sightings: one
    // shown (Juniper's), one switched off and newer than a shown one far away (Kit's). Moved about
    // inside their cells, the sightings cross 200 m of the homes.
    cats.juniper = await made('owner', 'Juniper', 'household');
    cats.kit = await made('owner', 'Kit', 'household');
    await ok('owner', 'PATCH', `/api/cats/${cats.juniper}`, { home: inCell(cells.nearHome, -0.1, 0.5) });
    await ok('owner', 'PATCH', `/api/cats/${cats.kit}`, { home: inCell(cells.offNearHome, -0.1, 0.5) });
    posts.nearHome = await upload('sighter', stepsUp(cells.nearHome)[0]!, true, cats.juniper, false);
    posts.kitFar = await upload('other', inCell(cellAt(-12, 12), 0.5, 0.5), true, cats.kit, false);
    posts.offNearHome = await upload('sighter', stepsUp(cells.offNearHome)[0]!, false, cats.kit, false);

    // Cat A goes missing, last seen in its own cell; followers and a neighbour's home area near it.
    for (const who of ['member', 'stranger'] as const) await ok(who, 'PUT', `/api/cats/${cats.a}/follow`);
    await ok('stranger', 'PUT', '/api/profile/settings/home-area', {
      homeArea: inCell(cells.lastSeen, 3.5, 0.5),
    });
    const raised = await ok('owner', 'POST', `/api/cats/${cats.a}/missing`, {
      lastSeenAt: new Date(Date.now() - 3_600_000).toISOString(),
      place: stepsInside(cells.lastSeen)[0],
      note: 'Grey, shy.',
      contact: 'report',
    });
    alertId = (raised.json() as { alert: { _id: string } }).alert._id;
    // A second missing cat last seen in the same cell: an order of the two by the exact places
    // would change as the first one moves.
    const otherCat = await made('other', 'Pepper', 'community');
    await ok('other', 'POST', `/api/cats/${otherCat}/missing`, {
      lastSeenAt: new Date(Date.now() - 3_600_000).toISOString(),
      place: inCell(cells.lastSeen, 0.5, 0.5),
      note: '',
      contact: 'report',
    });

    viewers = [
      ...(['stranger', 'member'] as const).map((name) => ({ name, userId: ids[name] })),
      { name: 'demo' as const, userId: DEMO_USER_ID },
      // Never a user id the app knows: routes that answer without a session answer it.
      { name: 'signed out' as const, userId: '00000000-0000-4000-8000-000000000000' },
    ].map((v) => ({ ...v, isDemo: v.name === 'demo', headers: {}, blockedWith: new Set<string>() }));
    for (const v of viewers) if (v.name !== 'signed out') v.headers = await authHeader(t.app, v.userId);
    ownerHeaders = await authHeader(t.app, ids.owner);
    for (const viewer of [...viewers, owner()]) {
      const found = new Set<string>();
      for (const q of VIEWPORTS) {
        const res = await t.app.inject({ method: 'GET', url: `/api/explore?${q}`, headers: viewer.headers });
        if (res.statusCode === 200)
          for (const c of (res.json() as ExploreResponse).clusters ?? []) found.add(c.id);
      }
      clusterIds.set(viewer.userId, found.size > 0 ? [...found] : ['no-such-cluster']);
    }
  }, 120_000);
  afterAll(async () => t?.close());

  /** Every GET route as each of these viewers, with values around the secret's cell: url -> answer. */
  async function walk(who: readonly WalkViewer[], around: LocationCell): Promise<Map<string, string>> {
    const authors = [ids.owner, ids.other, ids.sighter];
    // Around the moving secret; missing cats are also asked about where the neighbours' homes are.
    const near = [...probes(around), ...probes(cells.lastSeen).slice(0, 9)];
    const answers = await walkGetRoutes(
      t.app,
      who,
      (viewer) => ({
        params: {
          postId: Object.values(posts),
          groupId: [groupId],
          userid: authors,
          userId: authors,
          page: ['1'],
          clusterId: clusterIds.get(viewer.userId)!,
          catId: Object.values(cats),
          // The moderators' picture route: none of the probe's viewers is a moderator, so it refuses
          // them alike whatever report it names (report-pictures.test.ts walks it for moderators).
          reportId: ['00000000-0000-4000-8000-000000000046'],
        },
        queries: {
          user: authors.map((a) => `user=${a}&pagenum=1`),
          ids: [`ids=${Object.values(posts).join(',')}`],
          west: viewports(around),
          lastEventId: ['lastEventId=0'],
          q: ['q=a'],
          near,
          caredFor: ['caredFor=true'],
        },
        ticket: walkTicket(t.app, viewer.userId),
      }),
      [],
    );
    const out = new Map(
      answers.map((a) => [
        `${a.viewer.name} GET ${a.url.replace(/([?&])ticket=[^&]*/, '$1ticket=…')}`,
        comparable(a.res.statusCode, String(a.res.headers['content-type'] ?? ''), a.res.body),
      ]),
    );
    // The pages after the first, where a list has them: a cursor carries the order's key.
    for (const a of answers) {
      let body = a.res.body;
      for (let page = 2; page <= 3; page += 1) {
        let cursor: unknown;
        try {
          cursor = (JSON.parse(body) as { info?: { nextCursor?: unknown } }).info?.nextCursor;
        } catch {
          break;
        }
        if (typeof cursor !== 'string') break;
        const url = `${a.url}${a.url.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;
        const res = await t.app.inject({ method: 'GET', url, headers: a.viewer.headers });
        out.set(`${a.viewer.name} GET ${a.url} page ${page}`, comparable(res.statusCode, '', res.body));
        body = res.body;
      }
    }
    return out;
  }

  /**
   * Moves the secret to each step, walks the routes as these viewers after each, and returns every
   * answer that differs from the first step's (url and the two answers, shortened).
   */
  async function probe(
    move: (to: Point) => Promise<void>,
    steps: readonly Point[],
    who: readonly WalkViewer[],
  ): Promise<string[]> {
    const around = locationCell(steps[0]!.latitude, steps[0]!.longitude);
    for (const step of steps)
      expect(locationCell(step.latitude, step.longitude).centre, 'a step left the cell').toEqual(
        around.centre,
      );
    await move(steps[0]!);
    const first = await walk(who, around);
    expect(first.size).toBeGreaterThan(100);
    const changed: string[] = [];
    for (const step of steps.slice(1)) {
      await move(step);
      const now = await walk(who, around);
      for (const [url, answer] of first) {
        const again = now.get(url);
        if (again !== answer)
          changed.push(
            `${url} at ${step.latitude},${step.longitude}\n  was ${answer.slice(0, 400)}\n  now ${String(again).slice(0, 400)}`,
          );
      }
    }
    return changed;
  }

  /** The cats' caretaker, as a viewer of other people's points. */
  const owner = (): WalkViewer => ({
    name: 'owner (caretaker)',
    userId: ids.owner,
    isDemo: false,
    headers: ownerHeaders,
    blockedWith: new Set(),
  });
  const except = (...names: string[]) => viewers.filter((v) => !names.includes(v.name));

  it('the shown post: strangers, the demo account (a member) and signed-out visitors see nothing move', async () => {
    // The member sees it exactly (it is shared with their group), so the member is left out here.
    const changed = await probe(
      async (to) => void (await ok('owner', 'PATCH', `/api/posts/${posts.on}`, to)),
      stepsInside(cells.on),
      except('member'),
    );
    expect(changed.slice(0, 4), `${changed.length} answers changed`).toEqual([]);
  }, 600_000);

  it('the switched-off post: nobody but its author sees anything move, its group included', async () => {
    const changed = await probe(
      async (to) => void (await ok('owner', 'PATCH', `/api/posts/${posts.off}`, to)),
      stepsInside(cells.off),
      viewers,
    );
    expect(changed.slice(0, 4), `${changed.length} answers changed`).toEqual([]);
  }, 600_000);

  it("the missing cat's last-seen place: nobody but its caretakers sees anything move", async () => {
    // The place as if the alert had been raised there: the cell stored beside it stays the same.
    const area = await t.db.select().from(missingAlerts).where(eq(missingAlerts.id, alertId));
    const changed = await probe(
      async (to) => {
        await t.db.execute(
          sql`update missing_alerts set latitude = ${to.latitude}, longitude = ${to.longitude} where id = ${alertId}`,
        );
        const [row] = await t.db.select().from(missingAlerts).where(eq(missingAlerts.id, alertId));
        expect([row!.areaLatitude, row!.areaLongitude]).toEqual([
          area[0]!.areaLatitude,
          area[0]!.areaLongitude,
        ]);
      },
      stepsInside(cells.lastSeen),
      viewers,
    );
    expect(changed.slice(0, 4), `${changed.length} answers changed`).toEqual([]);
  }, 600_000);

  /** The neighbour's entries about missing cats nearby, and their unread count. */
  async function toldNearby(neighbour: string): Promise<number> {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: await authHeader(t.app, neighbour),
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as NotificationsResponse).notifications.filter((n) => n.type === 'cat_missing_nearby')
      .length;
  }

  /** A new caretaker raises a new cat's alert at the place (a new one each time: no limit interferes). */
  async function raiseAt(place: Point): Promise<void> {
    const raiser = await createUser(t.db);
    const cat = await createCat(t.db, raiser.id, { living: 'community' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/cats/${cat.id}/missing`,
      headers: await authHeader(t.app, raiser.id),
      payload: { lastSeenAt: new Date().toISOString(), place, note: '', contact: 'report' },
    });
    expect(res.statusCode, res.body).toBe(201);
  }

  it('an alert raised anywhere in one cell tells a neighbour about 2 km away the same, yes or no', async () => {
    const neighbour = await createUser(t.db);
    const home = inCell(cells.lastSeen, 4.5, 0.5);
    const set = await t.app.inject({
      method: 'PUT',
      url: '/api/profile/settings/home-area',
      headers: await authHeader(t.app, neighbour.id),
      payload: { homeArea: home },
    });
    expect(set.statusCode, set.body).toBe(200);
    const steps = stepsInside(cells.lastSeen, 9);
    // A real probe: measured from the exact place, the steps lie on both sides of the 2 km edge.
    const homeCell = locationCell(home.latitude, home.longitude).centre;
    const exact = steps.map((p) =>
      metres({ lat: homeCell.latitude, lon: homeCell.longitude }, { lat: p.latitude, lon: p.longitude }),
    );
    expect(Math.min(...exact)).toBeLessThan(MISSING_NEAR_METRES);
    expect(Math.max(...exact)).toBeGreaterThan(MISSING_NEAR_METRES);
    const told: number[] = [];
    for (const place of steps) {
      const before = await toldNearby(neighbour.id);
      await raiseAt(place);
      told.push((await toldNearby(neighbour.id)) - before);
    }
    expect(new Set(told).size, `told per step: ${told.join(', ')}`).toBe(1);
  }, 120_000);

  it("a neighbour's home area moved inside its cell is told of the same alerts", async () => {
    const neighbour = await createUser(t.db);
    const place = inCell(cells.lastSeen, 0.5, 0.5);
    const homeCell = cellAt(-2, 0);
    const told: number[] = [];
    for (const home of stepsInside(homeCell, 9)) {
      const set = await t.app.inject({
        method: 'PUT',
        url: '/api/profile/settings/home-area',
        headers: await authHeader(t.app, neighbour.id),
        payload: { homeArea: home },
      });
      expect(set.statusCode, set.body).toBe(200);
      const before = await toldNearby(neighbour.id);
      await raiseAt(place);
      told.push((await toldNearby(neighbour.id)) - before);
    }
    expect(new Set(told).size, `told per step: ${told.join(', ')}`).toBe(1);
  }, 120_000);

  // Near-home is decided on cells (issue 46 point 1, decision 022): when it was "within 200 m of the
  // home" on exact points, the neighbour's sighting just north of the home's cell dropped in and out of
  // the cat's answers as the home moved about inside it (1,230 answers changed).
  it("a household cat's home: nobody but its caretakers sees anything move", async () => {
    const changed = await probe(
      async (to) => void (await ok('owner', 'PATCH', `/api/cats/${cats.home}`, { home: to })),
      homeSteps,
      viewers,
    );
    expect(changed.slice(0, 4), `${changed.length} answers changed`).toEqual([]);
  }, 600_000);

  // The caretaker as the attacker (issue 46 point 1). A neighbour's sighting of the household cat moves
  // about inside its cell, across 200 m of the home: on exact points the cat's answers showed it or
  // left it out, so the caretaker (and everyone else) learnt the exact spot (825 answers changed).
  it("a neighbour's sighting by a household cat's home: not even its caretakers see it move", async () => {
    const changed = await probe(
      async (to) => void (await ok('sighter', 'PATCH', `/api/posts/${posts.nearHome}`, to)),
      stepsUp(cells.nearHome),
      [...viewers, owner()],
    );
    expect(changed.slice(0, 4), `${changed.length} answers changed`).toEqual([]);
  }, 600_000);

  // A switched-off sighting takes part in no near-home decision (issue 46 point 1). On exact points,
  // inside 200 m of the home it was passed over and the cat placed at its older shown sighting; beyond,
  // it was the cat's newest and the cat had no place (1,125 answers changed).
  it("a neighbour's switched-off sighting by a household cat's home: nobody sees it move", async () => {
    const changed = await probe(
      async (to) => void (await ok('sighter', 'PATCH', `/api/posts/${posts.offNearHome}`, to)),
      stepsUp(cells.offNearHome),
      [...viewers, owner()],
    );
    expect(changed.slice(0, 4), `${changed.length} answers changed`).toEqual([]);
  }, 600_000);
});
