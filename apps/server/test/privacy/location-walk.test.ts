import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import {
  CAT_SUGGESTION_METRES,
  DEMO_USER_ID,
  MODERATION_QUEUE_PAGE_SIZE,
  type CatSuggestionsResponse,
  type CreateGroupResponse,
  type ExploreResponse,
  type GroupMapResponse,
  type MissingAlertResponse,
  type MissingMapResponse,
  type MissingNearResponse,
  type MissingReportsResponse,
  type ModerationQueueResponse,
  type NotificationsResponse,
  type Post,
} from '@cats/contracts';
import { catSuggestions, groupMembers, posts, reports } from '../../src/db/schema/index.ts';
import {
  approximateLocation,
  LOCATION_GRID_DEGREES,
  locationCell,
} from '../../src/modules/location/location-grid.ts';
import { buildTestApp, type TestApp } from '../build-app.ts';
import { parseSse } from '../sse-client.ts';
import { unzip } from '../unzip.ts';
import { authHeader, createUser } from '../factories.ts';
import { fixture, multipartBody } from '../fixtures/images.ts';
import {
  allowedPrecision,
  assertLocationRule,
  catPlaceOf,
  coordinatePairs,
  metres,
  walkGetRoutes,
  walkTicket,
  type PlaceSecret,
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

/** 'moderator' (issue 27): a stranger to every post who also reads the moderation queue. */
type Name = 'owner' | 'member' | 'stranger' | 'blocked' | 'demo' | 'exactOwner' | 'moderator';

/**
 * A point ~300 m from its cell's centre (near the south-west corner), `km` north and `kmEast` (or `km`)
 * east of a London origin: an approximate answer can never pass for the exact one, the secrets' cells are far
 * apart, and no two secrets share a latitude or a longitude (the text checks look for the decimals).
 */
function awkwardPoint(km: number, kmEast = km): { latitude: number; longitude: number } {
  const origin = locationCell(51.45 + km * 0.009, -0.3 + kmEast * 0.0144);
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
  /** The reports of the secrets (issue 27), for the moderators' routes. */
  let reportIds: string[] = [];
  const secrets: Secret[] = [];
  /**
   * Luna: the owner's household cat; Milo: the member's. Their home points lie near two secrets. Twin:
   * a second profile of Luna's, merged into her once the secrets are posted (its id leads to Luna).
   */
  const cats = { luna: '', milo: '', twin: '' };
  const createAnswers: { viewer: Name; text: string }[] = [];
  /** Places their author moved away from or removed in Edit (issue 26): no answer may hold them. */
  const formerPlaces: { name: string; latitude: number; longitude: number }[] = [];
  /** The owner's posts without a place (removed in Edit): in their export, placed nowhere. */
  const unplacedPostIds: string[] = [];
  let answers: WalkedAnswer[];
  /**
   * Missing cats (issue 26): Luna is marked missing by the owner (her caretaker) at a place west of the
   * secrets; the stranger reports seeing her; the member, the stranger and the blocked user have home
   * areas around it. Each of these places is walked as a secret of its own.
   */
  const places: PlaceSecret[] = [];
  const missing = {
    // West of the secrets; in rows and columns of the grid no secret uses (the text checks look for
    // decimals), over 1.1 km from each other and the secrets, the homes within 1.6 km of the last-seen place.
    lastSeen: awkwardPoint(1.6, -4.9),
    report: awkwardPoint(-0.8, -4),
    homes: {
      member: awkwardPoint(2.6, -5.8),
      stranger: awkwardPoint(0.6, -6.2),
      blocked: awkwardPoint(3.3, -4.9),
    },
  };

  const headers = (name: Name) => authHeader(t.app, ids[name]);

  async function upload(
    author: Name,
    name: string,
    at: { latitude: number; longitude: number } | null,
    show: boolean,
    share: boolean,
    catId: string = cats.luna,
  ) {
    // Every secret is a sighting of a cat (issue 26), so the cat routes are walked with each kind. Only
    // a household cat's caretakers link a picture to it (issue 46): the others' are linked below, as
    // the author's acceptance of a caretaker's 'This is…' would link them.
    const caresFor = catId === cats.milo ? author === 'member' : author === 'owner';
    const fields: Record<string, string> = { comment: name, showLocation: String(show) };
    if (caresFor) fields.catId = catId;
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
    // A sighting linked afterwards was answered without its cat: its answer is not walked.
    if (caresFor) createAnswers.push({ viewer: author, text: res.body });
    const post = (res.json() as { post: Post }).post;
    if (!caresFor) await t.db.update(posts).set({ catId }).where(eq(posts.id, post._id));
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
      catId,
    });
  }

  beforeAll(async () => {
    t = await buildTestApp();
    for (const name of ['owner', 'member', 'stranger', 'blocked'] as const)
      ids[name] = (await createUser(t.db)).id;
    ids.exactOwner = (await createUser(t.db, { exactPublicLocation: true })).id;
    ids.moderator = (await createUser(t.db, { role: 'moderator' })).id;
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

    for (const [key, who, name] of [
      ['luna', 'owner', 'Luna'],
      ['milo', 'member', 'Milo'],
      ['twin', 'owner', 'Luna twin'],
    ] as const) {
      const made = await t.app.inject({
        method: 'POST',
        url: '/api/cats',
        headers: await headers(who),
        payload: { name, living: 'household' },
      });
      expect(made.statusCode, made.body).toBe(201);
      cats[key] = (made.json() as { cat: { _id: string } }).cat._id;
    }
    // Followers of both cats, so that every viewer but the demo (which may not follow) is told of new
    // sightings (cat_sighting, issue 25) and their notification lists are walked with them; a sighting
    // near a household cat's home is left out of a mere follower's list (migration 0018). Each caretaker
    // is told of their own cat's sightings anyway.
    for (const [who, key] of [
      ['owner', 'milo'],
      ['member', 'luna'],
      ['stranger', 'luna'],
      ['stranger', 'milo'],
      ['blocked', 'luna'],
      ['blocked', 'milo'],
      ['exactOwner', 'milo'],
      ['exactOwner', 'luna'],
    ] as const) {
      const followed = await t.app.inject({
        method: 'PUT',
        url: `/api/cats/${cats[key]}/follow`,
        headers: await headers(who),
      });
      expect(followed.statusCode, followed.body).toBe(200);
    }

    await upload('owner', 'on, shared', awkwardPoint(0), true, true, cats.twin);
    await upload('owner', 'on, not shared', awkwardPoint(2), true, false, cats.milo);
    await upload('owner', 'off, shared', awkwardPoint(4), false, true);
    await upload('owner', 'off, not shared', awkwardPoint(6), false, false);
    await upload('member', "a member's, on, shared", awkwardPoint(8), true, true);
    // Milo's caretaker's own sighting of him: the one the blocked user (who shares a block with the owner
    // and the exact-location author) is told of, the others' sightings of Luna being kept (decision 022).
    await upload('member', "a member's of Milo, on", awkwardPoint(18), true, false, cats.milo);
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

    // Places changed in Edit (issue 26): a shown, shared post moved to another place (the secret is
    // the new place), and one whose place was removed (no secret any more; its post stays).
    const editPlace = async (postId: string, body: object) => {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/posts/${postId}`,
        headers: await headers('owner'),
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await upload('owner', 'moved in edit, on, shared', awkwardPoint(1, 9), true, true);
    // Its creation answered the author with the former place, rightly: that answer is not walked.
    createAnswers.pop();
    const moved = secrets.at(-1)!;
    formerPlaces.push({ name: moved.name, latitude: moved.latitude, longitude: moved.longitude });
    Object.assign(moved, awkwardPoint(5, 13));
    await editPlace(moved.id, { latitude: moved.latitude, longitude: moved.longitude });
    await upload('owner', 'removed in edit, on, shared', awkwardPoint(13, 3), true, true);
    createAnswers.pop();
    const removed = secrets.pop()!;
    formerPlaces.push({ name: removed.name, latitude: removed.latitude, longitude: removed.longitude });
    await editPlace(removed.id, { latitude: null, longitude: null });
    unplacedPostIds.push(removed.id);
    // Home points ~150 m north of two sightings (within CAT_HOME_PRIVACY_METRES): Luna's by the
    // exact-location author's (exact for everyone, but not in the cat's answers), Milo's by the owner's.
    for (const [key, who, secretName, caretaker] of [
      ['luna', 'owner', 'exact public, on', 'owner'],
      ['milo', 'member', 'on, not shared', 'member'],
    ] as const) {
      const secret = secrets.find((s) => s.name === secretName)!;
      // Neither decimal equal to the secret's (the walk looks for them in every answer); ~151 m away.
      const home = {
        latitude: Number((secret.latitude + 0.00135).toFixed(8)),
        longitude: Number((secret.longitude + 0.0003).toFixed(8)),
      };
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/cats/${cats[key]}`,
        headers: await headers(who),
        payload: { home },
      });
      expect(res.statusCode, res.body).toBe(200);
      secret.nearCatHome = { caretakers: new Set([ids[caretaker]]) };
    }

    // The twin is merged into Luna (issue 26): 'on, shared' is Luna's now, and the merge in her history.
    const merged = await t.app.inject({
      method: 'POST',
      url: `/api/cats/${cats.luna}/merge`,
      headers: await headers('owner'),
      payload: { duplicateCatId: cats.twin },
    });
    expect(merged.statusCode, merged.body).toBe(200);
    secrets.find((s) => s.name === 'on, shared')!.catId = cats.luna;
    // 'This is…' suggestions (issue 26): Milo for the owner's picture of Luna; Luna for the picture by
    // Luna's home, whose link the member may not know (kept, moot, not listed); Milo for the member's.
    // Only a household cat's caretakers suggest it now (decision 022): these, by others, are open
    // suggestions made before that rule, stored as they were, so that the lists are walked with them.
    const secretId = (name: string) => secrets.find((s) => s.name === name)!.id;
    for (const [who, name, cat] of [
      ['stranger', 'on, shared', cats.milo],
      ['member', 'exact public, on', cats.luna],
      ['blocked', "a member's, on, shared", cats.milo],
      ['exactOwner', 'off, shared', cats.milo],
    ] as const) {
      await t.db.insert(catSuggestions).values({ postId: secretId(name), catId: cat, suggestedBy: ids[who] });
    }

    // Likes and comments, so that every viewer's notification list (issue 25) is walked with entries in
    // it: likes, comments and replies about located posts; the group's shares reach its members.
    const byName = (name: string) => secrets.find((s) => s.name === name)!.id;
    for (const [who, method, url, payload] of [
      ['stranger', 'PUT', `/api/posts/likePost/${byName('on, shared')}`, {}],
      [
        'stranger',
        'POST',
        `/api/posts/createComment/${byName('exact public, on')}`,
        { newComment: 'Where?' },
      ],
      [
        'exactOwner',
        'POST',
        `/api/posts/createComment/${byName('exact public, on')}`,
        { newComment: 'Here' },
      ],
      [
        'blocked',
        'POST',
        `/api/posts/createComment/${byName("a member's, on, shared")}`,
        { newComment: 'Hi' },
      ],
      [
        'stranger',
        'POST',
        `/api/posts/createComment/${byName("a member's, on, shared")}`,
        { newComment: 'Yo' },
      ],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: await headers(who), payload });
      expect(res.statusCode, res.body).toBe(200);
    }

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

    // Missing Luna (issue 26): home areas first, so that the neighbours are told (cat_missing_nearby) and
    // their lists are walked with it; then the alert, a report without a photo and one with a photo.
    for (const who of ['member', 'stranger', 'blocked'] as const) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/profile/settings/home-area',
        headers: await headers(who),
        payload: { homeArea: missing.homes[who] },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const raised = await t.app.inject({
      method: 'POST',
      url: `/api/cats/${cats.luna}/missing`,
      headers: await headers('owner'),
      payload: {
        lastSeenAt: new Date(Date.now() - 3_600_000).toISOString(),
        place: missing.lastSeen,
        note: 'Grey tabby, shy.',
        contact: 'report',
      },
    });
    expect(raised.statusCode, raised.body).toBe(201);
    const reported = await t.app.inject({
      method: 'POST',
      url: `/api/cats/${cats.luna}/missing/reports`,
      headers: await headers('stranger'),
      payload: { seenAt: new Date().toISOString(), place: missing.report, note: 'By the bins.' },
    });
    expect(reported.statusCode, reported.body).toBe(201);
    // A photo answer: the member's post of Luna, on and not shared, in the owner's reports as its post.
    await upload('member', 'a photo report of missing Luna, on', awkwardPoint(16), true, false);
    // A sighting by someone who does not care for its household cat (both have a home point now) is
    // kept from all but the cat's caretakers and its author wherever it lies (decision 022), as near
    // the home: its author could move it from cell to cell and watch.
    const caretakerOf: Record<string, string> = { [cats.luna]: ids.owner, [cats.milo]: ids.member };
    for (const s of secrets) {
      const caretaker = s.catId === undefined ? undefined : caretakerOf[s.catId];
      if (caretaker !== undefined && s.authorId !== caretaker)
        s.nearCatHome = { caretakers: new Set([caretaker]) };
    }
    const caretakerOfLuna = (v: { userId: string; isDemo: boolean }) => v.userId === ids.owner && !v.isDemo;
    places.push(
      {
        name: "missing Luna's last-seen place",
        ...missing.lastSeen,
        // Published at its cell; exact to her caretaker; nothing to someone who shares a block with him.
        precisionFor: (v) =>
          caretakerOfLuna(v) ? 'exact' : v.userId === ids.blocked ? 'none' : 'approximate',
      },
      {
        name: "the stranger's report of Luna",
        ...missing.report,
        // Sent to her caretakers, exactly; the reporter had it back in the POST's answer, and has it in
        // their own data export's missing-reports.json (theirs to take), and nowhere else.
        precisionFor: (v, where) =>
          caretakerOfLuna(v) ||
          (v.userId === ids.stranger &&
            where.startsWith('GET /api/profile/export/download missing-reports.json'))
            ? 'exact'
            : 'none',
      },
      ...(['member', 'stranger', 'blocked'] as const).map((who): PlaceSecret => ({
        name: `the ${who}'s home area`,
        ...missing.homes[who],
        // Stored as its cell's centre: the owner of the account sees that, nobody else anything.
        precisionFor: (v) => (v.userId === ids[who] ? 'exact' : 'none'),
      })),
    );

    // Issue 27: every secret is reported (by someone outside the walk) with a snapshot that holds its
    // exact place, as a report's copy of a post might: the moderation queue must not pass it on.
    // Each names its post's picture (issue 46), which moderators read through their own route: the
    // walk checks its bytes too (re-encoded, without the photo's GPS).
    const reporter = await createUser(t.db);
    const mediaKeys = new Map(
      (
        await t.db
          .select({ id: posts.id, mediaKey: posts.mediaKey })
          .from(posts)
          .where(
            inArray(
              posts.id,
              secrets.map((s) => s.id),
            ),
          )
      ).map((p) => [p.id, p.mediaKey]),
    );
    reportIds = (
      await t.db
        .insert(reports)
        .values(
          secrets.map((s) => ({
            reporterId: reporter.id,
            targetType: 'post',
            targetId: s.id,
            targetUserId: s.authorId,
            reason: 'private_information',
            note: 'Shows where I live.',
            snapshot: {
              caption: s.name,
              latitude: s.latitude,
              longitude: s.longitude,
              mediaKey: mediaKeys.get(s.id),
            },
          })),
        )
        .returning({ id: reports.id })
    ).map((r) => r.id);

    const blockedWith: Record<Name, string[]> = {
      owner: [ids.blocked],
      blocked: [ids.owner, ids.exactOwner],
      exactOwner: [ids.blocked],
      member: [],
      stranger: [],
      demo: [],
      moderator: [],
    };
    viewers = await Promise.all(
      (['owner', 'member', 'stranger', 'blocked', 'demo', 'exactOwner', 'moderator'] as const).map(
        async (name) => ({
          name,
          userId: ids[name],
          isDemo: name === 'demo',
          headers: await headers(name),
          blockedWith: new Set(blockedWith[name]),
        }),
      ),
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

    // The missing-cat places too: far from the secrets and from each other, so that each check means it.
    for (const place of places) {
      for (const other of [...secrets, ...places]) {
        if (other === place) continue;
        expect(
          metres(
            { lat: place.latitude, lon: place.longitude },
            { lat: other.latitude, lon: other.longitude },
          ),
          `${place.name} and ${other.name}`,
        ).toBeGreaterThan(1100);
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

    // Likes on every secret that others may see, so that its author's notification stream has
    // entries about them to replay (a notification names its post, and must never place it).
    for (const s of secrets.filter((secret) => !secret.trashed)) {
      for (const fan of ['member', 'stranger', 'owner'] as const) {
        if (ids[fan] === s.authorId) continue;
        const liked = await t.app.inject({
          method: 'PUT',
          url: `/api/posts/likePost/${s.id}`,
          headers: await headers(fan),
        });
        expect(liked.statusCode, liked.body).toBeLessThan(500);
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
          catId: [cats.luna, cats.milo, cats.twin],
          reportId: reportIds,
        },
        queries: {
          user: authors.map((a) => `user=${a}&pagenum=1`),
          ids: [`ids=${allIds}`],
          west: VIEWPORTS,
          lastEventId: ['lastEventId=0'],
          q: ['q=LU', 'q=i'],
          // Also right at every secret: where an attacker would ask 'Which cat is this?'.
          near: [
            'near=51.46,-0.28',
            'near=36.72,-4.42',
            `near=${missing.lastSeen.latitude + 0.004},${missing.lastSeen.longitude}`,
            ...secrets.map((s) => `near=${s.latitude},${s.longitude}`),
          ],
          caredFor: ['caredFor=true'],
        },
        ticket: walkTicket(t.app, viewer.userId),
      }),
      secrets,
      places,
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

  it("walks the notification stream: each author's replay names their liked posts (among its other entries), never a position", () => {
    const owner = viewers.find((v) => v.name === 'owner')!;
    const replay = answers.find(
      (a) => a.viewer === owner && a.url.startsWith('/api/notifications/stream?lastEventId=0'),
    )!;
    expect(replay.res.statusCode, replay.res.body).toBe(200);
    const events = parseSse(replay.res.body);
    const liked = events
      .filter((e) => e.event === 'notification')
      .map((e) => (JSON.parse(e.data) as { post: { _id: string } | null }).post?._id);
    const own = secrets.filter((s) => s.authorId === owner.userId && !s.trashed).map((s) => s.id);
    // Comments, replies and group shares add entries about other posts; every liked own post is there.
    expect([...new Set(liked)]).toEqual(expect.arrayContaining(own));
    expect(replay.res.body).not.toMatch(/latitude|longitude/);
    expect(events.at(-1)?.event).toBe('unread');
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
        latitude: number | null;
        longitude: number | null;
      }[];
      const own = secrets.filter((s) => s.authorId === viewer.userId);
      const unplaced = viewer.name === 'owner' ? unplacedPostIds : [];
      expect(exported.map((p) => [p.id, p.latitude, p.longitude]).sort(), viewer.name).toEqual(
        [
          ...own.map((s) => [s.id, s.latitude, s.longitude]),
          ...unplaced.map((id) => [id, null, null]),
        ].sort(),
      );
      // Issue 26: Luna's caretaker has her last-seen place and the stranger's report exactly; the
      // stranger has their own report exactly; nobody else has either (assertLocationRule, above).
      type Placed = { latitude: number; longitude: number };
      const alerts = JSON.parse(files.get('missing-alerts.json')!.toString('utf8')) as {
        lastSeenPlace: Placed;
        reports: { kind: string; place: Placed | null }[];
      }[];
      const sent = JSON.parse(files.get('missing-reports.json')!.toString('utf8')) as { place: Placed }[];
      const exactly = (p: Placed) => ({ latitude: p.latitude, longitude: p.longitude });
      if (viewer.name === 'owner') {
        expect(alerts.map((a) => a.lastSeenPlace)).toEqual([missing.lastSeen]);
        expect(alerts[0]!.reports.filter((r) => r.kind === 'sighting').map((r) => exactly(r.place!))).toEqual(
          [missing.report],
        );
      } else expect(alerts, viewer.name).toEqual([]);
      expect(
        sent.map((r) => r.place),
        viewer.name,
      ).toEqual(viewer.name === 'stranger' ? [missing.report] : []);
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

  it('shows the moderator every reported secret in the queue, and no position of any (issue 27)', () => {
    const answer = answers.find((a) => a.viewer.name === 'moderator' && a.url === '/api/moderation/reports')!;
    expect(answer.res.statusCode, answer.res.body).toBe(200);
    const { groups } = answer.res.json() as ModerationQueueResponse;
    // The rule above was checked on the snapshots, which hold each secret's exact place.
    expect(groups).toHaveLength(Math.min(secrets.length, MODERATION_QUEUE_PAGE_SIZE));
    for (const g of groups) expect(secrets.map((secret) => secret.id)).toContain(g.targetId);
    expect(coordinatePairs(groups)).toEqual([]);
    expect(answer.res.body).not.toMatch(/latitude|longitude/);
    // Everyone else is refused.
    for (const a of answers.filter(
      (x) => x.url === '/api/moderation/reports' && x.viewer.name !== 'moderator',
    ))
      expect(a.res.statusCode, a.viewer.name).toBe(403);
  });

  it('lists every viewer their notifications, with no position anywhere in them', () => {
    // The moderator (issue 27) follows no cat and is in no group: nobody tells them of anything.
    for (const viewer of viewers.filter((v) => v.name !== 'moderator')) {
      const answer = answers.find((a) => a.viewer === viewer && a.url === '/api/notifications')!;
      expect(answer.res.statusCode, viewer.name).toBe(200);
      const body = answer.res.json() as NotificationsResponse;
      // Non-empty, or the rule above was checked on nothing.
      expect(body.notifications.length, viewer.name).toBeGreaterThan(0);
      expect(body.notifications.filter((n) => n.post).length, viewer.name).toBeGreaterThan(0);
      // Each follower or caretaker is told of the sightings of their cats: the walk sees those too.
      const sightings = body.notifications.filter((n) => n.type === 'cat_sighting');
      if (!viewer.isDemo) expect(sightings.length, viewer.name).toBeGreaterThan(0);
      for (const n of sightings) expect([cats.luna, cats.milo], viewer.name).toContain(n.cat?._id);
      expect(coordinatePairs(body), viewer.name).toEqual([]);
      expect(answer.res.body, viewer.name).not.toMatch(/latitude|longitude|"lat"|"lng"|"lon"|exif/i);
    }
  });

  it('shows a place moved away from or removed in Edit to no one, its author included, anywhere', () => {
    expect(formerPlaces).toHaveLength(2);
    for (const a of answers) {
      const where = `${a.viewer.name} ${a.url}`;
      let body: unknown = null;
      try {
        body = JSON.parse(a.res.body);
      } catch {
        // not JSON: the text checks still apply
      }
      for (const former of formerPlaces) {
        expect(a.res.body.includes(String(former.latitude)), `${where}: ${former.name}`).toBe(false);
        expect(a.res.body.includes(String(former.longitude)), `${where}: ${former.name}`).toBe(false);
        // Not even its cell: every other secret is far from it.
        for (const p of coordinatePairs(body).filter((pair) => !pair.cluster)) {
          expect(
            metres({ lat: former.latitude, lon: former.longitude }, p),
            `${where}: ${former.name}`,
          ).toBeGreaterThan(600);
        }
      }
    }
  });

  it("walks the cat routes with sightings of every precision, and keeps a household cat's home out", () => {
    const byName = (name: string) => secrets.find((s) => s.name === name)!;
    const sightingsOf = (viewer: Name, cat: string) => {
      const answer = answers.find((a) => a.viewer.name === viewer && a.url === `/api/cats/${cat}/sightings`)!;
      expect(answer.res.statusCode, answer.res.body).toBe(200);
      return new Map((answer.res.json() as { posts: Post[] }).posts.map((p) => [p._id, p]));
    };
    // Luna's sightings are walked at every precision: across the viewers, exact, approximate and none.
    const forStranger = sightingsOf('stranger', cats.luna);
    const precisions = new Set(
      (['owner', 'member', 'stranger', 'demo', 'exactOwner'] as const).flatMap((viewer) =>
        [...sightingsOf(viewer, cats.luna).values()].map((p) => p.locationPrecision),
      ),
    );
    expect(precisions).toEqual(new Set(['exact', 'approximate', null]));
    expect(new Set([...forStranger.values()].map((p) => p.locationPrecision))).toEqual(
      new Set(['approximate', null]),
    );
    // The sighting by Luna's home: not Luna's at all for the stranger (its post id would lead to its
    // cell; migration 0018), exact for its author and the caretaker.
    const nearHome = byName('exact public, on');
    expect(forStranger.has(nearHome.id)).toBe(false);
    expect(sightingsOf('exactOwner', cats.luna).get(nearHome.id)?.latitude).toBe(nearHome.latitude);
    expect(sightingsOf('owner', cats.luna).get(nearHome.id)?.latitude).toBe(nearHome.latitude);
    // Milo's: exact for the author (the owner), the cell for the caretaker (the member), none for others.
    const byMilo = byName('on, not shared');
    expect(sightingsOf('owner', cats.milo).get(byMilo.id)?.locationPrecision).toBe('exact');
    expect(sightingsOf('member', cats.milo).get(byMilo.id)?.locationPrecision).toBe('approximate');
    expect(sightingsOf('stranger', cats.milo).has(byMilo.id)).toBe(false);
    // The home point is in the caretakers' answers about their own cat, and in nobody else's.
    for (const a of answers.filter((x) => x.route.key === 'GET /api/cats/:catId')) {
      const cat = (a.res.json() as { cat: { _id: string; home?: unknown } }).cat;
      const caretaker =
        (cat._id === cats.luna && a.viewer.name === 'owner') ||
        (cat._id === cats.milo && a.viewer.name === 'member');
      expect('home' in cat, `${a.viewer.name} ${a.url}`).toBe(caretaker);
      if (caretaker) expect(cat.home).not.toBeNull();
    }
  });

  it("walks the missing-cat routes: Luna's last-seen place exact to her caretaker, its cell to the others, nothing to the blocked; the report to the caretaker alone", () => {
    const lastSeenCell = approximateLocation(missing.lastSeen.latitude, missing.lastSeen.longitude);
    const answerOf = (viewer: Name, url: string) => {
      const answer = answers.find((a) => a.viewer.name === viewer && a.url === url)!;
      expect(answer, `${viewer} ${url}`).toBeDefined();
      expect(answer.res.statusCode, `${viewer} ${url}: ${answer.res.body}`).toBe(200);
      return answer.res.json() as unknown;
    };
    for (const viewer of ['owner', 'member', 'stranger', 'blocked', 'demo', 'exactOwner'] as const) {
      const { alert } = answerOf(viewer, `/api/cats/${cats.luna}/missing`) as MissingAlertResponse;
      if (viewer === 'blocked') {
        expect(alert).toBeNull();
        continue;
      }
      expect(alert?.place, viewer).toEqual(
        viewer === 'owner'
          ? { ...missing.lastSeen, locationPrecision: 'exact' }
          : { ...lastSeenCell, locationPrecision: 'approximate' },
      );
    }
    // Explore's pins: every walked viewport that holds her cell shows her as the alert route does (the
    // blocked user never); the rest of the rule is checked on every answer as for any route.
    const pinned = answers.filter(
      (a) => a.route.key === 'GET /api/cats/missing/map' && a.res.statusCode === 200,
    );
    for (const viewer of ['owner', 'member', 'stranger', 'blocked', 'demo', 'exactOwner'] as const) {
      const holding = pinned.filter((a) => {
        if (a.viewer.name !== viewer) return false;
        const q = new URLSearchParams(a.url.split('?')[1]);
        const [west, south, east, north] = ['west', 'south', 'east', 'north'].map((k) => Number(q.get(k)));
        return (
          south! <= lastSeenCell.latitude &&
          lastSeenCell.latitude <= north! &&
          west! <= lastSeenCell.longitude &&
          lastSeenCell.longitude <= east!
        );
      });
      expect(holding.length, viewer).toBeGreaterThan(1);
      for (const a of holding) {
        const luna = (a.res.json() as MissingMapResponse).alerts.filter((x) => x.cat._id === cats.luna);
        expect(
          luna.map((x) => x.place),
          `${viewer} ${a.url}`,
        ).toEqual(
          viewer === 'blocked'
            ? []
            : [
                viewer === 'owner'
                  ? { ...missing.lastSeen, locationPrecision: 'exact' }
                  : { ...lastSeenCell, locationPrecision: 'approximate' },
              ],
        );
      }
    }
    // Around their home areas, the member and the stranger find her; the blocked user, whose home is
    // as near, does not (a block leaves no trace); the demo account has no area.
    const listed = (viewer: Name) => {
      const list = answerOf(viewer, '/api/cats/missing') as MissingNearResponse;
      return { area: list.area, cats: list.alerts.map((a) => a.cat._id) };
    };
    expect(listed('member')).toEqual({ area: 'home', cats: [cats.luna] });
    expect(listed('stranger')).toEqual({ area: 'home', cats: [cats.luna] });
    expect(listed('blocked')).toEqual({ area: 'home', cats: [] });
    expect(listed('demo')).toEqual({ area: null, cats: [] });

    const { reports } = answerOf('owner', `/api/cats/${cats.luna}/missing/reports`) as MissingReportsResponse;
    const photo = secrets.find((s) => s.name === 'a photo report of missing Luna, on')!;
    const photoCell = approximateLocation(photo.latitude, photo.longitude);
    expect(reports.map((r) => [r.kind, r.place])).toEqual([
      ['photo', { ...photoCell, locationPrecision: 'approximate' }],
      ['sighting', { ...missing.report, locationPrecision: 'exact' }],
    ]);
    for (const viewer of ['member', 'stranger', 'blocked', 'demo', 'exactOwner'] as const) {
      const answer = answers.find(
        (a) => a.viewer.name === viewer && a.url === `/api/cats/${cats.luna}/missing/reports`,
      )!;
      expect(answer.res.statusCode, viewer).toBe(403);
    }
    // The neighbours were told, without a place (the notification test above reads every entry).
    const told = (viewer: Name) =>
      (answerOf(viewer, '/api/notifications') as NotificationsResponse).notifications.filter(
        (n) => n.type === 'cat_missing_nearby',
      ).length;
    expect([told('member'), told('stranger'), told('blocked'), told('demo')]).toEqual([1, 1, 0, 0]);
  });

  it("walks a cat's history and a picture's suggestions: names, never a place", () => {
    const walked = answers.filter((a) => /\/(history|cat-suggestions)$/.test(a.url.split('?')[0]!));
    const ok = walked.filter((a) => a.res.statusCode === 200);
    // Luna's history (through her id and the twin's) has the merge; the owner's pictures have suggestions.
    const merges = ok.filter((a) => a.url === `/api/cats/${cats.twin}/history`);
    expect(merges.length).toBe(viewers.length);
    for (const a of merges)
      expect((a.res.json() as { merges: unknown[] }).merges, a.viewer.name).toHaveLength(1);
    const listed = ok.flatMap((a) =>
      a.url.endsWith('/cat-suggestions')
        ? (a.res.json() as { suggestions: { cat: { name: string } }[] }).suggestions.map(
            (s) => `${a.viewer.name}: ${s.cat.name}`,
          )
        : [],
    );
    // The member's suggestion of Luna by her home is moot (the member may not know the link): not listed.
    expect(listed.sort()).toEqual(['member: Milo', 'owner: Milo', 'owner: Milo']);
    for (const a of walked) {
      expect(coordinatePairs(a.res.json()), `${a.viewer.name} ${a.url}`).toEqual([]);
      expect(a.res.body, `${a.viewer.name} ${a.url}`).not.toMatch(/latitude|longitude|"lat"|"lng"|home/i);
    }
    // Others than a picture's author are refused its suggestions, whatever the picture.
    const refused = walked.filter((a) => a.url.endsWith('/cat-suggestions') && a.res.statusCode !== 200);
    expect(new Set(refused.map((a) => a.res.statusCode))).toEqual(new Set([403, 404]));
  });

  it('suggests a cat near a point only where the viewer may place one of its sightings: probing finds no spot', async () => {
    /** Per probe, what each viewer was told: the answers must differ somewhere, or nothing was tested. */
    const told = new Map<string, Set<string>>();
    for (const viewer of viewers) {
      for (const s of secrets) {
        const spot = { lat: s.latitude, lon: s.longitude };
        const cell = approximateLocation(s.latitude, s.longitude);
        const centre = { lat: cell.latitude, lon: cell.longitude };
        // 200 m beyond the spot, away from its cell's centre (~500 m from it): only someone who may
        // place the spot exactly is near the cat there.
        const k = 200 / metres(spot, centre);
        const beyond = {
          lat: spot.lat + (spot.lat - centre.lat) * k,
          lon: spot.lon + (spot.lon - centre.lon) * k,
        };
        for (const [kind, probe] of [
          ['the spot', spot],
          ['the cell centre', centre],
          ['beyond the spot', beyond],
        ] as const) {
          const places = secrets.flatMap((other) => {
            const place = catPlaceOf(viewer, other);
            return place ? [{ catId: other.catId, distance: metres(probe, place) }] : [];
          });
          // The two ways of measuring differ by centimetres: a place at the very edge proves nothing.
          if (places.some((p) => Math.abs(p.distance - CAT_SUGGESTION_METRES) < 2)) continue;
          const expected = places.filter((p) => p.distance <= CAT_SUGGESTION_METRES).map((p) => p.catId);
          const res = await t.app.inject({
            method: 'GET',
            url: `/api/cats/suggestions?near=${probe.lat},${probe.lon}`,
            headers: viewer.headers,
          });
          expect(res.statusCode, res.body).toBe(200);
          const got = (res.json() as CatSuggestionsResponse).cats.map((c) => c._id);
          expect(new Set(got), `${viewer.name} at ${kind} of ${s.name}`).toEqual(new Set(expected));
          const key = `${s.name} ${kind}`;
          told.set(key, (told.get(key) ?? new Set()).add(JSON.stringify([...new Set(got)].sort())));
        }
      }
    }
    expect([...told.values()].filter((answers) => answers.size > 1).length).toBeGreaterThan(3);
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
    [
      'GET /api/moderation/log',
      'moderators only (issue 27), and no viewer here is one; its entries hold ids and words, never a place (moderation-actions.test.ts checks)',
    ],
  ]);
});
