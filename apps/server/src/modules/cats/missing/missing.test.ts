import { randomUUID } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANONYMISED_USERNAME,
  CAT_MESSAGES,
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  EXPLORE_MESSAGES,
  MISSING_ALERT_DAYS,
  MISSING_MAP_LIMIT,
  MISSING_MESSAGES,
  MISSING_NEAR_METRES,
  type MissingAlert,
  type MissingMapResponse,
  type MissingNearResponse,
  type MissingReport,
  type MyProfileResponse,
  type Post,
  type PostCatSuggestion,
  tooManyAlertsTodayMessage,
} from '@cats/contracts';
import type { Database } from '../../../db/client.ts';
import { rowsOf } from '../../../db/raw-results.ts';
import { missingAlerts, missingReports } from '../../../db/schema/index.ts';
import { approximateLocation, locationCell } from '../../location/location-grid.ts';
import { metresBetween } from '../../visibility/cat-place.ts';
import { shownAlertsInBox, shownAlertsNear } from './missing.repository.ts';
import {
  liftEndedSuspensions,
  liftSuspension,
  suspendUser,
} from '../../suspensions/suspensions.repository.ts';
import { buildTestApp, type TestApp } from '../../../../test/build-app.ts';
import { captureSql } from '../../../../test/capture-sql.ts';
import {
  authHeader,
  createCat,
  createPost,
  createUser,
  type CreatedUser,
} from '../../../../test/factories.ts';
import { NO_RATE_LIMITS, smallJpeg, uploadPost } from '../../../../test/hostile/support/world.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Point = { latitude: number; longitude: number };
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/**
 * A point `northKm` north and `eastKm` east of a spot in Málaga, at a fixed offset inside its ~500 m cell
 * (so that the exact place and the cell's centre always differ, by ~200 m).
 */
function spot(northKm: number, eastKm = 0): Point {
  const cell = locationCell(36.7213 + northKm / 111.195, -4.4214 + eastKm / (111.195 * Math.cos(0.641)));
  return {
    latitude: Number((cell.south + 0.000_512_3).toFixed(7)),
    longitude: Number((cell.west + 0.000_713_9).toFixed(7)),
  };
}

/** Issue 26, "Missing cats": raising, renewing and ending an alert, the near list, and 'I saw this cat'. */
describe('missing cats', () => {
  let t: TestApp;
  let carer: CreatedUser; // cares for the cats below
  let helper: CreatedUser; // a second caretaker of Luna
  let neighbour: CreatedUser; // home area ~1 km from where Luna was last seen
  let far: CreatedUser; // home area ~6 km away
  let stranger: CreatedUser; // no home area, no posts
  let blocked: CreatedUser; // the carer blocked them
  const demo = { id: DEMO_USER_ID };
  const lastSeen = spot(0);

  async function api(user: { id: string } | null, method: Method, url: string, payload?: unknown) {
    return t.app.inject({
      method,
      url,
      headers: user ? await authHeader(t.app, user.id) : {},
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  }
  async function ok<T>(user: { id: string }, method: Method, url: string, payload?: unknown): Promise<T> {
    const res = await api(user, method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json() as T;
  }
  const markMissing = (user: { id: string }, catId: string, overrides: Record<string, unknown> = {}) =>
    api(user, 'POST', `/api/cats/${catId}/missing`, {
      lastSeenAt: ago(2 * HOUR),
      place: lastSeen,
      note: '  Grey tabby with a red collar. Very shy.  ',
      contact: 'keep_distance',
      ...overrides,
    });
  const alertOf = async (viewer: { id: string }, catId: string) =>
    (await ok<{ alert: MissingAlert | null }>(viewer, 'GET', `/api/cats/${catId}/missing`)).alert;
  const near = (viewer: { id: string }, at?: Point) =>
    ok<MissingNearResponse>(
      viewer,
      'GET',
      at ? `/api/cats/missing?near=${at.latitude},${at.longitude}` : '/api/cats/missing',
    );
  const setHomeArea = (user: { id: string }, homeArea: Point | null) =>
    ok<MyProfileResponse>(user, 'PUT', '/api/profile/settings/home-area', { homeArea });
  const alertRows = async () => (await t.db.select({ n: count() }).from(missingAlerts))[0]!.n;
  const reportRows = async () => (await t.db.select({ n: count() }).from(missingReports))[0]!.n;
  /** A refusal: the status, a {message} (this one, when given). */
  const refused = (res: { statusCode: number; body: string }, status: number, message?: string) => {
    expect(res.statusCode, res.body).toBe(status);
    const body = JSON.parse(res.body) as { message: unknown };
    expect(typeof body.message, res.body).toBe('string');
    if (message !== undefined) expect(body.message).toBe(message);
  };

  beforeAll(async () => {
    t = await buildTestApp(NO_RATE_LIMITS);
    [carer, helper, neighbour, far, stranger, blocked] = (await Promise.all(
      Array.from({ length: 6 }, () => createUser(t.db)),
    )) as [CreatedUser, CreatedUser, CreatedUser, CreatedUser, CreatedUser, CreatedUser];
    await setHomeArea(neighbour, spot(1, 0.3));
    await setHomeArea(far, spot(6));
    await setHomeArea(blocked, spot(0.5));
    await ok(carer, 'PUT', '/api/profile/blockUser/', { blockedUser: { _id: blocked.id } });
  });
  afterAll(async () => t?.close());

  describe('the home area in Settings', () => {
    it('keeps the centre of the chosen point’s ~500 m cell, never the point, and forgets it on null', async () => {
      const user = await createUser(t.db);
      const chosen = spot(3, 2);
      const profile = await setHomeArea(user, chosen);
      expect(profile.homeArea).toEqual(approximateLocation(chosen.latitude, chosen.longitude));
      expect(profile.homeArea).not.toEqual(chosen);
      const mine = await ok<MyProfileResponse>(user, 'GET', '/api/profile/getMyProfile');
      expect(mine.homeArea).toEqual(profile.homeArea);
      expect((await setHomeArea(user, null)).homeArea).toBeNull();
    });

    it('refuses the demo account, coordinates out of range and half a point, changing nothing', async () => {
      refused(
        await api(demo, 'PUT', '/api/profile/settings/home-area', { homeArea: spot(0) }),
        403,
        DEMO_DISABLED_MESSAGE,
      );
      for (const homeArea of [{ latitude: 91, longitude: 0 }, { latitude: 36 }, 'Málaga']) {
        refused(await api(neighbour, 'PUT', '/api/profile/settings/home-area', { homeArea }), 400);
      }
      refused(await api(null, 'PUT', '/api/profile/settings/home-area', { homeArea: null }), 401);
      const mine = await ok<MyProfileResponse>(neighbour, 'GET', '/api/profile/getMyProfile');
      expect(mine.homeArea).toEqual(approximateLocation(spot(1, 0.3).latitude, spot(1, 0.3).longitude));
    });
  });

  describe('raising an alert', () => {
    it('lets a caretaker mark the cat missing; caretakers see the exact place, everyone else its cell', async () => {
      const luna = await createCat(t.db, carer.id, { name: 'Luna', caretakers: [helper.id] });
      const res = await markMissing(carer, luna.id);
      expect(res.statusCode, res.body).toBe(201);
      const { message, alert } = res.json() as { message: string; alert: MissingAlert };
      expect(message).toBe(MISSING_MESSAGES.raised);
      expect(alert).toMatchObject({
        cat: { _id: luna.id, name: 'Luna' },
        place: { ...lastSeen, locationPrecision: 'exact' },
        note: 'Grey tabby with a red collar. Very shy.',
        contact: 'keep_distance',
        raisedBy: { _id: carer.id, username: carer.username },
        viewer: { isCaretaker: true, canReport: true },
      });
      const runs = Date.parse(alert.expiresAt) - Date.now();
      expect(runs).toBeGreaterThan(MISSING_ALERT_DAYS * DAY - 60_000);
      expect(runs).toBeLessThanOrEqual(MISSING_ALERT_DAYS * DAY);
      expect(Math.abs(Date.parse(alert.lastSeenAt) - (Date.now() - 2 * HOUR))).toBeLessThan(60_000);

      const cell = approximateLocation(lastSeen.latitude, lastSeen.longitude);
      expect((await alertOf(helper, luna.id))?.place).toEqual({ ...lastSeen, locationPrecision: 'exact' });
      for (const viewer of [neighbour, far, stranger, demo]) {
        const seen = await alertOf(viewer, luna.id);
        expect(seen?.place, viewer.id).toEqual({ ...cell, locationPrecision: 'approximate' });
        expect(JSON.stringify(seen)).not.toContain(String(lastSeen.latitude));
        expect(seen?.viewer).toEqual({ isCaretaker: false, canReport: viewer !== demo });
      }
      // The carer blocked this user: no alert for them (a block leaves no trace), the cat itself stays.
      expect(await alertOf(blocked, luna.id)).toBeNull();
      expect((await api(blocked, 'GET', `/api/cats/${luna.id}`)).statusCode).toBe(200);

      const [row] = await t.db.select().from(missingAlerts).where(eq(missingAlerts.catId, luna.id));
      expect([row!.areaLatitude, row!.areaLongitude]).toEqual([cell.latitude, cell.longitude]);
      expect(row!.raisedBy).toBe(carer.id);
    });

    it('refuses anyone but the caretakers, the demo account, unknown cats and bad input, changing nothing', async () => {
      const momo = await createCat(t.db, carer.id, { name: 'Momo' });
      const before = await alertRows();
      const cases: [{ id: string } | null, string, Record<string, unknown>, number, string | undefined][] = [
        [neighbour, momo.id, {}, 403, MISSING_MESSAGES.notCaretaker],
        [demo, momo.id, {}, 403, DEMO_DISABLED_MESSAGE],
        [null, momo.id, {}, 401, undefined],
        [carer, randomUUID(), {}, 404, CAT_MESSAGES.notFound],
        [carer, 'not-a-cat', {}, 404, CAT_MESSAGES.notFound],
        [carer, momo.id, { lastSeenAt: ago(-2 * HOUR) }, 400, MISSING_MESSAGES.lastSeenInFuture],
        [carer, momo.id, { lastSeenAt: ago(31 * DAY) }, 400, MISSING_MESSAGES.lastSeenTooOld],
        [carer, momo.id, { lastSeenAt: 'last Tuesday' }, 400, MISSING_MESSAGES.lastSeenInvalid],
        [carer, momo.id, { place: undefined }, 400, MISSING_MESSAGES.placeRequired],
        [carer, momo.id, { place: { latitude: 36.7, longitude: 181 } }, 400, undefined],
        [carer, momo.id, { place: { latitude: 36.7 } }, 400, undefined],
        [carer, momo.id, { contact: 'phone' }, 400, MISSING_MESSAGES.contactInvalid],
        [carer, momo.id, { note: 'x'.repeat(501) }, 400, MISSING_MESSAGES.noteTooLong],
        [carer, momo.id, { note: 'bad\u0000' }, 400, MISSING_MESSAGES.noteInvalid],
      ];
      for (const [who, catId, overrides, status, message] of cases) {
        const res = who
          ? await markMissing(who, catId, overrides)
          : await api(null, 'POST', `/api/cats/${catId}/missing`, {});
        refused(res, status, message);
      }
      expect(await alertRows()).toBe(before);
      expect(await alertOf(carer, momo.id)).toBeNull();
    });

    it('keeps one alert per cat: a second is a 409, also when two caretakers raise it at once', async () => {
      const pip = await createCat(t.db, carer.id, { caretakers: [helper.id] });
      const both = await Promise.all([markMissing(carer, pip.id), markMissing(helper, pip.id)]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      refused(
        both.find((r) => r.statusCode === 409)!,
        409,
        MISSING_MESSAGES.alreadyMissing,
      );
      refused(await markMissing(carer, pip.id), 409, MISSING_MESSAGES.alreadyMissing);
      const rows = await t.db.select().from(missingAlerts).where(eq(missingAlerts.catId, pip.id));
      expect(rows).toHaveLength(1);
    });

    it('allows an account three open alerts: a fourth is refused, also when all four are asked at once', async () => {
      const owner = await createUser(t.db);
      const four = await Promise.all(Array.from({ length: 4 }, () => createCat(t.db, owner.id)));
      const answers = await Promise.all(four.map((cat) => markMissing(owner, cat.id)));
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 409]);
      refused(
        answers.find((r) => r.statusCode === 409)!,
        409,
        MISSING_MESSAGES.tooManyAlerts,
      );
      const [row] = await t.db
        .select({ n: count() })
        .from(missingAlerts)
        .where(eq(missingAlerts.raisedBy, owner.id));
      expect(row!.n).toBe(3);

      // Once one is found, the fourth cat can be marked missing.
      const found = four.find((_cat, i) => answers[i]!.statusCode === 201)!;
      const waiting = four.find((_cat, i) => answers[i]!.statusCode === 409)!;
      expect((await api(owner, 'DELETE', `/api/cats/${found.id}/missing`)).statusCode).toBe(200);
      expect((await markMissing(owner, waiting.id)).statusCode).toBe(201);
    });

    it('allows an account five alerts a day, ended ones included: a sixth is a 429 with a message, in Spanish too', async () => {
      expect(t.config.MISSING_ALERTS_PER_DAY).toBe(5);
      const owner = await createUser(t.db);
      const cat = await createCat(t.db, owner.id);
      const other = await createCat(t.db, owner.id);
      // Raised and ended over and over at a chosen place: each raise tells the neighbours.
      for (let i = 0; i < 5; i += 1) {
        expect((await markMissing(owner, cat.id)).statusCode).toBe(201);
        expect((await api(owner, 'DELETE', `/api/cats/${cat.id}/missing`)).statusCode).toBe(200);
      }
      const before = await alertRows();
      const sixth = await markMissing(owner, other.id);
      refused(sixth, 429, tooManyAlertsTodayMessage(5));
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(23 * 60 * 60);
      const spanish = await t.app.inject({
        method: 'POST',
        url: `/api/cats/${cat.id}/missing`,
        headers: { ...(await authHeader(t.app, owner.id)), 'accept-language': 'es' },
        payload: { lastSeenAt: ago(HOUR), place: lastSeen, contact: 'report' },
      });
      refused(
        spanish,
        429,
        'Has activado 5 avisos de gato perdido en las últimas 24 horas. Espera antes de activar otro.',
      );
      expect(await alertRows()).toBe(before);
      expect(await alertOf(neighbour, other.id)).toBeNull();
      // Another account's allowance is their own.
      const someoneElse = await createUser(t.db);
      const theirs = await createCat(t.db, someoneElse.id);
      expect((await markMissing(someoneElse, theirs.id)).statusCode).toBe(201);

      // A day after the first, one more.
      await t.db.execute(
        sql`update missing_alerts set created_at = created_at - interval '25 hours', expires_at = expires_at - interval '25 hours'
          where raised_by = ${owner.id} and id = (select id from missing_alerts where raised_by = ${owner.id} order by created_at limit 1)`,
      );
      expect((await markMissing(owner, other.id)).statusCode).toBe(201);
      refused(await markMissing(owner, cat.id), 429, tooManyAlertsTodayMessage(5));
    });
  });

  describe('expiry and renewal', () => {
    const lapse = (catId: string) =>
      t.db.execute(sql`update missing_alerts set created_at = now() - interval '31 days',
        expires_at = now() - interval '1 day' where cat_id = ${catId} and ended_at is null`);

    it('stops showing an alert 30 days on unless renewed; renewing runs it 30 days from now', async () => {
      const keeper = await createUser(t.db);
      const nube = await createCat(t.db, keeper.id, { name: 'Nube' });
      expect((await markMissing(keeper, nube.id)).statusCode).toBe(201);
      await lapse(nube.id);
      for (const viewer of [keeper, neighbour]) expect(await alertOf(viewer, nube.id)).toBeNull();
      expect((await near(neighbour)).alerts.map((a) => a.cat._id)).not.toContain(nube.id);

      refused(
        await api(neighbour, 'POST', `/api/cats/${nube.id}/missing/renew`),
        403,
        MISSING_MESSAGES.notCaretaker,
      );
      refused(await api(demo, 'POST', `/api/cats/${nube.id}/missing/renew`), 403, DEMO_DISABLED_MESSAGE);
      const renewed = await ok<{ message: string; alert: MissingAlert }>(
        keeper,
        'POST',
        `/api/cats/${nube.id}/missing/renew`,
      );
      expect(renewed.message).toBe(MISSING_MESSAGES.renewed);
      const runs = Date.parse(renewed.alert.expiresAt) - Date.now();
      expect(runs).toBeGreaterThan(MISSING_ALERT_DAYS * DAY - 60_000);
      expect((await near(neighbour)).alerts.map((a) => a.cat._id)).toContain(nube.id);
      // Renewed again at once: still 30 days from now, never more.
      const again = await ok<{ alert: MissingAlert }>(keeper, 'POST', `/api/cats/${nube.id}/missing/renew`);
      expect(Date.parse(again.alert.expiresAt) - Date.now()).toBeLessThanOrEqual(MISSING_ALERT_DAYS * DAY);
    });

    it('ends a lapsed alert when the cat is marked missing again, and renews no lapsed alert past the limit', async () => {
      const owner = await createUser(t.db);
      const [old, ...others] = await Promise.all(Array.from({ length: 4 }, () => createCat(t.db, owner.id)));
      expect((await markMissing(owner, old!.id)).statusCode).toBe(201);
      await lapse(old!.id);
      for (const cat of others) expect((await markMissing(owner, cat.id)).statusCode).toBe(201);
      // Three alerts are up: the lapsed one may not come back as a fourth.
      refused(
        await api(owner, 'POST', `/api/cats/${old!.id}/missing/renew`),
        409,
        MISSING_MESSAGES.tooManyAlerts,
      );
      expect(await alertOf(owner, old!.id)).toBeNull();

      await ok(owner, 'DELETE', `/api/cats/${others[0]!.id}/missing`);
      expect((await markMissing(owner, old!.id, { note: 'Again.' })).statusCode).toBe(201);
      const rows = await t.db.select().from(missingAlerts).where(eq(missingAlerts.catId, old!.id));
      expect(rows).toHaveLength(2);
      expect(rows.map((r) => [r.endReason, r.note])).toEqual(
        expect.arrayContaining([
          ['lapsed', 'Grey tabby with a red collar. Very shy.'],
          [null, 'Again.'],
        ]),
      );
    });

    it('renews nothing for a cat that is not missing', async () => {
      const cat = await createCat(t.db, carer.id);
      refused(
        await api(carer, 'POST', `/api/cats/${cat.id}/missing/renew`),
        404,
        MISSING_MESSAGES.notMissing,
      );
      refused(
        await api(carer, 'POST', `/api/cats/${randomUUID()}/missing/renew`),
        404,
        CAT_MESSAGES.notFound,
      );
    });
  });

  describe('the near list', () => {
    it('lists alerts within 2 km of the viewer’s home area, else of their newest located post, nearest first', async () => {
      const owner = await createUser(t.db);
      const closer = await createCat(t.db, owner.id, { name: 'Closer' });
      const further = await createCat(t.db, owner.id, { name: 'Further' });
      const farAway = await createCat(t.db, owner.id, { name: 'Far away' });
      const home = spot(20);
      expect((await markMissing(owner, further.id, { place: spot(21.2) })).statusCode).toBe(201);
      expect((await markMissing(owner, closer.id, { place: spot(20.5) })).statusCode).toBe(201);
      expect((await markMissing(owner, farAway.id, { place: spot(25) })).statusCode).toBe(201);

      const resident = await createUser(t.db);
      await setHomeArea(resident, home);
      const mine = await near(resident);
      expect(mine.area).toBe('home');
      expect(mine.alerts.map((a) => a.cat.name)).toEqual(['Closer', 'Further']);
      expect(mine.total).toBe(2);
      // The feed's banner asks for the nearest few and is told how many there are in all.
      const banner = await ok<MissingNearResponse>(resident, 'GET', '/api/cats/missing?limit=1');
      expect(banner.alerts.map((a) => a.cat.name)).toEqual(['Closer']);
      expect(banner).toMatchObject({ total: 2, area: 'home' });
      expect(mine.alerts[0]).toMatchObject({
        place: { locationPrecision: 'approximate' },
        viewer: { isCaretaker: false },
      });

      // No home area: the place of their newest located post.
      const poster = await createUser(t.db);
      await uploadPost(t.app, await authHeader(t.app, poster.id), await smallJpeg(7), {
        comment: 'Near the bakery',
        showLocation: 'false',
        latitude: String(spot(21.4).latitude),
        longitude: String(spot(21.4).longitude),
      });
      const theirs = await near(poster);
      expect(theirs.area).toBe('posts');
      expect(theirs.alerts.map((a) => a.cat.name)).toEqual(['Further', 'Closer']);

      // Neither: nothing, and the app can say why.
      expect(await near(stranger)).toEqual({ alerts: [], total: 0, area: null });
      const asked = await near(stranger, spot(25.3));
      expect(asked.area).toBe('near');
      expect(asked.alerts.map((a) => a.cat.name)).toEqual(['Far away']);
      // The caretaker sees their own cats' exact places in the list too.
      const own = await near(owner, home);
      expect(own.alerts.map((a) => [a.cat.name, a.place.locationPrecision])).toEqual([
        ['Closer', 'exact'],
        ['Further', 'exact'],
      ]);
    });

    it('goes by the last-seen cell, never the exact place, so moving near about tells no more than the cell', async () => {
      const owner = await createUser(t.db);
      const cat = await createCat(t.db, owner.id, { name: 'Edge' });
      const place = spot(40);
      expect((await markMissing(owner, cat.id, { place })).statusCode).toBe(201);
      const cell = approximateLocation(place.latitude, place.longitude);
      // Points due north of the cell's centre: 1,990 m from the centre (over 2,000 m from the exact
      // place, which lies south of it) finds it; 2,010 m does not.
      expect(place.latitude).toBeLessThan(cell.latitude);
      const north = (metres: number) => ({
        latitude: cell.latitude + metres / 111_195,
        longitude: cell.longitude,
      });
      expect(metresBetween(north(1990), place)).toBeGreaterThan(2000);
      expect((await near(stranger, north(1990))).alerts.map((a) => a.cat._id)).toEqual([cat.id]);
      expect((await near(stranger, north(2010))).alerts).toEqual([]);
    });

    it('leaves out alerts of someone the viewer shares a block with, expired and found ones', async () => {
      const shown = (await near(blocked, lastSeen)).alerts.map((a) => a.raisedBy?._id);
      expect(shown).not.toContain(carer.id);
      expect((await near(neighbour, lastSeen)).alerts.some((a) => a.raisedBy?._id === carer.id)).toBe(true);
    });

    it('refuses a bad near or limit with a message', async () => {
      for (const q of ['near=36.7', 'near=abc,def', 'near=91,0', 'near=36.7,-4.4,1']) {
        refused(await api(neighbour, 'GET', `/api/cats/missing?${q}`), 400, CAT_MESSAGES.nearInvalid);
      }
      for (const q of [
        'limit=0',
        'limit=21',
        'limit=2.5',
        'limit=-1',
        'limit=abc',
        'limit=',
        'limit=1&limit=2',
      ]) {
        refused(await api(neighbour, 'GET', `/api/cats/missing?${q}`), 400, MISSING_MESSAGES.limitInvalid);
      }
      refused(await api(null, 'GET', '/api/cats/missing'), 401);
    });

    it('shows the demo account the cells and the anonymised raiser, and lets it report nothing', async () => {
      const list = await near(demo, lastSeen);
      const luna = list.alerts.find((a) => a.cat.name === 'Luna')!;
      expect(luna.place.locationPrecision).toBe('approximate');
      expect(luna.raisedBy?.username).toBe(ANONYMISED_USERNAME);
      expect(luna.viewer).toEqual({ isCaretaker: false, canReport: false });
    });
  });

  describe("Explore's pins for the map's viewport", () => {
    type Box = { west: number; south: number; east: number; north: number; zoom?: number };
    const query = (b: Box) =>
      `west=${b.west}&south=${b.south}&east=${b.east}&north=${b.north}&zoom=${b.zoom ?? 12}`;
    const onMap = (viewer: { id: string }, b: Box) =>
      ok<MissingMapResponse>(viewer, 'GET', `/api/cats/missing/map?${query(b)}`);
    /** A box `km` around a point, in degrees (about a phone's screen at zoom 12 for 5 km). */
    const around = (p: Point, km: number): Box => ({
      west: p.longitude - km / 89,
      south: p.latitude - km / 111,
      east: p.longitude + km / 89,
      north: p.latitude + km / 111,
    });
    /** Open alerts written straight in, for counts no account may raise (3 each): raised by nobody. */
    async function rawAlerts(places: Point[], name: (i: number) => string) {
      const owner = await createUser(t.db);
      const ids: string[] = [];
      for (const [i, place] of places.entries()) {
        const cat = await createCat(t.db, owner.id, { name: name(i) });
        const area = approximateLocation(place.latitude, place.longitude);
        await t.db.insert(missingAlerts).values({
          catId: cat.id,
          raisedBy: null,
          lastSeenAt: new Date(),
          latitude: place.latitude,
          longitude: place.longitude,
          areaLatitude: area.latitude,
          areaLongitude: area.longitude,
          contact: 'report',
          expiresAt: new Date(Date.now() + DAY),
        });
        ids.push(cat.id);
      }
      return ids;
    }

    it('lists the alerts whose cell lies in the viewport, nearest its centre first, placed as the near list places them', async () => {
      const owner = await createUser(t.db);
      const middle = await createCat(t.db, owner.id, { name: 'Middle' });
      const edge = await createCat(t.db, owner.id, { name: 'Edge of the screen' });
      const outside = await createCat(t.db, owner.id, { name: 'Off the screen' });
      const centre = spot(80);
      expect((await markMissing(owner, edge.id, { place: spot(81.8, 1) })).statusCode).toBe(201);
      expect((await markMissing(owner, middle.id, { place: spot(80.3) })).statusCode).toBe(201);
      expect((await markMissing(owner, outside.id, { place: spot(86) })).statusCode).toBe(201);

      const seen = await onMap(stranger, around(centre, 2.5));
      expect(seen.truncated).toBe(false);
      expect(seen.alerts.map((a) => a.cat.name)).toEqual(['Middle', 'Edge of the screen']);
      const cell = approximateLocation(spot(80.3).latitude, spot(80.3).longitude);
      expect(seen.alerts[0]).toMatchObject({
        place: { ...cell, locationPrecision: 'approximate' },
        viewer: { isCaretaker: false, canReport: true },
      });
      // The same alert as the near list shows the viewer (nothing more, nothing less).
      const listed = (await near(stranger, centre)).alerts.find((a) => a.cat._id === middle.id);
      expect(seen.alerts[0]).toEqual(listed);
      // The caretaker is shown the exact places, the demo account the cells.
      const own = await onMap(owner, around(centre, 2.5));
      expect(own.alerts.map((a) => [a.cat.name, a.place.locationPrecision])).toEqual([
        ['Middle', 'exact'],
        ['Edge of the screen', 'exact'],
      ]);
      expect(own.alerts[0]!.place).toMatchObject(spot(80.3));
      const demoView = await onMap(demo, around(centre, 2.5));
      expect(demoView.alerts.map((a) => a.place)).toEqual(seen.alerts.map((a) => a.place));
      expect(demoView.alerts[0]!.viewer).toEqual({ isCaretaker: false, canReport: false });
      // Zoomed out, the third comes in; after 'Back home!' it is gone.
      expect(
        (await onMap(stranger, { ...around(centre, 10), zoom: 10 })).alerts.map((a) => a.cat.name),
      ).toEqual(['Middle', 'Edge of the screen', 'Off the screen']);
      expect((await api(owner, 'DELETE', `/api/cats/${outside.id}/missing`)).statusCode).toBe(200);
      expect((await onMap(stranger, { ...around(centre, 10), zoom: 10 })).alerts).toHaveLength(2);
    });

    it('goes by the last-seen cell, never the exact place: an edge between the two tells nothing more', async () => {
      const owner = await createUser(t.db);
      const cat = await createCat(t.db, owner.id, { name: 'Hidden edge' });
      const place = spot(90);
      expect((await markMissing(owner, cat.id, { place })).statusCode).toBe(201);
      const cell = approximateLocation(place.latitude, place.longitude);
      // The exact place lies ~190 m south of the cell's centre.
      expect(place.latitude).toBeLessThan(cell.latitude - 0.001);
      const box = (north: number): Box => ({
        west: cell.longitude - 0.02,
        south: cell.latitude - 0.02,
        east: cell.longitude + 0.02,
        north,
        zoom: 15,
      });
      const found = async (viewer: { id: string }, north: number) =>
        (await onMap(viewer, box(north))).alerts.map((a) => a.cat._id);
      // North edge between the exact place and the cell's centre: the exact place is in view, the
      // cell is not, and the alert is not listed, for the caretaker too (one rule for the box).
      const between = (place.latitude + cell.latitude) / 2;
      expect(await found(stranger, between)).toEqual([]);
      expect(await found(owner, between)).toEqual([]);
      expect(await found(stranger, cell.latitude + 0.0001)).toEqual([cat.id]);

      // The order goes by the cells too: two alerts whose exact places lie in the opposite order.
      const other = await createCat(t.db, owner.id, { name: 'Next cell' });
      const nextCell = locationCell(cell.latitude, cell.longitude + 0.006);
      // West in its cell, so its exact place is nearer the first alert's exact place than its cell is.
      const otherPlace = { latitude: place.latitude, longitude: nextCell.west + 0.0001 };
      expect((await markMissing(owner, other.id, { place: otherPlace })).statusCode).toBe(201);
      const otherCell = approximateLocation(otherPlace.latitude, otherPlace.longitude);
      // A centre nearer the second's exact place than the first's, but nearer the first's cell.
      const centreLng = (cell.longitude + otherCell.longitude) / 2 - 0.0004;
      expect(Math.abs(centreLng - otherPlace.longitude)).toBeLessThan(Math.abs(centreLng - place.longitude));
      const halfWidth = 0.02;
      const order = (
        await onMap(stranger, {
          west: centreLng - halfWidth,
          south: cell.latitude - 0.02,
          east: centreLng + halfWidth,
          north: cell.latitude + 0.02,
          zoom: 15,
        })
      ).alerts.map((a) => a.cat.name);
      expect(order).toEqual(['Hidden edge', 'Next cell']);
    });

    it('leaves out alerts raised by someone the viewer shares a block with, whoever blocked', async () => {
      // The carer blocked `blocked`: neither sees the other's alerts.
      const theirs = await createCat(t.db, blocked.id, { name: 'Blocked one’s cat' });
      expect((await markMissing(blocked, theirs.id, { place: spot(0.4, 0.4) })).statusCode).toBe(201);
      const box = around(lastSeen, 3);
      const raisers = async (viewer: { id: string }) =>
        (await onMap(viewer, box)).alerts.map((a) => a.raisedBy?._id);
      expect(await raisers(blocked)).not.toContain(carer.id);
      expect(await raisers(blocked)).toContain(blocked.id);
      expect(await raisers(carer)).not.toContain(blocked.id);
      expect(await raisers(carer)).toContain(carer.id);
      // Someone else sees both.
      expect(await raisers(neighbour)).toEqual(expect.arrayContaining([carer.id, blocked.id]));
      expect((await api(blocked, 'DELETE', `/api/cats/${theirs.id}/missing`)).statusCode).toBe(200);
    });

    it(`shows at most ${MISSING_MAP_LIMIT}, those nearest the centre, and says when more lie in the viewport`, async () => {
      // One more than the limit, in a row of cells eastwards from the centre: the furthest is left out.
      const start = spot(120);
      const places = Array.from({ length: MISSING_MAP_LIMIT + 1 }, (_, i) => ({
        latitude: start.latitude,
        longitude: start.longitude + i * 0.006,
      }));
      const ids = await rawAlerts(places, (i) => `Row ${i}`);
      // Centred on the first: the answer runs along the row, and leaves the furthest out.
      const wide: Box = {
        west: start.longitude - 0.5,
        south: start.latitude - 0.05,
        east: start.longitude + 0.5,
        north: start.latitude + 0.05,
        zoom: 10,
      };
      const capped = await onMap(stranger, wide);
      expect(capped.truncated).toBe(true);
      expect(capped.alerts.map((a) => a.cat._id)).toEqual(ids.slice(0, MISSING_MAP_LIMIT));
      expect(capped.alerts.every((a) => a.raisedBy === null)).toBe(true);
      // Zoomed in on a part of it, every alert whose cell lies there is shown.
      const part = await onMap(stranger, {
        ...wide,
        west: start.longitude - 0.1,
        east: start.longitude + 0.1,
        zoom: 12,
      });
      const inPart = ids.filter(
        (_, k) =>
          approximateLocation(places[k]!.latitude, places[k]!.longitude).longitude <= start.longitude + 0.1,
      );
      expect(inPart.length).toBeGreaterThan(10);
      expect(part.truncated).toBe(false);
      expect(part.alerts.map((a) => a.cat._id)).toEqual(inPart);
    });

    it('finds alerts across the antimeridian, with bounds as Leaflet gives them past 180', async () => {
      const [id] = await rawAlerts([{ latitude: -17.7531, longitude: -179.8912 }], () => 'Fiji cat');
      const wrapped = { west: 179.5, south: -18, east: 180.5, north: -17.5, zoom: 9 };
      expect((await onMap(stranger, wrapped)).alerts.map((a) => a.cat._id)).toEqual([id]);
      // The same place one world east, and as a GeoJSON-style box whose west lies east of its east.
      expect(
        (await onMap(stranger, { ...wrapped, west: -180.5, east: -179.5 })).alerts.map((a) => a.cat._id),
      ).toEqual([id]);
      expect(
        (await onMap(stranger, { ...wrapped, west: 179.5, east: -179.5 })).alerts.map((a) => a.cat._id),
      ).toEqual([id]);
      expect((await onMap(stranger, { ...wrapped, west: 178, east: 179 })).alerts).toEqual([]);
    });

    it('lists the alerts around a home area across the antimeridian and near a pole, and none beyond 2 km', async () => {
      const taveuni = { latitude: -16.85, longitude: 179.998 };
      const polar = { latitude: 89.995, longitude: 10 };
      const [across, pole, farAcross] = await rawAlerts(
        [
          // ~700 m east of Taveuni's home area, on the far side of longitude 180.
          { latitude: -16.85, longitude: -179.996 },
          // Half a world of longitude away, ~1.1 km across the pole from the polar home area.
          { latitude: 89.995, longitude: -170 },
          // ~3 km east: beyond the list's 2 km.
          { latitude: -16.85, longitude: -179.973 },
        ],
        (i) => `Remote ${i}`,
      );
      const islander = await createUser(t.db);
      const explorer = await createUser(t.db);
      await setHomeArea(islander, taveuni);
      await setHomeArea(explorer, polar);
      const islanders = await near(islander);
      expect(islanders.area).toBe('home');
      expect(islanders.alerts.map((a) => a.cat._id)).toContain(across);
      expect(islanders.alerts.map((a) => a.cat._id)).not.toContain(farAcross);
      expect((await near(explorer)).alerts.map((a) => a.cat._id)).toContain(pole);
    });

    // Inserts a city's worth of alerts and analyses them: seconds on a quiet machine, more on a busy one.
    it(
      'reads the box on missing_alerts_open_area_idx, never a scan of every alert, on the map and in the near list',
      { timeout: 120_000 },
      async () => {
        const box = { south: 48.84, north: 48.87, longitudes: [[2.3, 2.4]] as [number, number][] };
        const owner = await createUser(t.db);
        // The statements as they run, with their values (captureSql records them instead of running them).
        const recorded = async (run: (db: Database) => Promise<unknown>) => (await captureSql(run)).inlined;
        const statements = {
          map: await recorded((db) =>
            shownAlertsInBox(db, stranger.id, box, { latitude: 48.855, longitude: 2.35 }, 51),
          ),
          'near list': await recorded((db) =>
            shownAlertsNear(db, stranger.id, { latitude: 48.855, longitude: 2.35 }, MISSING_NEAR_METRES, 3),
          ),
        };
        const plans: Record<string, string> = {};
        // 3,000 cats, two thirds of them missing, over 50 x 50 km around Paris, for the planner's
        // statistics; then undone, so that the other tests see none of them.
        await t.db
          .transaction(async (tx) => {
            await tx.execute(sql`insert into cats (name, created_by)
              select 'Cat ' || i, ${owner.id} from generate_series(1, 3000) i`);
            await tx.execute(sql`insert into missing_alerts (cat_id, raised_by, last_seen_at, latitude, longitude,
                area_latitude, area_longitude, contact, expires_at, ended_at, end_reason)
              select c.id, null, now(), 48.6 + (n % 97) * 0.005, 2.1 + (n % 89) * 0.006,
                48.6 + (n % 97) * 0.005, 2.1 + (n % 89) * 0.006, 'report', now() + interval '1 day',
                case when n % 3 = 0 then now() end, case when n % 3 = 0 then 'found' end
              from (select id, row_number() over () as n from cats where created_by = ${owner.id}) c`);
            await tx.execute(sql`analyze missing_alerts`);
            for (const [name, inlined] of Object.entries(statements)) {
              plans[name] = rowsOf(await tx.execute(sql.raw(`explain ${inlined}`)))
                .map((r) => String(Object.values(r)[0]))
                .join('\n');
            }
            tx.rollback();
          })
          .catch((err: unknown) => {
            if (!(err instanceof Error) || !/rollback/i.test(err.message)) throw err;
          });
        for (const [name, plan] of Object.entries(plans)) {
          expect(plan, name).toMatch(/(Bitmap Index Scan on|Index Scan using) missing_alerts_open_area_idx/);
          const cond = plan.split('\n').find((line) => /Index Cond: .*area_latitude/.test(line)) ?? '';
          // The latitudes bound the read; the longitudes are checked in the index too (PostgreSQL, a
          // bitmap per range) or on the rows it finds (PGlite's choice at this size).
          for (const column of ['area_latitude >=', 'area_latitude <=']) expect(cond, plan).toContain(column);
          expect(plan, name).not.toMatch(/Seq Scan on missing_alerts/);
        }
        for (const plan of Object.values(plans))
          expect(plan).toMatch(/area_longitude >= .*area_longitude <=/);
      },
    );

    it('refuses a missing or bad viewport and one far larger than a screen at its zoom, with a message', async () => {
      const url = (q: string) => `/api/cats/missing/map${q ? `?${q}` : ''}`;
      refused(await api(neighbour, 'GET', url('')), 400, MISSING_MESSAGES.viewportRequired);
      refused(
        await api(neighbour, 'GET', url('west=-4.5&south=36.7&east=-4.4&north=36.8')),
        400,
        MISSING_MESSAGES.viewportRequired,
      );
      refused(
        await api(neighbour, 'GET', url('west=-4.5&south=36.9&east=-4.4&north=36.8&zoom=12')),
        400,
        EXPLORE_MESSAGES.southAboveNorth,
      );
      refused(
        await api(neighbour, 'GET', url('west=-4.5&south=-91&east=-4.4&north=36.8&zoom=12')),
        400,
        'south must be between -90 and 90',
      );
      refused(
        await api(neighbour, 'GET', url('west=abc&south=36.7&east=-4.4&north=36.8&zoom=12')),
        400,
        'west must be a number',
      );
      refused(
        await api(neighbour, 'GET', url('west=-4.5&south=36.7&east=-4.4&north=36.8&zoom=19')),
        400,
        'zoom must be between 0 and 18',
      );
      // The whole of Spain at street level: refused as Explore refuses it.
      refused(
        await api(neighbour, 'GET', url('west=-9&south=36&east=3&north=43&zoom=18')),
        400,
        MISSING_MESSAGES.areaTooLarge,
      );
      const explore = await api(neighbour, 'GET', '/api/explore?west=-9&south=36&east=3&north=43&zoom=18');
      refused(explore, 400, EXPLORE_MESSAGES.areaTooLarge);
      refused(await api(null, 'GET', url('west=-4.5&south=36.7&east=-4.4&north=36.8&zoom=12')), 401);
    });
  });

  describe("'I saw this cat' and the reports", () => {
    let cat: string;
    beforeAll(async () => {
      cat = (await createCat(t.db, carer.id, { name: 'Tizón', caretakers: [helper.id] })).id;
      expect((await markMissing(carer, cat, { place: spot(60) })).statusCode).toBe(201);
    });
    const report = (user: { id: string } | null, overrides: Record<string, unknown> = {}) =>
      api(user, 'POST', `/api/cats/${cat}/missing/reports`, {
        seenAt: ago(HOUR),
        place: spot(60.5),
        note: 'Under the blue car on calle Granada.',
        ...overrides,
      });

    it('takes a report without a photo from anyone shown the alert, for the caretakers alone', async () => {
      const res = await report(neighbour);
      expect(res.statusCode, res.body).toBe(201);
      const sent = res.json() as { message: string; report: MissingReport };
      expect(sent.message).toBe(MISSING_MESSAGES.reported);
      expect(sent.report).toMatchObject({
        kind: 'sighting',
        reporter: { _id: neighbour.id },
        place: { ...spot(60.5), locationPrecision: 'exact' },
        note: 'Under the blue car on calle Granada.',
        post: null,
      });

      const older = await report(stranger, { seenAt: ago(5 * HOUR), place: spot(60.2), note: '' });
      expect(older.statusCode, older.body).toBe(201);

      for (const caretaker of [carer, helper]) {
        const { reports } = await ok<{ reports: MissingReport[] }>(
          caretaker,
          'GET',
          `/api/cats/${cat}/missing/reports`,
        );
        expect(reports.map((r) => [r.reporter?._id, r.place])).toEqual([
          [neighbour.id, { ...spot(60.5), locationPrecision: 'exact' }],
          [stranger.id, { ...spot(60.2), locationPrecision: 'exact' }],
        ]);
      }
      // Nobody else reads reports, the reporter included.
      for (const [viewer, message] of [
        [neighbour, MISSING_MESSAGES.notCaretaker],
        [stranger, MISSING_MESSAGES.notCaretaker],
        [demo, MISSING_MESSAGES.notCaretaker],
      ] as const) {
        refused(await api(viewer, 'GET', `/api/cats/${cat}/missing/reports`), 403, message);
      }
      refused(
        await api(carer, 'GET', `/api/cats/${randomUUID()}/missing/reports`),
        404,
        CAT_MESSAGES.notFound,
      );
    });

    it('lists photos linked to the cat since the alert went up, placed as their posts place them', async () => {
      const post = await uploadPost(t.app, await authHeader(t.app, far.id), await smallJpeg(11), {
        comment: 'Is this Tizón?',
        showLocation: 'true',
        latitude: String(spot(61).latitude),
        longitude: String(spot(61).longitude),
        catId: cat,
      });
      // The caretaker's own photo is a sighting, not a report.
      await uploadPost(t.app, await authHeader(t.app, carer.id), await smallJpeg(12), {
        comment: 'Poster on the lamp post',
        catId: cat,
      });
      const { reports } = await ok<{ reports: MissingReport[] }>(
        carer,
        'GET',
        `/api/cats/${cat}/missing/reports`,
      );
      const photo = reports.find((r) => r.kind === 'photo');
      const cell = approximateLocation(spot(61).latitude, spot(61).longitude);
      expect(photo).toMatchObject({
        _id: post._id,
        reporter: { _id: far.id },
        note: 'Is this Tizón?',
        place: { ...cell, locationPrecision: 'approximate' },
        post: { _id: post._id },
      });
      expect(reports.filter((r) => r.kind === 'photo')).toHaveLength(1);
      // Newest sighting first: the photo (just now), then the two reports.
      expect(reports.map((r) => r.kind)).toEqual(['photo', 'sighting', 'sighting']);
    });

    it('refuses the demo account, bad input, and a cat that is not missing to the reporter; nothing is stored', async () => {
      const before = await reportRows();
      refused(await report(demo), 403, DEMO_DISABLED_MESSAGE);
      refused(await report(null), 401);
      refused(await report(neighbour, { seenAt: ago(-HOUR) }), 400, MISSING_MESSAGES.lastSeenInFuture);
      refused(await report(neighbour, { place: null }), 400, MISSING_MESSAGES.placeRequired);
      refused(await report(neighbour, { note: 'y'.repeat(501) }), 400, MISSING_MESSAGES.noteTooLong);
      // The carer blocked them: to them the cat is not missing.
      refused(await report(blocked), 404, MISSING_MESSAGES.notMissing);
      const notMissing = await createCat(t.db, carer.id);
      refused(
        await api(neighbour, 'POST', `/api/cats/${notMissing.id}/missing/reports`, {
          seenAt: ago(HOUR),
          place: spot(0),
        }),
        404,
        MISSING_MESSAGES.notMissing,
      );
      refused(
        await api(neighbour, 'POST', `/api/cats/${randomUUID()}/missing/reports`, {
          seenAt: ago(HOUR),
          place: spot(0),
        }),
        404,
        CAT_MESSAGES.notFound,
      );
      expect(await reportRows()).toBe(before);
    });

    it("keeps a report from someone a caretaker shares a block with out of that caretaker's list only", async () => {
      const nosy = await createUser(t.db);
      expect((await report(nosy, { note: 'Saw it by the church.' })).statusCode).toBe(201);
      await ok(helper, 'PUT', '/api/profile/blockUser/', { blockedUser: { _id: nosy.id } });
      const byHelper = await ok<{ reports: MissingReport[] }>(
        helper,
        'GET',
        `/api/cats/${cat}/missing/reports`,
      );
      const byCarer = await ok<{ reports: MissingReport[] }>(
        carer,
        'GET',
        `/api/cats/${cat}/missing/reports`,
      );
      expect(byHelper.reports.map((r) => r.reporter?._id)).not.toContain(nosy.id);
      expect(byCarer.reports.map((r) => r.reporter?._id)).toContain(nosy.id);
    });
  });

  describe('a missing household cat (issue 46)', () => {
    it("takes a neighbour's photo of it while the alert is up, for the caretakers alone; none once it ends", async () => {
      // Its own caretaker: the carer has alerts up enough by now. The home is far from where it was lost.
      const owner = await createUser(t.db);
      const home = spot(90);
      const cat = await createCat(t.db, owner.id, {
        name: 'Kira',
        living: 'household',
        homeLatitude: home.latitude,
        homeLongitude: home.longitude,
      });
      expect((await markMissing(owner, cat.id, { place: spot(90.4) })).statusCode).toBe(201);
      const photo = await uploadPost(t.app, await authHeader(t.app, neighbour.id), await smallJpeg(21), {
        comment: 'Is this Kira?',
        showLocation: 'true',
        latitude: String(spot(90.2).latitude),
        longitude: String(spot(90.2).longitude),
        catId: cat.id,
      });
      expect(photo.cat?._id).toBe(cat.id);
      const { reports } = await ok<{ reports: MissingReport[] }>(
        owner,
        'GET',
        `/api/cats/${cat.id}/missing/reports`,
      );
      expect(reports.map((r) => [r.kind, r.reporter?._id, r.post?._id])).toEqual([
        ['photo', neighbour.id, photo._id],
      ]);
      // The link is kept from everyone but the caretakers and its author, wherever it lies.
      expect((await ok<Post>(owner, 'GET', `/api/posts/${photo._id}`)).cat?._id).toBe(cat.id);
      expect((await ok<Post>(stranger, 'GET', `/api/posts/${photo._id}`)).cat).toBeNull();

      // Their own picture linked afterwards, and a 'This is Kira' on someone else's, which its author accepts.
      const own = await createPost(t.db, neighbour.id, {
        latitude: 36.9,
        longitude: -4.3,
        showLocation: true,
      });
      await ok(neighbour, 'PUT', `/api/posts/${own.id}/cat`, { catId: cat.id });
      const theirs = await createPost(t.db, far.id, { latitude: 36.9, longitude: -4.3, showLocation: true });
      const { suggestion } = await ok<{ suggestion: PostCatSuggestion }>(
        neighbour,
        'POST',
        `/api/posts/${theirs.id}/cat-suggestions`,
        { catId: cat.id },
      );
      await ok(far, 'POST', `/api/posts/${theirs.id}/cat-suggestions/${suggestion._id}/accept`);
      expect((await ok<Post>(stranger, 'GET', `/api/posts/${theirs.id}`)).cat).toBeNull();
      expect((await ok<Post>(owner, 'GET', `/api/posts/${theirs.id}`)).cat?._id).toBe(cat.id);
      // Someone the alert is not shown to (the raiser blocked them) links nothing.
      await ok(owner, 'PUT', '/api/profile/blockUser/', { blockedUser: { _id: blocked.id } });
      const blockedOwn = await createPost(t.db, blocked.id, { latitude: 36.9, longitude: -4.3 });
      refused(
        await api(blocked, 'PUT', `/api/posts/${blockedOwn.id}/cat`, { catId: cat.id }),
        403,
        CAT_MESSAGES.householdLinkCaretakers,
      );

      // A stranger's 'This is Kira' left open; then back home: the links stay, for the caretakers, and
      // a stranger's new ones are refused again.
      const later = await createPost(t.db, far.id, { latitude: 36.9, longitude: -4.3 });
      const open = await ok<{ suggestion: PostCatSuggestion }>(
        stranger,
        'POST',
        `/api/posts/${later.id}/cat-suggestions`,
        { catId: cat.id },
      );
      await ok(owner, 'DELETE', `/api/cats/${cat.id}/missing`);
      const after = await ok<{ reports: MissingReport[] }>(
        owner,
        'GET',
        `/api/cats/${cat.id}/missing/reports`,
      );
      expect(after.reports.map((r) => r.post?._id)).toContain(photo._id);
      expect((await ok<Post>(owner, 'GET', `/api/posts/${own.id}`)).cat?._id).toBe(cat.id);
      expect((await ok<Post>(stranger, 'GET', `/api/posts/${own.id}`)).cat).toBeNull();
      const another = await createPost(t.db, stranger.id, { latitude: 36.9, longitude: -4.3 });
      refused(
        await api(stranger, 'PUT', `/api/posts/${another.id}/cat`, { catId: cat.id }),
        403,
        CAT_MESSAGES.householdLinkCaretakers,
      );
      refused(
        await api(neighbour, 'POST', `/api/posts/${another.id}/cat-suggestions`, { catId: cat.id }),
        403,
        CAT_MESSAGES.householdSuggestCaretakers,
      );
      // A suggestion made while it was missing can no longer be accepted.
      refused(
        await api(far, 'POST', `/api/posts/${later.id}/cat-suggestions/${open.suggestion._id}/accept`),
        403,
        CAT_MESSAGES.householdLinkCaretakers,
      );
    });
  });

  describe("marking found: 'Back home!'", () => {
    it('ends the alert for everyone; the reports stay for the caretakers', async () => {
      const cat = await createCat(t.db, carer.id, { name: 'Lucero', caretakers: [helper.id] });
      // The carer has three alerts up by now (Luna, Tizón, and maybe the raced one): the helper raises it.
      expect((await markMissing(helper, cat.id, { place: spot(80) })).statusCode).toBe(201);
      expect(
        (
          await api(neighbour, 'POST', `/api/cats/${cat.id}/missing/reports`, {
            seenAt: ago(HOUR),
            place: spot(80.2),
          })
        ).statusCode,
      ).toBe(201);
      refused(
        await api(neighbour, 'DELETE', `/api/cats/${cat.id}/missing`),
        403,
        MISSING_MESSAGES.notCaretaker,
      );
      refused(await api(demo, 'DELETE', `/api/cats/${cat.id}/missing`), 403, DEMO_DISABLED_MESSAGE);
      refused(await api(carer, 'DELETE', `/api/cats/${randomUUID()}/missing`), 404, CAT_MESSAGES.notFound);
      expect(await alertOf(neighbour, cat.id)).not.toBeNull();

      const found = await ok<{ message: string }>(carer, 'DELETE', `/api/cats/${cat.id}/missing`);
      expect(found.message).toBe('Back home!');
      for (const viewer of [carer, neighbour, demo]) expect(await alertOf(viewer, cat.id)).toBeNull();
      expect((await near(neighbour, spot(80))).alerts.map((a) => a.cat._id)).not.toContain(cat.id);
      refused(await api(carer, 'DELETE', `/api/cats/${cat.id}/missing`), 404, MISSING_MESSAGES.notMissing);
      refused(
        await api(neighbour, 'POST', `/api/cats/${cat.id}/missing/reports`, {
          seenAt: ago(HOUR),
          place: spot(80),
        }),
        404,
        MISSING_MESSAGES.notMissing,
      );
      const { reports } = await ok<{ reports: MissingReport[] }>(
        carer,
        'GET',
        `/api/cats/${cat.id}/missing/reports`,
      );
      expect(reports).toHaveLength(1);
      const [row] = await t.db.select().from(missingAlerts).where(eq(missingAlerts.catId, cat.id));
      expect([row!.endReason, row!.endedBy]).toEqual(['found', carer.id]);
    });
  });

  it('hides the alerts of a suspended raiser from everyone else until the suspension ends', async () => {
    const owner = await createUser(t.db);
    const watcher = await createUser(t.db);
    const place = spot(70);
    await setHomeArea(watcher, spot(70.5));
    const cat = await createCat(t.db, owner.id, { name: 'Suspended owner’s cat' });
    expect((await markMissing(owner, cat.id, { place })).statusCode).toBe(201);
    const box = {
      west: place.longitude - 0.05,
      south: place.latitude - 0.05,
      east: place.longitude + 0.05,
      north: place.latitude + 0.05,
    };
    const mapQuery = `/api/cats/missing/map?west=${box.west}&south=${box.south}&east=${box.east}&north=${box.north}&zoom=12`;
    const seenBy = async (viewer: { id: string }) => ({
      near: (await near(viewer)).alerts.map((a) => a.cat._id),
      nearPoint: (await near(viewer, place)).alerts.map((a) => a.cat._id),
      map: (await ok<MissingMapResponse>(viewer, 'GET', mapQuery)).alerts.map((a) => a.cat._id),
      cat: (await alertOf(viewer, cat.id))?.cat._id ?? null,
    });
    const shown = { near: [cat.id], nearPoint: [cat.id], map: [cat.id], cat: cat.id };
    const hidden = { near: [], nearPoint: [], map: [], cat: null };
    expect(await seenBy(watcher)).toEqual(shown);

    await suspendUser(t.db, owner.id, new Date(), null);
    expect(await seenBy(watcher)).toEqual(hidden);
    expect((await near(watcher)).total).toBe(0);

    await liftSuspension(t.db, owner.id);
    expect(await seenBy(watcher)).toEqual(shown);

    // A suspension that runs out is lifted by the sweep, alerts included.
    await suspendUser(t.db, owner.id, new Date(Date.now() - 2 * DAY), new Date(Date.now() - DAY));
    expect(await seenBy(watcher)).toEqual(hidden);
    expect(await liftEndedSuspensions(t.db, new Date(), 10, owner.id)).toEqual([owner.id]);
    expect(await seenBy(watcher)).toEqual(shown);
  });

  it('removes a cat’s alerts and their reports with the cat, and an account’s reports with the account', async () => {
    const owner = await createUser(t.db);
    const reporter = await createUser(t.db);
    const cat = await createCat(t.db, owner.id);
    expect((await markMissing(owner, cat.id, { place: spot(90) })).statusCode).toBe(201);
    await ok(reporter, 'POST', `/api/cats/${cat.id}/missing/reports`, { seenAt: ago(HOUR), place: spot(90) });
    const [alert] = await t.db.select().from(missingAlerts).where(eq(missingAlerts.catId, cat.id));
    expect((await api(reporter, 'DELETE', `/api/profile/deleteUser/${reporter.id}`)).statusCode).toBe(204);
    expect(await t.db.select().from(missingReports).where(eq(missingReports.alertId, alert!.id))).toEqual([]);
    // The owner cares for the cat alone: their account goes with the cat and its alert.
    expect((await api(owner, 'DELETE', `/api/profile/deleteUser/${owner.id}`)).statusCode).toBe(204);
    expect(await t.db.select().from(missingAlerts).where(eq(missingAlerts.catId, cat.id))).toEqual([]);
  });
});
