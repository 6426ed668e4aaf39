import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  EDIT_MESSAGES,
  type EditPostResponse,
  type ExploreResponse,
  type GroupMapResponse,
  type Post,
  type PostDetail,
} from '@cats/contracts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createUser, type CreatedUser } from '../../../test/factories.ts';
import { call, createGroup, smallJpeg, uploadPost } from '../../../test/hostile/support/world.ts';
import { mapChanges, postVersions, posts } from '../../db/schema/index.ts';
import { approximateLocation } from '../location/location-grid.ts';

/**
 * Issue 26, 'Spot without GPS': the author sets, corrects or removes a post's place in Edit. The
 * location rule applies to the new place as to any, and everything that shows a post's place (post
 * page, feed, explore markers and clusters, group maps) follows at once.
 */
let t: TestApp;
let seed = 26_000;
let owner: CreatedUser;
type Headers = Record<string, string>;
let own: Headers;
let strangers: Headers;
let members: Headers;
let groupId: string;

/**
 * A place of its own for each use, in London: ~2 km apart, so that no two posts share a map marker,
 * with decimals no cell centre has.
 */
let places = 0;
function place() {
  places += 1;
  return {
    latitude: Number((51.4 + places * 0.018 + 0.000_312_3).toFixed(7)),
    longitude: Number((-0.3 + places * 0.028 + 0.000_456_7).toFixed(7)),
  };
}

beforeAll(async () => {
  t = await buildTestApp();
  owner = await createUser(t.db);
  own = await authHeader(t.app, owner.id);
  strangers = await authHeader(t.app, (await createUser(t.db)).id);
  const member = await createUser(t.db);
  members = await authHeader(t.app, member.id);
  const group = await createGroup(t.app, own, 'Rooftops');
  groupId = group._id;
  const joined = await call(t.app, members, 'POST', '/api/groups/joinGroup', { submitData: group.code });
  expect(joined.statusCode, joined.body).toBe(200);
  const accepted = await call(t.app, own, 'POST', `/api/groups/${groupId}/requests/${member.id}/accept`);
  expect(accepted.statusCode, accepted.body).toBe(200);
});
afterAll(async () => {
  await t.close();
});

/** A post as the Spot screen sends it: with a place (and that place in exifData) or without one. */
async function spot(at: { latitude: number; longitude: number } | null, shared = false): Promise<Post> {
  const fields: Record<string, string> = { comment: 'On the wall', showLocation: 'true' };
  if (at) {
    fields.latitude = String(at.latitude);
    fields.longitude = String(at.longitude);
    fields.exifData = JSON.stringify({ ...at, DateTimeOriginal: '2024-05-01T10:00:00.000Z' });
  }
  if (shared) fields.groupIds = JSON.stringify([groupId]);
  return uploadPost(t.app, own, await smallJpeg((seed += 1)), fields);
}

const edit = (headers: Headers, postId: string, body: unknown) =>
  call(t.app, headers, 'PATCH', `/api/posts/${postId}`, body);

async function page(headers: Headers, postId: string): Promise<PostDetail> {
  const res = await call(t.app, headers, 'GET', `/api/posts/${postId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PostDetail;
}

/** Where the viewer's explore map puts the post in a small viewport around a place; null if nowhere. */
async function onExplore(headers: Headers, postId: string, around: { latitude: number; longitude: number }) {
  const q = new URLSearchParams({
    west: String(around.longitude - 0.02),
    south: String(around.latitude - 0.02),
    east: String(around.longitude + 0.02),
    north: String(around.latitude + 0.02),
    zoom: '16',
  });
  const res = await call(t.app, headers, 'GET', `/api/explore?${q}`);
  expect(res.statusCode, res.body).toBe(200);
  const marker = (res.json() as ExploreResponse).markers?.find((m) => m._id === postId);
  return marker ? [marker.latitude, marker.longitude] : null;
}

async function stored(postId: string) {
  const [row] = await t.db
    .select({
      caption: posts.caption,
      latitude: posts.latitude,
      longitude: posts.longitude,
      showLocation: posts.showLocation,
      exifData: posts.exifData,
      editedAt: posts.editedAt,
    })
    .from(posts)
    .where(eq(posts.id, postId));
  const versions = await t.db.select().from(postVersions).where(eq(postVersions.postId, postId));
  const changes = await t.db.select().from(mapChanges).where(eq(mapChanges.postId, postId));
  return { row, versions: versions.length, mapChanges: changes.length };
}

const cell = (at: { latitude: number; longitude: number }) => {
  const c = approximateLocation(at.latitude, at.longitude);
  return [c.latitude, c.longitude];
};

describe('PATCH /api/posts/{postId} with a location', () => {
  it('sets a place on a post without one: exact for the owner, hidden from others until switched on', async () => {
    const SECOND = place();
    const post = await spot(null);
    expect(post).toMatchObject({ latitude: null, longitude: null, showLocation: false });
    const res = await edit(own, post._id, SECOND);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as EditPostResponse;
    expect(body.message).toBe('Picture updated');
    expect(body.post).toMatchObject({ ...SECOND, locationPrecision: 'exact', showLocation: false });
    // A place is no text: no version, no 'edited' mark (the history, public, never holds a place).
    expect(body.post.editedAt).toBeNull();
    expect(await stored(post._id)).toMatchObject({ versions: 0, row: { editedAt: null } });
    // An edit never publishes a place the owner had not chosen to show.
    expect(await page(strangers, post._id)).toMatchObject({ latitude: null, locationPrecision: null });
    expect(await onExplore(strangers, post._id, SECOND)).toBeNull();

    const toggled = await call(t.app, own, 'PUT', `/api/posts/toggleLocation/${post._id}`, {});
    expect(toggled.statusCode, toggled.body).toBe(200);
    const [latitude, longitude] = cell(SECOND);
    expect(await page(strangers, post._id)).toMatchObject({
      latitude,
      longitude,
      locationPrecision: 'approximate',
    });
    expect(await onExplore(strangers, post._id, SECOND)).toEqual(cell(SECOND));
    expect(await onExplore(own, post._id, SECOND)).toEqual([SECOND.latitude, SECOND.longitude]);
  });

  it('moves a shown post: post page, the explore map (one index for markers and clusters) and the group map follow at once', async () => {
    const [FIRST, SECOND] = [place(), place()];
    const post = await spot(FIRST, true);
    expect(await onExplore(strangers, post._id, FIRST)).toEqual(cell(FIRST));
    const before = await stored(post._id);

    const res = await edit(own, post._id, { ...SECOND, caption: 'Moved along' });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as EditPostResponse).post).toMatchObject({
      ...SECOND,
      caption: 'Moved along',
      showLocation: true,
      locationPrecision: 'exact',
    });
    // Strangers: the new cell, nothing at the old place; nowhere the exact decimals.
    const seen = await call(t.app, strangers, 'GET', `/api/posts/${post._id}`);
    expect(seen.json()).toMatchObject({ latitude: cell(SECOND)[0], longitude: cell(SECOND)[1] });
    expect(seen.body).not.toContain(String(SECOND.latitude));
    expect(await onExplore(strangers, post._id, FIRST)).toBeNull();
    expect(await onExplore(strangers, post._id, SECOND)).toEqual(cell(SECOND));
    // Members of the group see the new place exactly on its map.
    const groupMap = await call(t.app, members, 'GET', `/api/groups/${groupId}/map`);
    const onGroupMap = (groupMap.json() as GroupMapResponse).posts.find((p) => p._id === post._id);
    expect(onGroupMap).toMatchObject({ ...SECOND, locationPrecision: 'exact' });

    const after = await stored(post._id);
    // The caption's old version is kept, the place is not; the map's change log has the move.
    expect(after.versions).toBe(1);
    expect(after.mapChanges).toBeGreaterThan(before.mapChanges);
    // The photo's own GPS goes from the stored metadata; the rest of it stays.
    expect(JSON.parse(after.row!.exifData!)).toEqual({ DateTimeOriginal: '2024-05-01T10:00:00.000Z' });
  });

  it('removes the place: no coordinates, switched off, on no map, gone from the stored metadata', async () => {
    const FIRST = place();
    const post = await spot(FIRST, true);
    const res = await edit(own, post._id, { latitude: null, longitude: null });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as EditPostResponse).post).toMatchObject({
      latitude: null,
      longitude: null,
      locationPrecision: null,
      showLocation: false,
    });
    expect(await onExplore(strangers, post._id, FIRST)).toBeNull();
    expect(await onExplore(own, post._id, FIRST)).toBeNull();
    const groupMap = await call(t.app, members, 'GET', `/api/groups/${groupId}/map`);
    expect((groupMap.json() as GroupMapResponse).posts.map((p) => p._id)).not.toContain(post._id);
    const after = await stored(post._id);
    expect(after.row).toMatchObject({ latitude: null, longitude: null, showLocation: false, editedAt: null });
    expect(after.row!.exifData).not.toMatch(/latitude|longitude/);
    // Setting a place again later keeps it off until the owner switches it on.
    const again = await edit(own, post._id, FIRST);
    expect((again.json() as EditPostResponse).post).toMatchObject({ ...FIRST, showLocation: false });
  });

  it('answers an edit to the same place as a change of nothing', async () => {
    const FIRST = place();
    const post = await spot(FIRST);
    const before = await stored(post._id);
    const res = await edit(own, post._id, FIRST);
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored(post._id)).toEqual(before);
  });

  it('refuses half a place and places out of range with a clear message, changing nothing', async () => {
    const FIRST = place();
    const post = await spot(FIRST);
    const before = await stored(post._id);
    const pair = EDIT_MESSAGES.locationPair;
    const refusals = [
      [{ latitude: 51.5 }, pair],
      [{ longitude: -0.1, caption: 'Half' }, pair],
      [{ latitude: 51.5, longitude: null }, pair],
      [{ latitude: null }, pair],
      [{ latitude: 90.5, longitude: 0 }, 'Latitude must be a number between -90 and 90'],
      [{ latitude: 0, longitude: -180.01 }, 'Longitude must be a number between -180 and 180'],
      [{ latitude: '51.5', longitude: '-0.1' }, 'Latitude must be a number between -90 and 90'],
    ] as const;
    for (const [body, message] of refusals) {
      const res = await edit(own, post._id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toEqual({ message });
    }
    expect(await stored(post._id)).toEqual(before);
  });

  it('refuses others who see the post (403) and the demo account (403), changing nothing', async () => {
    const [FIRST, SECOND] = [place(), place()];
    const post = await spot(FIRST);
    const before = await stored(post._id);
    const other = await edit(strangers, post._id, SECOND);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ message: EDIT_MESSAGES.notOwner });
    const removal = await edit(members, post._id, { latitude: null, longitude: null });
    expect(removal.statusCode).toBe(403);
    const demo = await edit(await authHeader(t.app, DEMO_USER_ID), post._id, SECOND);
    expect(demo.statusCode).toBe(403);
    expect(demo.json()).toEqual({ message: DEMO_DISABLED_MESSAGE });
    expect(await stored(post._id)).toEqual(before);
    expect(await onExplore(strangers, post._id, FIRST)).toEqual(cell(FIRST));
  });
});
