import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_USER_ID,
  type CreateGroupResponse,
  type ExploreResponse,
  type GroupMapResponse,
  type Post,
} from '@cats/contracts';
import { groupMembers } from '../../src/db/schema/index.ts';
import { LOCATION_GRID_DEGREES, locationCell } from '../../src/modules/location/location-grid.ts';
import { buildTestApp, type TestApp } from '../build-app.ts';
import { unzip } from '../unzip.ts';
import { authHeader, createUser } from '../factories.ts';
import { fixture, multipartBody } from '../fixtures/images.ts';
import {
  allowedPrecision,
  assertLocationRule,
  metres,
  walkGetRoutes,
  type Secret,
  type WalkedAnswer,
  type WalkViewer,
} from './location-walk.ts';

/**
 * Issue 23: every GET route of the API, as the author, a group member, a stranger, a blocked user and
 * the demo account (a member of the group, as the seed makes it), against posts that cover the rule:
 * located or not, switched on or off, shared with a group or not, by an author with exact public
 * locations or the default ~500 m cells.
 */

type Name = 'owner' | 'member' | 'stranger' | 'blocked' | 'demo' | 'exactOwner';

/**
 * A point ~300 m from its cell's centre (near the south-west corner), `km` north and `km` east of a
 * London origin: an approximate answer can never pass for the exact one, the secrets' cells are far
 * apart, and no two secrets share a latitude or a longitude (the text checks look for the decimals).
 */
function awkwardPoint(km: number): { latitude: number; longitude: number } {
  const origin = locationCell(51.45 + km * 0.009, -0.3 + km * 0.0144);
  return {
    latitude: Number((origin.south + 0.000_412_37).toFixed(8)),
    longitude: Number((origin.west + 0.000_591_53).toFixed(8)),
  };
}

describe('the location rule on every GET route', () => {
  let t: TestApp;
  const ids = {} as Record<Name, string>;
  let viewers: WalkViewer[];
  let groupId: string;
  const secrets: Secret[] = [];
  const createAnswers: { viewer: Name; text: string }[] = [];
  let answers: WalkedAnswer[];

  const headers = (name: Name) => authHeader(t.app, ids[name]);

  async function upload(
    author: Name,
    name: string,
    at: { latitude: number; longitude: number } | null,
    show: boolean,
    share: boolean,
  ) {
    const fields: Record<string, string> = { comment: name, showLocation: String(show) };
    if (at) {
      fields.latitude = String(at.latitude);
      fields.longitude = String(at.longitude);
      // What the Spot screen sends: the photo's metadata, GPS included. It must never be served.
      fields.exifData = JSON.stringify(at);
    }
    if (share) fields.groupIds = JSON.stringify([groupId]);
    const body = multipartBody(fields, {
      name: 'cat.jpg',
      type: 'image/jpeg',
      data: fixture(at ? 'photo-no-gps.jpg' : 'photo-gps.jpg'),
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/posts/createPost',
      headers: { ...(await headers(author)), ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    createAnswers.push({ viewer: author, text: res.body });
    const post = (res.json() as { post: Post }).post;
    expect(post.groupIds).toEqual(share ? [groupId] : []);
    expect(post.latitude).not.toBeNull();
    const members = new Set([ids.owner, ids.member, DEMO_USER_ID]);
    secrets.push({
      name,
      id: post._id,
      authorId: ids[author],
      latitude: post.latitude!,
      longitude: post.longitude!,
      showLocation: show,
      exactPublic: author === 'exactOwner',
      sharedWith: share ? members : new Set(),
    });
  }

  beforeAll(async () => {
    t = await buildTestApp();
    for (const name of ['owner', 'member', 'stranger', 'blocked'] as const)
      ids[name] = (await createUser(t.db)).id;
    ids.exactOwner = (await createUser(t.db, { exactPublicLocation: true })).id;
    ids.demo = DEMO_USER_ID;

    const created = await t.app.inject({
      method: 'POST',
      url: '/api/groups/createGroup',
      headers: await headers('owner'),
      payload: { submitData: 'Rooftops' },
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
      url: `/api/groups/${groupId}/requests/${ids.member}/accept`,
      headers: await headers('owner'),
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    // As the seed does for the sample group: the demo account cannot ask to join (it writes nothing).
    await t.db.insert(groupMembers).values({ groupId, userId: DEMO_USER_ID, role: 'member' });

    await upload('owner', 'on, shared', awkwardPoint(0), true, true);
    await upload('owner', 'on, not shared', awkwardPoint(2), true, false);
    await upload('owner', 'off, shared', awkwardPoint(4), false, true);
    await upload('owner', 'off, not shared', awkwardPoint(6), false, false);
    await upload('member', "a member's, on, shared", awkwardPoint(8), true, true);
    await upload('exactOwner', 'exact public, on', awkwardPoint(10), true, false);
    await upload('exactOwner', 'exact public, off', awkwardPoint(12), false, false);
    // GPS read from the photo itself (Málaga): no coordinates sent by the client.
    await upload('owner', 'photo GPS, on, shared', null, true, true);
    // Deleted to the trash (issue 24): shown and shared before, now its author's alone.
    await upload('owner', 'trashed, on, shared', awkwardPoint(14), true, true);
    const trashed = secrets.at(-1)!;
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/posts/${trashed.id}`,
      headers: await headers('owner'),
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    trashed.trashed = true;

    // Blocks both ways: the owner blocks one user, who blocks the exact-location author.
    for (const [by, whom] of [
      ['owner', 'blocked'],
      ['blocked', 'exactOwner'],
    ] as const) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/profile/blockUser/',
        headers: await headers(by),
        payload: { blockedUser: { _id: ids[whom] } },
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
    }

    const blockedWith: Record<Name, string[]> = {
      owner: [ids.blocked],
      blocked: [ids.owner, ids.exactOwner],
      exactOwner: [ids.blocked],
      member: [],
      stranger: [],
      demo: [],
    };
    viewers = await Promise.all(
      (['owner', 'member', 'stranger', 'blocked', 'demo', 'exactOwner'] as const).map(async (name) => ({
        name,
        userId: ids[name],
        isDemo: name === 'demo',
        headers: await headers(name),
        blockedWith: new Set(blockedWith[name]),
      })),
    );

    // The secrets' cells must be far apart for the checks' distances to mean what they say.
    for (const a of secrets) {
      for (const b of secrets) {
        if (a !== b)
          expect(
            metres({ lat: a.latitude, lon: a.longitude }, { lat: b.latitude, lon: b.longitude }),
          ).toBeGreaterThan(1500);
      }
    }

    // The cluster route is walked with the ids of the clusters each viewer's own viewports showed.
    for (const viewer of viewers) {
      const found = new Set<string>();
      for (const q of VIEWPORTS) {
        const res = await t.app.inject({ method: 'GET', url: `/api/explore?${q}`, headers: viewer.headers });
        for (const c of (res.json() as ExploreResponse).clusters ?? []) found.add(c.id);
      }
      clusterIds.set(viewer.userId, [...found]);
    }

    // Everyone but the demo (which may not) has a ready data export, so its download is walked as a zip
    // of the viewer's own data (issue 24): each sees only their own, and their own positions exactly.
    for (const viewer of viewers.filter((v) => !v.isDemo)) {
      const started = await t.app.inject({
        method: 'POST',
        url: '/api/profile/export',
        headers: viewer.headers,
      });
      expect(started.statusCode, started.body).toBe(202);
    }
    for (const viewer of viewers.filter((v) => !v.isDemo)) {
      for (let tries = 0; ; tries += 1) {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/profile/export',
          headers: viewer.headers,
        });
        const status = (res.json() as { status: string }).status;
        if (status === 'ready') break;
        expect(status, viewer.name).toBe('running');
        expect(tries, `${viewer.name}'s export still running`).toBeLessThan(400);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    const authors = [ids.owner, ids.member, ids.exactOwner, ids.blocked];
    const allIds = secrets.map((s) => s.id).join(',');
    answers = await walkGetRoutes(
      t.app,
      viewers,
      (viewer) => ({
        params: {
          postId: secrets.map((s) => s.id),
          groupId: [groupId],
          userid: authors,
          userId: authors,
          page: ['1', '2'],
          clusterId: clusterIdsFor(viewer),
        },
        queries: {
          user: authors.map((a) => `user=${a}&pagenum=1`),
          ids: [`ids=${allIds}`],
          west: VIEWPORTS,
        },
      }),
      secrets,
    );
  }, 120_000);
  afterAll(async () => t?.close());

  /** Viewports of a 1280 x 800 px screen at several zooms, over London and over Málaga. */
  const VIEWPORTS = [3, 6, 9, 11, 13, 15, 18].flatMap((zoom) =>
    (
      [
        [51.5, -0.2],
        [36.72, -4.42],
      ] as const
    ).map(([lat, lon]) => {
      const halfLon = (360 * 1280) / (256 * 2 ** zoom) / 2;
      const halfLat = Math.min(85, halfLon * 0.6);
      return new URLSearchParams({
        west: String(lon - halfLon),
        south: String(Math.max(-85, lat - halfLat)),
        east: String(lon + halfLon),
        north: String(Math.min(85, lat + halfLat)),
        zoom: String(zoom),
      }).toString();
    }),
  );

  /** Cluster ids are read from the viewer's own viewports before the cluster route is walked. */
  const clusterIds = new Map<string, string[]>();
  function clusterIdsFor(viewer: WalkViewer): string[] {
    const found = clusterIds.get(viewer.userId) ?? [];
    // A viewer who sees too few posts for a cluster still asks the route once (a 404).
    return found.length > 0 ? found : ['no-such-cluster'];
  }

  it('walks every GET route, each answering at least one viewer with 200', () => {
    const routes = new Map<string, number[]>();
    for (const a of answers) routes.set(a.route.key, [...(routes.get(a.route.key) ?? []), a.res.statusCode]);
    // A route that never answered 200 was never really asked (a parameter the walk fills wrongly).
    const unanswered = [...routes].filter(([key, codes]) => !codes.includes(200) && !NO_200.has(key));
    expect(unanswered).toEqual([]);
    for (const route of ['GET /api/feed/:page', 'GET /api/groups/:groupId/map', 'GET /api/explore']) {
      expect(routes.has(route), route).toBe(true);
    }
  });

  it('shows every secret to its author exactly and as the rule says to everyone else, in the feed', () => {
    for (const viewer of viewers) {
      const feed = answers.find((a) => a.viewer === viewer && a.url === '/api/feed/1')!;
      const posts = new Map((feed.res.json() as { posts: Post[] }).posts.map((p) => [p._id, p]));
      for (const s of secrets) {
        const allowed = allowedPrecision(viewer, s);
        // Every secret the viewer may see is in their feed, so the rule really was checked on it (a
        // trashed one only in its author's trash, walked too).
        expect(posts.has(s.id), `${viewer.name}: ${s.name}`).toBe(allowed !== null && !s.trashed);
      }
    }
  });

  it('the group map and every map count leave switched-off posts out, whoever looks', async () => {
    for (const viewer of viewers) {
      const map = answers.find((a) => a.viewer === viewer && a.url === `/api/groups/${groupId}/map`)!;
      const isMember = [ids.owner, ids.member, DEMO_USER_ID].includes(viewer.userId);
      expect(map.res.statusCode, viewer.name).toBe(isMember ? 200 : 404);
      if (!isMember) continue;
      const onMap = (map.res.json() as GroupMapResponse).posts.map((p) => p._id).sort();
      const expected = secrets
        .filter(
          (s) => s.sharedWith.size > 0 && s.showLocation && !s.trashed && !viewer.blockedWith.has(s.authorId),
        )
        .map((s) => s.id)
        .sort();
      expect(onMap, viewer.name).toEqual(expected);

      // A viewport holding every London secret: markers and cluster counts add up to the posts whose
      // location is on (the viewer's own switched-off posts are on no public map either).
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/explore?west=-0.4&south=51.4&east=0&north=51.6&zoom=9',
        headers: viewer.headers,
      });
      const viewport = res.json() as ExploreResponse;
      const counted =
        (viewport.markers?.length ?? 0) + (viewport.clusters ?? []).reduce((n, c) => n + c.count, 0);
      const london = secrets.filter(
        (s) => s.latitude > 51 && s.showLocation && !s.trashed && allowedPrecision(viewer, s) !== null,
      );
      expect(counted, viewer.name).toBe(london.length);
    }
  });

  it("each data export holds its owner's posts exactly placed, the trashed one too, and no one else's", async () => {
    for (const viewer of viewers) {
      const answer = answers.find((a) => a.viewer === viewer && a.url === '/api/profile/export/download')!;
      if (viewer.isDemo) {
        expect(answer.res.statusCode).toBe(404);
        continue;
      }
      expect(answer.res.statusCode, viewer.name).toBe(200);
      const files = await unzip(answer.res.rawPayload);
      const exported = JSON.parse(files.get('posts.json')!.toString('utf8')) as {
        id: string;
        latitude: number;
        longitude: number;
      }[];
      const own = secrets.filter((s) => s.authorId === viewer.userId);
      expect(exported.map((p) => [p.id, p.latitude, p.longitude]).sort(), viewer.name).toEqual(
        own.map((s) => [s.id, s.latitude, s.longitude]).sort(),
      );
    }
  });

  it("the author's trash holds the trashed secret, exactly placed; nobody else's does", () => {
    const trashed = secrets.filter((s) => s.trashed);
    expect(trashed).toHaveLength(1);
    for (const viewer of viewers) {
      const answer = answers.find((a) => a.viewer === viewer && a.url === '/api/posts/trash')!;
      expect(answer.res.statusCode, viewer.name).toBe(200);
      const posts = (answer.res.json() as { posts: Post[] }).posts;
      if (viewer.name !== 'owner') expect(posts, viewer.name).toEqual([]);
      else {
        expect(posts.map((p) => [p._id, p.latitude, p.longitude])).toEqual([
          [trashed[0]!.id, trashed[0]!.latitude, trashed[0]!.longitude],
        ]);
      }
    }
  });

  it('createPost answers the author exactly and serves the EXIF data to no one', () => {
    const owner = viewers.find((v) => v.name === 'owner')!;
    for (const { viewer, text } of createAnswers) {
      assertLocationRule(
        viewers.find((v) => v.name === viewer)!,
        'createPost',
        text,
        secrets,
      );
      expect(text).not.toContain('exifData');
    }
    for (const a of answers) expect(a.res.body, `${a.viewer.name} ${a.url}`).not.toContain('exifData');
    expect(owner).toBeDefined();
  });

  it('gives the demo account no join code and no more precision than a brand-new account', () => {
    const demo = viewers.find((v) => v.name === 'demo')!;
    const stranger = viewers.find((v) => v.name === 'stranger')!;
    for (const s of secrets) expect(allowedPrecision(demo, s)).toBe(allowedPrecision(stranger, s));
    const detail = answers.find((a) => a.viewer === demo && a.url === `/api/groups/${groupId}`)!;
    expect(detail.res.statusCode).toBe(200);
    expect(detail.res.json()).not.toHaveProperty('code');
    const member = answers.find((a) => a.viewer.name === 'member' && a.url === `/api/groups/${groupId}`)!;
    expect(member.res.json()).toHaveProperty('code');
  });

  it('uses cells of ~500 m: no secret is closer than 200 m to the centre others see', () => {
    for (const s of secrets) {
      const cell = locationCell(s.latitude, s.longitude);
      expect(cell.north - cell.south).toBeCloseTo(LOCATION_GRID_DEGREES, 9);
      if (s.name.startsWith('photo GPS')) continue; // the fixture's own spot, wherever it falls
      expect(
        metres(
          { lat: s.latitude, lon: s.longitude },
          { lat: cell.centre.latitude, lon: cell.centre.longitude },
        ),
      ).toBeGreaterThan(200);
    }
  });

  /** Routes that answer 200 to nobody in this world, with the reason. */
  const NO_200 = new Map<string, string>([
    ['GET /api/refresh', 'needs the refresh cookie, not a bearer token'],
    ['GET /api/logout', 'answers 204'],
  ]);
});
