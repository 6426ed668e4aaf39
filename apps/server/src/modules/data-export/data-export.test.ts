import { buffer as readAll } from 'node:stream/consumers';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DISABLED_MESSAGE, DEMO_USER_ID, type DataExportStatus, type Post } from '@cats/contracts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { unzip } from '../../../test/unzip.ts';
import { EXPORT_README } from './export-archive.ts';
import { addComment, call, createGroup, smallJpeg, uploadPost } from '../../../test/hostile/support/world.ts';
import { dataExports, posts, users } from '../../db/schema/index.ts';
import { variantKey } from '../../media/urls.ts';
import { approximateLocation } from '../location/location-grid.ts';
import { createDataExportService, DATA_EXPORT_MESSAGES, STALE_EXPORT_MS } from './data-export.service.ts';

type Headers = Record<string, string>;
let t: TestApp;
let seed = 9100;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const json = <T>(entries: Map<string, Buffer>, name: string): T => {
  const bytes = entries.get(name);
  expect(bytes, `${name} in the zip`).toBeDefined();
  return JSON.parse(bytes!.toString('utf8')) as T;
};

async function spot(
  headers: Headers,
  latitude: string,
  longitude: string,
  fields: Record<string, string> = {},
): Promise<Post> {
  return uploadPost(t.app, headers, await smallJpeg((seed += 1)), {
    comment: `A cat at ${latitude}`,
    showLocation: 'false',
    latitude,
    longitude,
    ...fields,
  });
}

async function statusOf(headers: Headers): Promise<DataExportStatus> {
  const res = await call(t.app, headers, 'GET', '/api/profile/export');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as DataExportStatus;
}

async function waitUntilFinished(headers: Headers): Promise<DataExportStatus> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const status = await statusOf(headers);
    if (status.status !== 'running') return status;
    if (Date.now() > deadline) throw new Error('export still running after 20 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('Download my data', () => {
  let owner: CreatedUser;
  let other: CreatedUser;
  let own: Headers;
  let others: Headers;
  let located: Post;
  let trashed: Post;
  let othersPost: Post;
  let groupId: string;
  let commentId: string;
  let ownCatId: string;
  let followedCatId: string;

  beforeAll(async () => {
    owner = await createUser(t.db);
    other = await createUser(t.db);
    own = await authHeader(t.app, owner.id);
    others = await authHeader(t.app, other.id);
    const group = await createGroup(t.app, own, 'Export club');
    groupId = group._id;
    located = await spot(own, '48.8566131', '2.3522219');
    const shared = await call(t.app, own, 'PUT', `/api/posts/${located._id}/groups`, { groupIds: [groupId] });
    expect(shared.statusCode, shared.body).toBe(200);
    trashed = await spot(own, '41.3873974', '2.1685091');
    expect((await call(t.app, own, 'DELETE', `/api/posts/${trashed._id}`)).statusCode).toBe(200);
    // Someone else's post, exact position shown to everyone: liked and commented on by the owner, and
    // still nowhere in the owner's export.
    othersPost = await spot(others, '52.5200066', '13.4049540', { showLocation: 'true' });
    expect((await call(t.app, own, 'PUT', `/api/posts/likePost/${othersPost._id}`)).statusCode).toBe(200);
    expect((await call(t.app, others, 'PUT', `/api/posts/likePost/${located._id}`)).statusCode).toBe(200);
    commentId = await addComment(t.app, own, othersPost._id, 'Lovely whiskers');
    // Issue 26: a cat the owner cares for (from their located post, with a home point), and another's
    // cat the owner follows.
    const mine = await call(t.app, own, 'POST', '/api/cats', { name: 'Minou', postId: located._id });
    expect(mine.statusCode, mine.body).toBe(201);
    ownCatId = (mine.json() as { cat: { _id: string } }).cat._id;
    const home = await call(t.app, own, 'PATCH', `/api/cats/${ownCatId}`, {
      living: 'household',
      home: { latitude: 48.857, longitude: 2.353 },
    });
    expect(home.statusCode, home.body).toBe(200);
    const theirs = await call(t.app, others, 'POST', '/api/cats', { name: 'Felix' });
    followedCatId = (theirs.json() as { cat: { _id: string } }).cat._id;
    expect((await call(t.app, own, 'PUT', `/api/cats/${followedCatId}/follow`)).statusCode).toBe(200);
  });

  it('answers none before any export, and 404 for a download', async () => {
    expect(await statusOf(own)).toMatchObject({ status: 'none', sizeBytes: null, message: null });
    const res = await call(t.app, own, 'GET', '/api/profile/export/download');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: DATA_EXPORT_MESSAGES.noneReady });
  });

  it("prepares a zip of the owner's data that only the owner can download", async () => {
    const started = await call(t.app, own, 'POST', '/api/profile/export');
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toMatchObject({ status: 'running' });

    const ready = await waitUntilFinished(own);
    expect(ready.status).toBe('ready');
    expect(ready.sizeBytes).toBeGreaterThan(0);
    expect(Date.parse(ready.expiresAt!) - Date.parse(ready.finishedAt!)).toBe(24 * 60 * 60 * 1000);

    // Someone else sees no export of their own and cannot fetch the owner's.
    expect((await statusOf(others)).status).toBe('none');
    const stolen = await call(t.app, others, 'GET', '/api/profile/export/download');
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json()).toEqual({ message: DATA_EXPORT_MESSAGES.noneReady });

    const res = await call(t.app, own, 'GET', '/api/profile/export/download');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="neighbourhood-cats-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(res.rawPayload.length).toBe(ready.sizeBytes);

    const entries = await unzip(res.rawPayload);
    expect([...entries.keys()].sort()).toEqual(
      [
        'README.txt',
        'cats.json',
        'cat-merges.json',
        'cat-suggestions-made.json',
        'cat-suggestions-received.json',
        'comments.json',
        'groups.json',
        `images/${located._id}.webp`,
        `images/${trashed._id}.webp`,
        'likes.json',
        'missing-alerts.json',
        'missing-reports.json',
        'moderation-decisions.json',
        'posts.json',
        'profile.json',
        'reports.json',
      ].sort(),
    );

    // The guide comes first and names every JSON file and the images folder, so a new file cannot
    // be added without saying what it holds.
    expect([...entries.keys()][0]).toBe('README.txt');
    const readme = entries.get('README.txt')!.toString('utf8');
    expect(readme).toBe(EXPORT_README);
    for (const name of [...entries.keys()].filter((n) => n.endsWith('.json')))
      expect(readme, name).toMatch(new RegExp(`^${name.replace('.', '\\.')}$`, 'm'));
    expect(readme).toMatch(/^images\/$/m);

    expect(json(entries, 'profile.json')).toMatchObject({
      id: owner.id,
      username: owner.username,
      email: owner.email,
      settings: { exactPublicLocation: false },
    });

    const exported = json<Record<string, unknown>[]>(entries, 'posts.json');
    expect(exported.map((p) => p.id)).toEqual([located._id, trashed._id]);
    expect(exported[0]).toMatchObject({
      caption: 'A cat at 48.8566131',
      latitude: 48.8566131,
      longitude: 2.3522219,
      showLocation: false,
      altText: null,
      editedAt: null,
      deletedAt: null,
      likeCount: 1,
      sharedWithGroups: [{ id: groupId, name: 'Export club' }],
      image: `images/${located._id}.webp`,
      catId: ownCatId,
    });
    expect(exported[1]).toMatchObject({ latitude: 41.3873974, longitude: 2.1685091, likeCount: 0 });
    expect(typeof exported[1]!.deletedAt).toBe('string');

    expect(json(entries, 'comments.json')).toEqual([
      { id: commentId, postId: othersPost._id, body: 'Lovely whiskers', createdAt: expect.any(String) },
    ]);
    expect(json(entries, 'likes.json')).toEqual([{ postId: othersPost._id, createdAt: expect.any(String) }]);
    expect(json(entries, 'groups.json')).toEqual([
      { id: groupId, name: 'Export club', role: 'owner', joinedAt: expect.any(String) },
    ]);
    expect(json(entries, 'cats.json')).toEqual({
      caretakerOf: [
        {
          id: ownCatId,
          name: 'Minou',
          description: '',
          coatColours: [],
          earTipped: 'unknown',
          neutered: 'unknown',
          living: 'household',
          home: { latitude: 48.857, longitude: 2.353 },
          createdByYou: true,
          since: expect.any(String),
        },
      ],
      following: [{ id: followedCatId, name: 'Felix', since: expect.any(String) }],
      createdNoLongerCaredFor: [],
    });
    for (const name of [
      'missing-alerts.json',
      'missing-reports.json',
      'cat-suggestions-made.json',
      'cat-suggestions-received.json',
      'cat-merges.json',
    ])
      expect(json(entries, name), name).toEqual([]);

    // Nobody else's position anywhere in the archive, in any spelling.
    const text = [...entries]
      .filter(([name]) => name.endsWith('.json'))
      .map(([, b]) => b.toString('utf8'))
      .join('\n');
    for (const needle of ['52.52', '13.40', othersPost.caption ?? 'A cat at 52'])
      expect(text).not.toContain(needle);

    // The images are the stored 1600 px variants, byte for byte.
    for (const post of [located, trashed]) {
      const [row] = await t.db.select({ mediaKey: posts.mediaKey }).from(posts).where(eq(posts.id, post._id));
      const stored = await t.storage.get(variantKey(row!.mediaKey, 1600));
      expect(entries.get(`images/${post._id}.webp`)!.equals(await readAll(stored!.body))).toBe(true);
    }
  });

  it('refuses a second export while one runs, and starts again after one finished', async () => {
    const [before] = await t.db.select().from(dataExports).where(eq(dataExports.userId, owner.id));
    expect(before?.status).toBe('ready');
    await t.db.update(dataExports).set({ status: 'running' }).where(eq(dataExports.userId, owner.id));
    const refused = await call(t.app, own, 'POST', '/api/profile/export');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: DATA_EXPORT_MESSAGES.alreadyRunning });
    await t.db.update(dataExports).set({ status: 'ready' }).where(eq(dataExports.userId, owner.id));

    const again = await call(t.app, own, 'POST', '/api/profile/export');
    expect(again.statusCode, again.body).toBe(202);
    expect((await waitUntilFinished(own)).status).toBe('ready');
    const [after] = await t.db.select().from(dataExports).where(eq(dataExports.userId, owner.id));
    expect(after!.fileKey).not.toBe(before!.fileKey);
    // The replaced file is gone from the storage.
    expect(await t.storage.exists(before!.fileKey!)).toBe(false);
    expect(await t.storage.exists(after!.fileKey!)).toBe(true);
  });

  it('shows an export whose instance died as interrupted, and lets it start again', async () => {
    const user = await createUser(t.db);
    const headers = await authHeader(t.app, user.id);
    await t.db.insert(dataExports).values({
      userId: user.id,
      status: 'running',
      createdAt: new Date(Date.now() - STALE_EXPORT_MS - 60_000),
    });
    expect(await statusOf(headers)).toMatchObject({
      status: 'failed',
      message: DATA_EXPORT_MESSAGES.interrupted,
    });
    expect((await call(t.app, headers, 'POST', '/api/profile/export')).statusCode).toBe(202);
    const finished = await waitUntilFinished(headers);
    expect(finished.status).toBe('ready');
    const entries = await unzip(
      (await call(t.app, headers, 'GET', '/api/profile/export/download')).rawPayload,
    );
    expect(json(entries, 'posts.json')).toEqual([]);
  });

  it('removes exports a day after they finished', async () => {
    const [row] = await t.db.select().from(dataExports).where(eq(dataExports.userId, owner.id));
    const service = createDataExportService({
      db: t.db,
      storage: t.storage,
      log: t.app.log,
      tmpDir: t.app.uploads.dir,
    });
    expect(await service.sweep(new Date())).toBe(0);
    const later = new Date(row!.finishedAt!.getTime() + 24 * 60 * 60 * 1000 + 1000);
    expect((await call(t.app, own, 'GET', '/api/profile/export')).json()).toMatchObject({ status: 'ready' });
    expect(await service.sweep(later)).toBeGreaterThanOrEqual(1);
    expect(await t.storage.exists(row!.fileKey!)).toBe(false);
    expect(await statusOf(own)).toMatchObject({ status: 'none' });
    expect((await call(t.app, own, 'GET', '/api/profile/export/download')).statusCode).toBe(404);
  });

  it("deleting the account removes its export's file", async () => {
    const user = await createUser(t.db);
    const headers = await authHeader(t.app, user.id);
    expect((await call(t.app, headers, 'POST', '/api/profile/export')).statusCode).toBe(202);
    expect((await waitUntilFinished(headers)).status).toBe('ready');
    const [row] = await t.db.select().from(dataExports).where(eq(dataExports.userId, user.id));
    expect(await t.storage.exists(row!.fileKey!)).toBe(true);
    const deleted = await call(t.app, headers, 'DELETE', `/api/profile/deleteUser/${user.id}`);
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect(await t.storage.exists(row!.fileKey!)).toBe(false);
    expect(await t.db.select().from(dataExports).where(eq(dataExports.userId, user.id))).toEqual([]);
  });

  it('refuses the demo account', async () => {
    const demo = await authHeader(t.app, DEMO_USER_ID);
    const res = await call(t.app, demo, 'POST', '/api/profile/export');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: DEMO_DISABLED_MESSAGE });
    expect(await t.db.select().from(dataExports).where(eq(dataExports.userId, DEMO_USER_ID))).toEqual([]);
  });

  it('needs a signed-in caller', async () => {
    for (const [method, url] of [
      ['POST', '/api/profile/export'],
      ['GET', '/api/profile/export'],
      ['GET', '/api/profile/export/download'],
    ] as const) {
      const res = await call(t.app, {}, method, url);
      expect(res.statusCode, url).toBe(401);
    }
  });
});

/**
 * Issue 26's records in the export: the user's own places exact (their alerts, their reports, their
 * home area), the reports on their alert as the app lists them to a caretaker (a report sent to them
 * exactly, a photo by its post's rule: here its ~500 m cell), suggesters by username only, and nothing
 * of anyone the user shares a block with, either way.
 */
describe('Download my data: cats, missing alerts, reports, suggestions and merges', () => {
  type Place = { latitude: number; longitude: number };
  // Far apart, each well inside its cell, so that exact and cell values differ in every decimal.
  const places = {
    lastSeen: { latitude: 45.4641234, longitude: 9.1901234 },
    friendReport: { latitude: 45.4802345, longitude: 9.2203456 },
    friendPhoto: { latitude: 45.5013579, longitude: 9.2501357 },
    foeReport: { latitude: 45.5224681, longitude: 9.2802468 },
    blockerReport: { latitude: 45.5435792, longitude: 9.3103579 },
    friendsAlert: { latitude: 45.5646813, longitude: 9.3404681 },
    myReport: { latitude: 45.5857924, longitude: 9.3705792 },
    blockersAlert: { latitude: 45.6068135, longitude: 9.4006813 },
    myReportToBlocker: { latitude: 45.6279246, longitude: 9.4307924 },
    home: { latitude: 45.6480357, longitude: 9.4609035 },
  } satisfies Record<string, Place>;
  const HOUR = 3_600_000;

  let me: CreatedUser;
  let friend: CreatedUser;
  let foe: CreatedUser;
  let blocker: CreatedUser;
  let mine: Headers;
  let friends: Headers;
  let foes: Headers;
  let blockers: Headers;
  let entries: Map<string, Buffer>;
  const ids: Record<string, string> = {};

  const expectOk = <Res extends { statusCode: number; body: string }>(res: Res): Res => {
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res;
  };
  const newCat = async (headers: Headers, name: string) =>
    (expectOk(await call(t.app, headers, 'POST', '/api/cats', { name })).json() as { cat: { _id: string } })
      .cat._id;
  const markMissing = async (headers: Headers, catId: string, place: Place, note: string) =>
    expectOk(
      await call(t.app, headers, 'POST', `/api/cats/${catId}/missing`, {
        lastSeenAt: new Date(Date.now() - 2 * HOUR).toISOString(),
        place,
        note,
        contact: 'report',
      }),
    );
  const report = async (headers: Headers, catId: string, place: Place, note: string) =>
    (
      expectOk(
        await call(t.app, headers, 'POST', `/api/cats/${catId}/missing/reports`, {
          seenAt: new Date(Date.now() - HOUR).toISOString(),
          place,
          note,
        }),
      ).json() as { report: { _id: string } }
    ).report._id;
  const suggest = async (headers: Headers, postId: string, catId: string) =>
    (
      expectOk(
        await call(t.app, headers, 'POST', `/api/posts/${postId}/cat-suggestions`, { catId }),
      ).json() as {
        suggestion: { _id: string };
      }
    ).suggestion._id;
  const block = async (by: Headers, whom: CreatedUser) =>
    expectOk(await call(t.app, by, 'PUT', '/api/profile/blockUser/', { blockedUser: { _id: whom.id } }));

  beforeAll(async () => {
    [me, friend, foe, blocker] = await Promise.all([
      createUser(t.db),
      createUser(t.db),
      createUser(t.db),
      createUser(t.db),
    ]);
    [mine, friends, foes, blockers] = await Promise.all([
      authHeader(t.app, me.id),
      authHeader(t.app, friend.id),
      authHeader(t.app, foe.id),
      authHeader(t.app, blocker.id),
    ]);

    expectOk(await call(t.app, mine, 'PUT', '/api/profile/settings/home-area', { homeArea: places.home }));

    // My cat Tiger goes missing; a friend, a foe and a blocker answer, the friend with a photo too.
    ids.tiger = await newCat(mine, 'Tiger');
    ids.alert = (
      (await markMissing(mine, ids.tiger, places.lastSeen, 'Shy, grey collar')).json() as {
        alert: { _id: string };
      }
    ).alert._id;
    ids.friendReport = await report(friends, ids.tiger, places.friendReport, 'By the bins');
    ids.friendPhoto = (
      await spot(friends, String(places.friendPhoto.latitude), String(places.friendPhoto.longitude), {
        showLocation: 'true',
        catId: ids.tiger,
        comment: 'Is this Tiger?',
      })
    )._id;
    await report(foes, ids.tiger, places.foeReport, 'Foe saw it');
    await report(blockers, ids.tiger, places.blockerReport, 'Blocker saw it');

    // Others' missing cats, which I answer.
    ids.patch = await newCat(friends, 'Patch');
    await markMissing(friends, ids.patch, places.friendsAlert, "Friend's cat");
    ids.myReport = await report(mine, ids.patch, places.myReport, 'Under the bridge');
    ids.shadow = await newCat(blockers, 'Shadow');
    await markMissing(blockers, ids.shadow, places.blockersAlert, "Blocker's cat");
    await report(mine, ids.shadow, places.myReportToBlocker, 'Near the blocker');

    // 'This is Luna': mine on others' pictures, theirs on mine.
    ids.myPost = (await spot(mine, '45.70123', '9.50123'))._id;
    ids.blockersPost = (await spot(blockers, '45.72123', '9.52123'))._id;
    ids.madeOnFriend = await suggest(mine, ids.friendPhoto, ids.patch);
    await suggest(mine, ids.blockersPost, ids.tiger);
    ids.friendsSuggestion = await suggest(friends, ids.myPost, ids.patch);
    await suggest(foes, ids.myPost, ids.tiger);
    await suggest(blockers, ids.myPost, ids.shadow);
    expectOk(
      await call(
        t.app,
        mine,
        'POST',
        `/api/posts/${ids.myPost}/cat-suggestions/${ids.friendsSuggestion}/decline`,
      ),
    );

    // A merge of two profiles I care for, and a cat I created and then left to the friend.
    ids.tig = await newCat(mine, 'Tig');
    ids.tigger = await newCat(mine, 'Tigger');
    const merged = expectOk(
      await call(t.app, mine, 'POST', `/api/cats/${ids.tig}/merge`, { duplicateCatId: ids.tigger }),
    );
    ids.merge = (merged.json() as { merge: { _id: string } }).merge._id;
    ids.given = await newCat(mine, 'Given away');
    expectOk(await call(t.app, mine, 'PUT', `/api/cats/${ids.given}/caretakers/${friend.id}`));
    expectOk(await call(t.app, mine, 'DELETE', `/api/cats/${ids.given}/caretakers/${me.id}`));

    // Blocks both ways, after all of it: neither leaves a trace in my export.
    await block(mine, foe);
    await block(blockers, me);

    expectOk(await call(t.app, mine, 'POST', '/api/profile/export'));
    expect((await waitUntilFinished(mine)).status).toBe('ready');
    entries = await unzip((await call(t.app, mine, 'GET', '/api/profile/export/download')).rawPayload);
  });

  it('keeps my home area as stored: the centre of its ~500 m cell', () => {
    const cell = approximateLocation(places.home.latitude, places.home.longitude);
    expect(json(entries, 'profile.json')).toMatchObject({
      settings: { homeArea: { latitude: cell.latitude, longitude: cell.longitude } },
    });
  });

  it('holds my alert, exactly placed, with the reports as the app lists them to me', () => {
    const photoCell = approximateLocation(places.friendPhoto.latitude, places.friendPhoto.longitude);
    expect(json(entries, 'missing-alerts.json')).toEqual([
      {
        id: ids.alert,
        cat: { id: ids.tiger, name: 'Tiger' },
        lastSeenAt: expect.any(String),
        lastSeenPlace: places.lastSeen,
        note: 'Shy, grey collar',
        contact: 'report',
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
        endedAt: null,
        endReason: null,
        // Newest sighting first, as the caretaker's list: the photo (posted now), then the report.
        reports: [
          {
            id: ids.friendPhoto,
            kind: 'photo',
            reporter: friend.username,
            seenAt: expect.any(String),
            // The friend's post, its location on and shared with no group of mine: its cell.
            place: {
              latitude: photoCell.latitude,
              longitude: photoCell.longitude,
              locationPrecision: 'approximate',
            },
            note: 'Is this Tiger?',
            postId: ids.friendPhoto,
            createdAt: expect.any(String),
          },
          {
            id: ids.friendReport,
            kind: 'sighting',
            reporter: friend.username,
            seenAt: expect.any(String),
            // Sent to me, the caretaker: exactly.
            place: { ...places.friendReport, locationPrecision: 'exact' },
            note: 'By the bins',
            postId: null,
            createdAt: expect.any(String),
          },
        ],
      },
    ]);
  });

  it("holds the reports I sent on others' alerts, exactly placed, and no place of their alerts", () => {
    expect(json(entries, 'missing-reports.json')).toEqual([
      {
        id: ids.myReport,
        alertId: expect.any(String),
        cat: { id: ids.patch, name: 'Patch' },
        seenAt: expect.any(String),
        place: places.myReport,
        note: 'Under the bridge',
        createdAt: expect.any(String),
      },
    ]);
  });

  it('holds the suggestions I made and those made on my pictures, by username', () => {
    expect(json(entries, 'cat-suggestions-made.json')).toEqual([
      {
        id: ids.madeOnFriend,
        postId: ids.friendPhoto,
        cat: { id: ids.patch, name: 'Patch' },
        status: 'open',
        createdAt: expect.any(String),
        answeredAt: null,
      },
    ]);
    expect(json(entries, 'cat-suggestions-received.json')).toEqual([
      {
        id: ids.friendsSuggestion,
        postId: ids.myPost,
        cat: { id: ids.patch, name: 'Patch' },
        suggestedBy: friend.username,
        status: 'declined',
        createdAt: expect.any(String),
        answeredAt: expect.any(String),
      },
    ]);
  });

  it('holds the merges I performed and the cats I created and left', () => {
    expect(json(entries, 'cat-merges.json')).toEqual([
      {
        id: ids.merge,
        cat: { id: ids.tig, name: 'Tig' },
        duplicateCat: { id: ids.tigger, name: 'Tigger' },
        mergedAt: expect.any(String),
        undoneAt: null,
        undoneByYou: false,
      },
    ]);
    const cats = json<{ caretakerOf: { id: string }[]; createdNoLongerCaredFor: unknown[] }>(
      entries,
      'cats.json',
    );
    expect(cats.caretakerOf.map((c) => c.id).sort()).toEqual([ids.tiger, ids.tig].sort());
    expect(cats.createdNoLongerCaredFor).toEqual([
      { id: ids.given, name: 'Given away', createdAt: expect.any(String) },
    ]);
  });

  it("tells nobody's email, no one else's exact place, and nothing of the users I share a block with", () => {
    const text = [...entries]
      .filter(([name]) => name.endsWith('.json'))
      .map(([, b]) => b.toString('utf8'))
      .join('\n');
    for (const user of [friend, foe, blocker]) expect(text).not.toContain(user.email);
    for (const user of [foe, blocker]) {
      expect(text).not.toContain(user.id);
      expect(text).not.toContain(user.username);
    }
    for (const needle of ['Foe saw it', 'Blocker saw it', 'Near the blocker', ids.blockersPost, ids.shadow!])
      expect(text).not.toContain(needle);
    // Other people's places that are not mine to know exactly: the photo's spot, the friend's alert, and
    // the blocked sides' reports and alert, in any spelling.
    for (const place of [
      places.friendPhoto,
      places.friendsAlert,
      places.foeReport,
      places.blockerReport,
      places.blockersAlert,
      places.myReportToBlocker,
    ]) {
      expect(text).not.toContain(String(place.latitude));
      expect(text).not.toContain(String(place.longitude));
    }
  });
});

/** Issue 27's records in the export: what I reported and what came of it, decisions about me, my appeals. */
describe('Download my data: reports, moderation decisions and appeals', () => {
  const expectOk = <Res extends { statusCode: number; body: string }>(res: Res): Res => {
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res;
  };

  it('holds my reports with the actions taken, and the decisions about me with my appeal, naming no moderator', async () => {
    const [me, neighbour] = [await createUser(t.db), await createUser(t.db)];
    const moderator = await createUser(t.db, { username: 'the_moderator' });
    await t.db.update(users).set({ role: 'moderator' }).where(eq(users.id, moderator.id));
    const [mine, theirs, mods] = [
      await authHeader(t.app, me.id),
      await authHeader(t.app, neighbour.id),
      await authHeader(t.app, moderator.id),
    ];
    const theirPost = await createPost(t.db, neighbour.id, { caption: 'Kittens for sale' });
    const myPost = await createPost(t.db, me.id, { caption: 'My cat' });
    expectOk(
      await call(t.app, mine, 'POST', '/api/reports', {
        targetType: 'post',
        targetId: theirPost.id,
        reason: 'spam',
        note: 'Selling.',
      }),
    );
    expectOk(
      await call(t.app, theirs, 'POST', '/api/reports', {
        targetType: 'post',
        targetId: myPost.id,
        reason: 'off_topic',
      }),
    );
    const queue = (await call(t.app, mods, 'GET', '/api/moderation/reports')).json() as {
      groups: { reportId: string; targetId: string }[];
    };
    const reportOn = (postId: string) => queue.groups.find((g) => g.targetId === postId)!.reportId;
    expectOk(
      await call(t.app, mods, 'POST', `/api/moderation/reports/${reportOn(theirPost.id)}/actions`, {
        actions: [{ action: 'remove', rule: 'spam', explanation: 'No selling.' }],
      }),
    );
    const removed = await call(
      t.app,
      mods,
      'POST',
      `/api/moderation/reports/${reportOn(myPost.id)}/actions`,
      {
        actions: [{ action: 'warn', rule: 'off_topic', explanation: 'Cats only, please.' }],
      },
    );
    expectOk(removed);
    const warningId = (removed.json() as { actions: { _id: string }[] }).actions[0]!._id;
    expectOk(await call(t.app, mine, 'POST', '/api/appeals', { actionId: warningId, body: 'It is a cat.' }));

    expectOk(await call(t.app, mine, 'POST', '/api/profile/export'));
    expect((await waitUntilFinished(mine)).status).toBe('ready');
    const entries = await unzip((await call(t.app, mine, 'GET', '/api/profile/export/download')).rawPayload);

    expect(json(entries, 'reports.json')).toEqual([
      expect.objectContaining({
        targetType: 'post',
        targetId: theirPost.id,
        reason: 'spam',
        note: 'Selling.',
        actionsTaken: ['remove'],
      }),
    ]);
    expect(json(entries, 'moderation-decisions.json')).toEqual([
      expect.objectContaining({
        id: warningId,
        action: 'warn',
        targetType: 'post',
        targetId: myPost.id,
        rule: 'off_topic',
        explanation: 'Cats only, please.',
        undone: false,
        appeal: expect.objectContaining({ text: 'It is a cat.', outcome: null }),
      }),
    ]);
    const everything = [...entries.values()].map((b) => b.toString('utf8')).join('\n');
    expect(everything).not.toContain('the_moderator');
    expect(everything).not.toContain(neighbour.username);
  });
});
