import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER_ID, type CreateGroupResponse, type Post } from '@cats/contracts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createUser, type CreatedUser } from '../../../test/factories.ts';
import { LOCATION_GRID_DEGREES, approximateLocation } from '../posts/post-view.ts';

/**
 * Issue 7 point 6: exact coordinates leave the server only for the post's owner, for members of a
 * group the post is shared with (in that group's endpoints), and for everyone when the owner chose
 * exact public locations. This walks every endpoint that answers posts, as owner, group member,
 * stranger and demo user, and looks for the exact values anywhere in each answer: as numbers next to
 * each other (any latitude/longitude pair within 100 m) and as text (the exact decimals).
 */

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'images');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

function multipart(fields: Record<string, string>, file: Buffer) {
  const boundary = `----cats${randomUUID()}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cat.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
  return {
    payload: Buffer.concat([
      Buffer.from(parts.join('') + head),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Metres between two points (equirectangular is plenty at these distances). */
function metres(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const x = (b.lon - a.lon) * rad * Math.cos(((a.lat + b.lat) / 2) * rad);
  const y = (b.lat - a.lat) * rad;
  return Math.sqrt(x * x + y * y) * 6_371_000;
}

interface Pair {
  lat: number;
  lon: number;
  path: string;
}

/** Every object in the answer with numeric latitude and longitude (posts, clusters, anything else). */
function coordinatePairs(value: unknown, path = '$', out: Pair[] = []): Pair[] {
  if (Array.isArray(value)) value.forEach((v, i) => coordinatePairs(v, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.latitude === 'number' && typeof o.longitude === 'number') {
      out.push({ lat: o.latitude, lon: o.longitude, path });
    }
    for (const [k, v] of Object.entries(o)) coordinatePairs(v, `${path}.${k}`, out);
  }
  return out;
}

type Viewer = 'owner' | 'member' | 'stranger' | 'demo' | 'exactOwner';
type Kind = 'public' | 'group';

interface Secret {
  name: string;
  id: string;
  lat: number;
  lon: number;
  showLocation: boolean;
  sharedWithGroup: boolean;
  /** Owned by the user who chose exact public locations. */
  exactPublic: boolean;
}

/** Whether `viewer` may receive the exact coordinates of `post` from an endpoint of this kind. */
function mayKnowExact(viewer: Viewer, post: Secret, kind: Kind): boolean {
  const owner: Viewer = post.exactPublic ? 'exactOwner' : 'owner';
  if (viewer === owner) return true;
  if (kind === 'group' && post.sharedWithGroup && (viewer === 'member' || viewer === 'owner')) return true;
  return post.exactPublic && post.showLocation;
}

describe('location privacy across every endpoint that answers posts', () => {
  let t: TestApp;
  let users: Record<Viewer, { id: string }>;
  let groupId: string;
  const secrets: Secret[] = [];
  const createResponses: { owner: Viewer; text: string }[] = [];

  const headers = async (viewer: Viewer) => authHeader(t.app, users[viewer].id);

  async function upload(owner: Viewer, fields: Record<string, string>, file: Buffer) {
    const form = multipart(fields, file);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/posts/createPost',
      headers: { ...(await headers(owner)), 'content-type': form.contentType },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    createResponses.push({ owner, text: res.body });
    return (res.json() as { post: Post }).post;
  }

  /**
   * A point ~45 m inside the south-west corner of its grid cell, ~300 m from the cell's centre, so an
   * approximate answer can never pass for the exact one.
   */
  function awkwardPoint(lat: number, lon: number) {
    const step = LOCATION_GRID_DEGREES;
    const row = Math.floor(lat / step);
    const lonStep = step / Math.cos(((row + 0.5) * step * Math.PI) / 180);
    const point = {
      lat: row * step + 0.000_412_37,
      lon: Math.floor(lon / lonStep) * lonStep + 0.000_391_53,
    };
    const centre = approximateLocation(point.lat, point.lon);
    expect(metres(point, { lat: centre.latitude, lon: centre.longitude })).toBeGreaterThan(200);
    return point;
  }

  beforeAll(async () => {
    t = await buildTestApp();
    const owner = await createUser(t.db);
    const member = await createUser(t.db);
    const stranger = await createUser(t.db);
    const exactOwner = await createUser(t.db, { exactPublicLocation: true });
    users = { owner, member, stranger, exactOwner, demo: { id: DEMO_USER_ID } } satisfies Record<
      Viewer,
      CreatedUser | { id: string }
    >;

    // The owner's group, which the member joins through a request.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/groups/createGroup',
      headers: await headers('owner'),
      payload: { submitData: 'Privacy' },
    });
    const group = (created.json() as CreateGroupResponse).group;
    groupId = group._id;
    await t.app.inject({
      method: 'POST',
      url: '/api/groups/joinGroup',
      headers: await headers('member'),
      payload: { submitData: group.code },
    });
    const accepted = await t.app.inject({
      method: 'POST',
      url: `/api/groups/${groupId}/requests/${member.id}/accept`,
      headers: await headers('owner'),
    });
    expect(accepted.statusCode).toBe(200);

    const photo = fixture('photo-no-gps.jpg');
    const plan: {
      name: string;
      owner: Viewer;
      at: { lat: number; lon: number };
      show: boolean;
      share: boolean;
    }[] = [
      {
        name: 'hidden, shared',
        owner: 'owner',
        at: awkwardPoint(51.501_234_57, -0.141_987_65),
        show: false,
        share: true,
      },
      {
        name: 'shown, not shared',
        owner: 'owner',
        at: awkwardPoint(51.512_987_61, -0.102_345_19),
        show: true,
        share: false,
      },
      {
        name: 'shown, shared',
        owner: 'owner',
        at: awkwardPoint(51.523_456_83, -0.083_216_47),
        show: true,
        share: true,
      },
      {
        name: 'exact public, shown',
        owner: 'exactOwner',
        at: awkwardPoint(51.534_567_29, -0.124_681_37),
        show: true,
        share: false,
      },
      {
        name: 'exact public, hidden',
        owner: 'exactOwner',
        at: awkwardPoint(51.545_678_91, -0.135_792_43),
        show: false,
        share: false,
      },
    ];
    for (const p of plan) {
      const post = await upload(
        p.owner,
        {
          comment: p.name,
          latitude: String(p.at.lat),
          longitude: String(p.at.lon),
          showLocation: String(p.show),
          // What the Spot screen sends: the photo's metadata, GPS included. It must never be served.
          exifData: JSON.stringify({ latitude: p.at.lat, longitude: p.at.lon }),
          ...(p.share ? { groupIds: JSON.stringify([groupId]) } : {}),
        },
        photo,
      );
      expect(post.latitude).toBe(p.at.lat);
      expect(post.groupIds).toEqual(p.share ? [groupId] : []);
      secrets.push({
        name: p.name,
        id: post._id,
        lat: p.at.lat,
        lon: p.at.lon,
        showLocation: p.show,
        sharedWithGroup: p.share,
        exactPublic: p.owner === 'exactOwner',
      });
    }
    // GPS read from the photo itself (no coordinates sent), shared afterwards through the share route.
    const gps = await upload(
      'owner',
      { comment: 'from EXIF', showLocation: 'true' },
      fixture('photo-gps.jpg'),
    );
    expect(gps.latitude).not.toBeNull();
    const shared = await t.app.inject({
      method: 'PUT',
      url: `/api/posts/${gps._id}/groups`,
      headers: await headers('owner'),
      payload: { groupIds: [groupId] },
    });
    expect(shared.json()).toEqual({ groupIds: [groupId] });
    secrets.push({
      name: 'EXIF GPS, shown, shared',
      id: gps._id,
      lat: gps.latitude!,
      lon: gps.longitude!,
      showLocation: true,
      sharedWithGroup: true,
      exactPublic: false,
    });
  });
  afterAll(async () => t?.close());

  /** Asserts the privacy rule on one answer; returns the posts it held, by id. */
  function check(viewer: Viewer, kind: Kind, url: string, text: string): Map<string, Post> {
    const body = JSON.parse(text) as unknown;
    const pairs = coordinatePairs(body);
    const posts = new Map<string, Post>();
    const collect = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(collect);
      else if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if (typeof o._id === 'string' && 'imageUrl' in o) posts.set(o._id, o as unknown as Post);
        Object.values(o).forEach(collect);
      }
    };
    collect(body);
    for (const s of secrets) {
      const where = `${viewer} ${url}: ${s.name}`;
      if (mayKnowExact(viewer, s, kind)) {
        const post = posts.get(s.id);
        if (post) {
          expect([post.latitude, post.longitude, post.locationPrecision], where).toEqual([
            s.lat,
            s.lon,
            'exact',
          ]);
        }
        continue;
      }
      expect(text.includes(String(s.lat)), `${where}: exact latitude in the text`).toBe(false);
      expect(text.includes(String(s.lon)), `${where}: exact longitude in the text`).toBe(false);
      const cell = approximateLocation(s.lat, s.lon);
      for (const p of pairs) {
        // Its own grid-cell centre is what others may know, however close the photo was taken to it.
        if (p.lat === cell.latitude && p.lon === cell.longitude) continue;
        expect(metres({ lat: s.lat, lon: s.lon }, p), `${where} at ${p.path}`).toBeGreaterThan(100);
      }
      const post = posts.get(s.id);
      if (!post) continue;
      if (s.showLocation) {
        expect([post.latitude, post.longitude, post.locationPrecision], where).toEqual([
          cell.latitude,
          cell.longitude,
          'approximate',
        ]);
      } else {
        expect([post.latitude, post.longitude, post.locationPrecision], where).toEqual([null, null, null]);
      }
    }
    return posts;
  }

  async function get(viewer: Viewer, url: string) {
    const res = await t.app.inject({ method: 'GET', url, headers: await headers(viewer) });
    return res;
  }

  const viewers: Viewer[] = ['owner', 'member', 'stranger', 'demo', 'exactOwner'];

  /** Every endpoint in the OpenAPI document whose answer can hold coordinates, minus those walked here. */
  it('walks every endpoint whose answer can carry coordinates', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    };
    const carrying: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const ok = op.responses?.['200'] ?? op.responses?.['201'];
        if (ok && JSON.stringify(ok).includes('"latitude"')) carrying.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(carrying.sort()).toEqual(
      [
        'GET /api/explore',
        'GET /api/explore/clusters/{clusterId}/posts',
        'GET /api/explore/posts',
        'GET /api/feed/{page}',
        'GET /api/groups/{groupId}/map',
        'GET /api/groups/{groupId}/posts',
        'GET /api/profile/getPosts',
        'POST /api/posts/createPost',
      ].sort(),
    );
  });

  it('createPost answers the owner exactly and gives the EXIF data to no one', () => {
    expect(createResponses).toHaveLength(secrets.length);
    for (const { owner, text } of createResponses) check(owner, 'public', 'createPost', text);
    // exifData (sent with GPS in it) is not part of any answer, not even the owner's.
    for (const { text } of createResponses) expect(text).not.toContain('exifData');
  });

  it('the feed', async () => {
    for (const viewer of viewers) {
      const res = await get(viewer, '/api/feed/1');
      expect(res.statusCode).toBe(200);
      const posts = check(viewer, 'public', 'feed', res.body);
      // Every secret post is in everyone's feed (none hidden, no blocks): the checks above really ran.
      for (const s of secrets) expect(posts.has(s.id), `${viewer} feed has ${s.name}`).toBe(true);
    }
  });

  it("the authors' profiles", async () => {
    for (const viewer of viewers) {
      for (const author of ['owner', 'exactOwner'] as const) {
        const res = await get(viewer, `/api/profile/getPosts?user=${users[author].id}&pagenum=1`);
        expect(res.statusCode).toBe(200);
        const posts = check(viewer, 'public', `profile of ${author}`, res.body);
        expect(posts.size).toBe(secrets.filter((s) => s.exactPublic === (author === 'exactOwner')).length);
      }
    }
  });

  it('explore: all posts, viewports at several zooms, and posts by id', async () => {
    const ids = secrets.map((s) => s.id).join(',');
    for (const viewer of viewers) {
      const all = await get(viewer, '/api/explore');
      expect(all.statusCode).toBe(200);
      const onMap = check(viewer, 'public', 'explore', all.body);
      // Hidden locations are not on the public map, whoever looks.
      for (const s of secrets) {
        const expected = s.showLocation || viewer === (s.exactPublic ? 'exactOwner' : 'owner');
        if (!expected) expect(onMap.has(s.id), `${viewer} explore: ${s.name}`).toBe(false);
      }
      let viewportAnswers = 0;
      let clusterAnswers = 0;
      for (const zoom of [3, 6, 9, 12, 14, 16, 18]) {
        // A 1280 x 800 px screen at this zoom, over London (the secrets) and over Málaga (the EXIF one).
        for (const [lat, lon] of [
          [51.52, -0.11],
          [36.72, -4.42],
        ] as const) {
          const halfLon = (360 * 1280) / (256 * 2 ** zoom) / 2;
          const halfLat = Math.min(85, halfLon * 0.6);
          const q = new URLSearchParams({
            west: String(lon - halfLon),
            south: String(Math.max(-85, lat - halfLat)),
            east: String(lon + halfLon),
            north: String(Math.min(85, lat + halfLat)),
            zoom: String(zoom),
          });
          const url = `/api/explore?${q.toString()}`;
          const res = await get(viewer, url);
          expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
          viewportAnswers += 1;
          check(viewer, 'public', url, res.body);
          // The posts behind each cluster go through the same serialiser and must be as approximate.
          for (const cluster of (JSON.parse(res.body) as { clusters?: { id: string }[] }).clusters ?? []) {
            const members = await get(
              viewer,
              `/api/explore/clusters/${encodeURIComponent(cluster.id)}/posts`,
            );
            expect(members.statusCode, `cluster ${cluster.id}: ${members.body}`).toBe(200);
            check(viewer, 'public', `cluster ${cluster.id}`, members.body);
            clusterAnswers += 1;
          }
        }
      }
      expect(viewportAnswers, `${viewer}: viewport answers`).toBe(14);
      // At low zooms the secrets (all in London) are clustered, so the cluster endpoint really was walked.
      expect(clusterAnswers, `${viewer}: cluster answers`).toBeGreaterThan(0);
      const byId = await get(viewer, `/api/explore/posts?ids=${ids}`);
      expect(byId.statusCode).toBe(200);
      check(viewer, 'public', 'explore/posts', byId.body);
    }
  });

  it("the group's feed and map: exact for members, closed to everyone else", async () => {
    for (const viewer of viewers) {
      for (const path of ['posts', 'map']) {
        const res = await get(viewer, `/api/groups/${groupId}/${path}`);
        if (viewer === 'owner' || viewer === 'member') {
          expect(res.statusCode).toBe(200);
          const posts = check(viewer, 'group', `group ${path}`, res.body);
          const shared = secrets.filter((s) => s.sharedWithGroup);
          expect([...posts.keys()].sort()).toEqual(shared.map((s) => s.id).sort());
          for (const s of shared) {
            expect(posts.get(s.id)).toMatchObject({
              latitude: s.lat,
              longitude: s.lon,
              locationPrecision: 'exact',
            });
          }
        } else {
          expect(res.statusCode, `${viewer} group ${path}`).toBe(404);
          check(viewer, 'group', `group ${path}`, res.body);
        }
      }
    }
  });

  it('a member who leaves loses the exact locations at once', async () => {
    const member = users.member.id;
    const left = await t.app.inject({
      method: 'DELETE',
      url: `/api/groups/${groupId}/members/${member}`,
      headers: await headers('member'),
    });
    expect(left.statusCode).toBe(200);
    expect((await get('member', `/api/groups/${groupId}/posts`)).statusCode).toBe(404);
    const feed = await get('member', '/api/feed/1');
    check('stranger', 'public', 'feed after leaving', feed.body);
  });
});
