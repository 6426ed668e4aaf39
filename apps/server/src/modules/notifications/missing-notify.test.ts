import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification, NotificationType } from '@cats/contracts';
import { notifications } from '../../db/schema/index.ts';
import { locationCell } from '../location/location-grid.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { createCat, createUser, type CreatedUser } from '../../../test/factories.ts';
import { NO_RATE_LIMITS } from '../../../test/hostile/support/world.ts';
import { actorIds, notificationsClient } from '../../../test/notifications.ts';

type Point = { latitude: number; longitude: number };
const HOUR = 60 * 60 * 1000;

/** A point `northKm` north and `eastKm` east of a spot in Seville, inside its cell (not its centre). */
function spot(northKm: number, eastKm = 0): Point {
  const cell = locationCell(37.3891 + northKm / 111.195, -5.9845 + eastKm / 88.4);
  return {
    latitude: Number((cell.south + 0.0011).toFixed(7)),
    longitude: Number((cell.west + 0.0013).toFixed(7)),
  };
}

/**
 * Issue 26 "Missing cats" and issue 25: a cat marked missing tells the people whose home area lies within
 * 2 km of its last-seen cell (migration 0019's trigger), marking it found tells them again and the cat's
 * followers, and 'I saw this cat' tells the caretakers. Never one's own action, never across a block,
 * never a type switched off, never a place in the entry.
 */
describe('missing cat notifications', () => {
  let t: TestApp;
  let api: ReturnType<typeof notificationsClient>;
  let area = 0;
  beforeAll(async () => {
    t = await buildTestApp(NO_RATE_LIMITS);
    api = notificationsClient(t);
  });
  afterAll(async () => t?.close());

  /** Each test in an area of its own, 50 km from the others, so that nobody else's home is near. */
  const place = (northKm: number, eastKm = 0) => spot(area * 50 + northKm, eastKm);
  const person = async (home: Point | null) => {
    const user = await createUser(t.db);
    if (home) await api.ok(user, 'PUT', '/api/profile/settings/home-area', { homeArea: home });
    return user;
  };
  const raise = (carer: CreatedUser, catId: string, at: Point) =>
    api.ok(carer, 'POST', `/api/cats/${catId}/missing`, {
      lastSeenAt: new Date(Date.now() - HOUR).toISOString(),
      place: at,
      note: 'Shy, do not chase.',
      contact: 'report',
    });
  const ofType = async (user: CreatedUser, type: NotificationType) => api.ofType(user, type);
  /** Who was written an entry of this type about the cat: the rows, not what is shown. */
  const toldAbout = async (catId: string, type: NotificationType) =>
    (
      await t.db
        .select({ recipientId: notifications.recipientId })
        .from(notifications)
        .where(and(eq(notifications.catId, catId), eq(notifications.type, type)))
    )
      .map((r) => r.recipientId)
      .sort();
  const placeKeys = /"(latitude|longitude|locationPrecision|place|home\w*|area\w*)":/i;

  it('tells people whose home area is within 2 km, once each, naming the cat and who raised it, with no place', async () => {
    area = 1;
    const carer = await createUser(t.db);
    const helper = await person(place(0.3)); // a caretaker who lives nearby: they know already
    const near = await person(place(1.2));
    const alsoNear = await person(place(-0.8, 1));
    const farther = await person(place(3.5));
    const noArea = await person(null);
    const cat = await createCat(t.db, carer.id, { name: 'Luna', caretakers: [helper.id] });
    await api.follow(noArea, cat.id);
    await raise(carer, cat.id, place(0));

    expect(await toldAbout(cat.id, 'cat_missing_nearby')).toEqual([near.id, alsoNear.id].sort());
    const [entry] = (await ofType(near, 'cat_missing_nearby')) as [Notification];
    expect(entry).toMatchObject({
      type: 'cat_missing_nearby',
      read: false,
      cat: { _id: cat.id, name: 'Luna' },
      post: null,
      group: null,
      link: `/cats/${cat.id}`,
    });
    expect(actorIds(entry)).toEqual([carer.id]);
    expect(JSON.stringify(entry)).not.toMatch(placeKeys);
    expect(JSON.stringify(entry)).not.toContain(String(place(0).latitude));
    for (const who of [carer, helper, farther, noArea])
      expect(await ofType(who, 'cat_missing_nearby')).toEqual([]);
  });

  it('tells nobody who shares a block with the raiser, either way, nor anyone who switched the type off', async () => {
    area = 2;
    const carer = await createUser(t.db);
    const blocker = await person(place(0.5));
    const blockedByCarer = await person(place(0.6));
    const quiet = await person(place(0.7));
    const told = await person(place(0.8));
    await api.block(blocker, carer);
    await api.block(carer, blockedByCarer);
    await api.setInApp(quiet, 'cat_missing_nearby', false);
    const cat = await createCat(t.db, carer.id, { name: 'Sombra' });
    await raise(carer, cat.id, place(0));
    expect(await toldAbout(cat.id, 'cat_missing_nearby')).toEqual([told.id]);

    // A block made later takes the entry out of view, as every entry of a blocked actor.
    await api.block(told, carer);
    expect(await ofType(told, 'cat_missing_nearby')).toEqual([]);
    expect(await api.unread(told)).toBe(0);
  });

  it('tells the caretakers of each report without a photo, naming the reporter, never a caretaker who blocked them', async () => {
    area = 3;
    const carer = await createUser(t.db);
    const helper = await createUser(t.db);
    const wary = await createUser(t.db);
    const cat = await createCat(t.db, carer.id, { name: 'Canela', caretakers: [helper.id, wary.id] });
    await raise(carer, cat.id, place(0));
    const reporter = await person(null);
    await api.block(wary, reporter);
    await api.ok(reporter, 'POST', `/api/cats/${cat.id}/missing/reports`, {
      seenAt: new Date(Date.now() - HOUR / 2).toISOString(),
      place: place(0.4),
      note: 'Behind the market.',
    });
    expect(await toldAbout(cat.id, 'missing_report')).toEqual([carer.id, helper.id].sort());
    const [entry] = (await ofType(helper, 'missing_report')) as [Notification];
    expect(entry).toMatchObject({ cat: { _id: cat.id, name: 'Canela' }, link: `/cats/${cat.id}` });
    expect(actorIds(entry)).toEqual([reporter.id]);
    expect(JSON.stringify(entry)).not.toMatch(placeKeys);
    expect(await ofType(reporter, 'missing_report')).toEqual([]);
    // A caretaker reporting their own cat tells the others, not themself.
    await api.ok(helper, 'POST', `/api/cats/${cat.id}/missing/reports`, {
      seenAt: new Date().toISOString(),
      place: place(0.1),
    });
    expect((await ofType(helper, 'missing_report')).map(actorIds)).toEqual([[reporter.id]]);
    expect((await ofType(carer, 'missing_report')).map(actorIds)).toEqual([[helper.id], [reporter.id]]);
  });

  it('tells everyone who was told it was missing, its followers and its other caretakers when it is found', async () => {
    area = 4;
    const carer = await createUser(t.db);
    const helper = await createUser(t.db);
    const near = await person(place(1));
    const follower = await person(null);
    const nearAndFollowing = await person(place(-1));
    const latecomer = await person(null);
    const cat = await createCat(t.db, carer.id, { name: 'Miel', caretakers: [helper.id] });
    await api.follow(follower, cat.id);
    await api.follow(nearAndFollowing, cat.id);
    await raise(carer, cat.id, place(0));
    // Moving in after the alert went up: not told it was missing, so not told it was found.
    await api.ok(latecomer, 'PUT', '/api/profile/settings/home-area', { homeArea: place(0.5) });

    await api.ok(helper, 'DELETE', `/api/cats/${cat.id}/missing`);
    expect(await toldAbout(cat.id, 'cat_found')).toEqual(
      [carer.id, near.id, follower.id, nearAndFollowing.id].sort(),
    );
    const [entry] = (await ofType(near, 'cat_found')) as [Notification];
    expect(entry).toMatchObject({
      type: 'cat_found',
      cat: { _id: cat.id, name: 'Miel' },
      link: `/cats/${cat.id}`,
    });
    expect(actorIds(entry)).toEqual([helper.id]);
    for (const who of [helper, latecomer]) expect(await ofType(who, 'cat_found')).toEqual([]);
    // The missing entry stays (it happened), now beside the good news.
    expect((await api.all(near)).map((n) => n.type)).toEqual(['cat_found', 'cat_missing_nearby']);
  });

  it('tells nobody when an alert that lapsed is ended by a new one, and the new one is told afresh', async () => {
    area = 5;
    const carer = await createUser(t.db);
    const near = await person(place(0.9));
    const cat = await createCat(t.db, carer.id, { name: 'Coco' });
    await raise(carer, cat.id, place(0));
    await t.db.execute(
      sql`update missing_alerts set created_at = now() - interval '40 days', expires_at = now() - interval '10 days'
        where cat_id = ${cat.id}`,
    );
    await t.db
      .update(notifications)
      .set({ createdAt: new Date(Date.now() - 40 * 24 * HOUR) })
      .where(inArray(notifications.recipientId, [near.id]));
    await t.db.execute(
      sql`update missing_notices set notified_at = now() - interval '40 days' where cat_id = ${cat.id}`,
    );
    await raise(carer, cat.id, place(0.2));
    expect(await toldAbout(cat.id, 'cat_found')).toEqual([]);
    expect(await toldAbout(cat.id, 'cat_missing_nearby')).toEqual([near.id, near.id]);
    // Found now: told once, for the alert that is up.
    await api.ok(carer, 'DELETE', `/api/cats/${cat.id}/missing`);
    expect(await toldAbout(cat.id, 'cat_found')).toEqual([near.id]);
  });

  it('tells a neighbour about one cat once a day, however often its alert is raised and ended', async () => {
    area = 6;
    const carer = await createUser(t.db);
    const helper = await createUser(t.db);
    const near = await person(place(0.7));
    const follower = await person(null);
    const cat = await createCat(t.db, carer.id, { name: 'Trufa', caretakers: [helper.id] });
    await api.follow(follower, cat.id);
    // Ten cycles at a chosen place, five by each caretaker (an account raises at most five a day).
    for (let i = 0; i < 10; i += 1) {
      const [raiser, ender] = i < 5 ? [carer, helper] : [helper, carer];
      await raise(raiser, cat.id, place(i % 2 === 0 ? 0 : 0.3));
      await api.ok(ender, 'DELETE', `/api/cats/${cat.id}/missing`);
    }
    // One 'missing near you' and one 'back home' each, where there were ten of each.
    expect(await toldAbout(cat.id, 'cat_missing_nearby')).toEqual([near.id]);
    expect((await api.all(near)).map((n) => n.type)).toEqual(['cat_found', 'cat_missing_nearby']);
    expect(await api.unread(near)).toBe(2);
    expect((await ofType(follower, 'cat_found')).length).toBe(1);
    // Each caretaker hears once of the other ending it.
    expect(await toldAbout(cat.id, 'cat_found')).toEqual([near.id, follower.id, carer.id, helper.id].sort());

    // A day on, the cat going missing again is news again.
    await t.db.execute(
      sql`update missing_notices set notified_at = notified_at - interval '25 hours' where cat_id = ${cat.id}`,
    );
    await t.db.execute(
      sql`update missing_alerts set created_at = created_at - interval '25 hours' where cat_id = ${cat.id}`,
    );
    await raise(carer, cat.id, place(0));
    expect(await toldAbout(cat.id, 'cat_missing_nearby')).toEqual([near.id, near.id]);
  });

  it('holds nothing back for someone the alert did not reach: a notice is claimed only when written', async () => {
    area = 7;
    const carer = await createUser(t.db);
    const quiet = await person(place(0.4));
    const cat = await createCat(t.db, carer.id, { name: 'Nube' });
    await api.setInApp(quiet, 'cat_missing_nearby', false);
    await raise(carer, cat.id, place(0));
    await api.ok(carer, 'DELETE', `/api/cats/${cat.id}/missing`);
    expect(await toldAbout(cat.id, 'cat_missing_nearby')).toEqual([]);
    // Switched on again the same day: the next alert reaches them.
    await api.setInApp(quiet, 'cat_missing_nearby', true);
    await raise(carer, cat.id, place(0));
    expect(await toldAbout(cat.id, 'cat_missing_nearby')).toEqual([quiet.id]);
  });
});
