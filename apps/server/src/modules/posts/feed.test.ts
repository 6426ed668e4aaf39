import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANONYMISED_USERNAME,
  DEMO_USER_ID,
  IMAGE_WIDTHS,
  type PagedPostsResponse,
  type Post,
} from '@cats/contracts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import {
  blocks,
  comments,
  groupMembers,
  groups,
  hiddenPosts,
  likes,
  postGroups,
} from '../../db/schema/index.ts';
import type { PostRow } from '../../db/schema/index.ts';
import { approximateLocation, LOCATION_GRID_DEGREES } from '../location/location-grid.ts';
import { listPosts } from './post-view.ts';
import { visiblePostsQuery } from './posts.repository.ts';

const PAGE = 5;
let t: TestApp;
let viewer: CreatedUser;
let viewerAuth: { authorization: string };

beforeAll(async () => {
  t = await buildTestApp({ FEED_PAGE_SIZE: String(PAGE) });
  viewer = await createUser(t.db);
  viewerAuth = await authHeader(t.app, viewer.id);
});
afterAll(async () => {
  await t.close();
});

let clock = Date.parse('2024-01-01T00:00:00Z');
/** Posts with strictly increasing creation times (later = newer). */
async function post(userId: string, overrides: Partial<PostRow> = {}) {
  clock += 60_000;
  return createPost(t.db, userId, { createdAt: new Date(clock), ...overrides });
}

async function feed(page: number | string, opts: { cursor?: string; auth?: { authorization: string } } = {}) {
  const query = opts.cursor ? `?cursor=${encodeURIComponent(opts.cursor)}` : '';
  return t.app.inject({ url: `/api/feed/${page}${query}`, headers: opts.auth ?? viewerAuth });
}

async function allFeedIds(auth = viewerAuth): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 1; page < 100; page += 1) {
    const res = await feed(page, { auth, ...(cursor ? { cursor } : {}) });
    expect(res.statusCode).toBe(200);
    const body = res.json() as PagedPostsResponse;
    ids.push(...body.posts.map((p) => p._id));
    if (!body.info.nextCursor) break;
    cursor = body.info.nextCursor;
  }
  return ids;
}

describe('GET /api/feed/:page', () => {
  it('lists newest first with likes, comment count, author and ready image URLs', async () => {
    const author = await createUser(t.db, { profilePicKey: `avatars/${'b'.repeat(64)}` });
    const older = await post(author.id, { caption: 'older' });
    const newer = await post(author.id, { caption: 'newer', catName: 'Miso' });
    await t.db.insert(likes).values([
      { postId: newer.id, userId: viewer.id },
      { postId: newer.id, userId: author.id },
    ]);
    await t.db.insert(comments).values([
      { postId: newer.id, userId: viewer.id, body: 'Lovely' },
      { postId: newer.id, userId: author.id, body: 'Thanks' },
      { postId: older.id, userId: viewer.id, body: 'Aww' },
    ]);

    const res = await feed(1);
    expect(res.statusCode).toBe(200);
    const body = res.json() as PagedPostsResponse;
    const [first, second] = body.posts;
    expect(first!._id).toBe(newer.id);
    expect(second!._id).toBe(older.id);
    expect(first!.caption).toBe('newer');
    expect(first!.catName).toBe('Miso');
    expect([...first!.greatCat].sort()).toEqual([author.id, viewer.id].sort());
    expect(first!.commentCount).toBe(2);
    expect(second!.commentCount).toBe(1);
    expect(first!.user).toEqual({
      _id: author.id,
      username: author.username,
      profilePicUrl: `/media/avatars/${'b'.repeat(64)}/300.webp`,
      avatarUrl: `/media/avatars/${'b'.repeat(64)}/72.webp`,
    });
    expect(first!.imageUrl).toBe(`/media/${newer.mediaKey}/800.webp`);
    expect(first!.image.variants['64']).toBe(`/media/${newer.mediaKey}/64.webp`);
    expect(first!.image.variants['1600']).toBe(`/media/${newer.mediaKey}/1600.webp`);
    // Built widest first (post-view.ts), written smallest first, as before.
    expect(res.body).toContain(
      `"variants":{${IMAGE_WIDTHS.map((w) => `"${w}":"/media/${newer.mediaKey}/${w}.webp"`).join(',')}}`,
    );
    expect(first!.image).toMatchObject({ width: 800, height: 800, placeholder: 'AAAA' });
    expect(first!.createdAt).toBe(new Date(newer.createdAt).toISOString());
    // Not the viewer's post: no group list.
    expect(first!.groupIds).toBeUndefined();
  });

  it('never shows hidden posts or posts of blocked and blocking users', async () => {
    const friend = await createUser(t.db);
    const blockedByViewer = await createUser(t.db);
    const blockingViewer = await createUser(t.db);
    const visible = await post(friend.id, { caption: 'visible' });
    const hidden = await post(friend.id, { caption: 'hidden' });
    const fromBlocked = await post(blockedByViewer.id);
    const fromBlocker = await post(blockingViewer.id);
    await t.db.insert(hiddenPosts).values({ userId: viewer.id, postId: hidden.id });
    await t.db.insert(blocks).values([
      { blockerId: viewer.id, blockedId: blockedByViewer.id },
      { blockerId: blockingViewer.id, blockedId: viewer.id },
    ]);

    const ids = await allFeedIds();
    expect(ids).toContain(visible.id);
    expect(ids).not.toContain(hidden.id);
    expect(ids).not.toContain(fromBlocked.id);
    expect(ids).not.toContain(fromBlocker.id);
    // Someone else still sees all of them except where they are involved themselves.
    const stranger = await createUser(t.db);
    const theirs = await allFeedIds(await authHeader(t.app, stranger.id));
    expect(theirs).toEqual(expect.arrayContaining([visible.id, hidden.id, fromBlocked.id, fromBlocker.id]));
  });

  it('pages by number with info.next, and the cursor walk is stable while others post', async () => {
    const poster = await createUser(t.db);
    for (let i = 0; i < 12; i += 1) await post(poster.id, { caption: `batch ${i}` });
    const snapshot = await allFeedIds();
    expect(new Set(snapshot).size).toBe(snapshot.length);

    // Page numbers: 5 per page, next until the last page.
    const total = snapshot.length;
    const lastPage = Math.ceil(total / PAGE);
    const page1 = (await feed(1)).json() as PagedPostsResponse;
    expect(page1.posts).toHaveLength(PAGE);
    expect(page1.info.next).toBe(2);
    expect(page1.info.nextCursor).toEqual(expect.any(String));
    const last = (await feed(lastPage)).json() as PagedPostsResponse;
    expect(last.posts.length).toBe(total - (lastPage - 1) * PAGE);
    expect(last.info).toEqual({ next: null, nextCursor: null });
    expect(((await feed(lastPage + 1)).json() as PagedPostsResponse).posts).toEqual([]);

    // Cursor walk: three new posts arrive after the first page; the walk neither repeats nor skips.
    const walked: string[] = [...page1.posts.map((p) => p._id)];
    let cursor = page1.info.nextCursor!;
    clock = Date.now() + 60_000;
    for (let i = 0; i < 3; i += 1) await post(poster.id, { caption: `meanwhile ${i}` });
    for (let page = 2; cursor; page += 1) {
      const body = (await feed(page, { cursor })).json() as PagedPostsResponse;
      walked.push(...body.posts.map((p) => p._id));
      cursor = body.info.nextCursor!;
    }
    expect(walked).toEqual(snapshot);
    // By contrast, page numbers shift by the new posts (the reason the cursor exists).
    const shifted = (await feed(2)).json() as PagedPostsResponse;
    expect(shifted.posts[0]!._id).toBe(snapshot[PAGE - 3]);
  });

  it('pages by number exactly as the cursor walk does, however many hidden and blocked posts come before', async () => {
    // Page numbers past 1 skip from the unfiltered feed and then make up for what the viewer does not
    // see (posts.repository.ts, deepFeedPage): hidden posts and both directions of blocks, before and
    // after every page boundary, and ties in the same instant across a boundary.
    const reader = await createUser(t.db);
    const readerAuth = await authHeader(t.app, reader.id);
    const authors = await Promise.all(Array.from({ length: 4 }, () => createUser(t.db)));
    const [blockedByReader, blockingReader] = await Promise.all([createUser(t.db), createUser(t.db)]);
    const created: PostRow[] = [];
    for (let i = 0; i < 40; i += 1) {
      const by = i % 7 === 3 ? blockedByReader : i % 11 === 5 ? blockingReader : authors[i % authors.length]!;
      created.push(await post(by.id, { caption: `deep ${i}` }));
      if (i % 9 === 0) {
        const tie = new Date(clock);
        created.push(await createPost(t.db, authors[0]!.id, { createdAt: tie }));
      }
    }
    // Some hidden posts are also behind a block (hidden first, blocked later): counted once.
    const hidden = created.filter((p, i) => i % 4 === 1 || p.userId === blockedByReader.id);
    await t.db.insert(hiddenPosts).values(hidden.map((p) => ({ userId: reader.id, postId: p.id })));
    await t.db.insert(blocks).values([
      { blockerId: reader.id, blockedId: blockedByReader.id },
      { blockerId: blockingReader.id, blockedId: reader.id },
    ]);

    const walked = await allFeedIds(readerAuth);
    const createdIds = new Set(created.map((p) => p.id));
    const hiddenIds = new Set(hidden.map((p) => p.id));
    // The walk itself leaves out exactly what it must.
    for (const p of created) {
      const excluded =
        hiddenIds.has(p.id) || p.userId === blockedByReader.id || p.userId === blockingReader.id;
      expect(walked.includes(p.id), `${p.caption}`).toBe(!excluded);
    }
    expect(walked.filter((id) => createdIds.has(id)).length).toBeGreaterThan(PAGE * 3);

    const lastPage = Math.ceil(walked.length / PAGE);
    for (let page = 1; page <= lastPage + 1; page += 1) {
      const body = (await feed(page, { auth: readerAuth })).json() as PagedPostsResponse;
      expect(
        body.posts.map((p) => p._id),
        `page ${page}`,
      ).toEqual(walked.slice((page - 1) * PAGE, page * PAGE));
      expect(body.info.next, `page ${page}`).toBe(page < lastPage ? page + 1 : null);
    }
  });

  it('keeps posts created in the same instant apart (ties broken by id)', async () => {
    const poster = await createUser(t.db);
    const at = new Date(Date.parse('2023-06-01T12:00:00.123Z'));
    const created: PostRow[] = [];
    for (let i = 0; i < 7; i += 1) created.push(await createPost(t.db, poster.id, { createdAt: at }));
    const ids = await allFeedIds();
    const sameInstant = ids.filter((id) => created.some((c) => c.id === id));
    expect(sameInstant).toEqual(
      created
        .map((c) => c.id)
        .sort()
        .reverse(),
    );
  });

  it('answers 400 for page 0, negative, non-numeric pages and forged cursors; 401 without a token', async () => {
    for (const page of ['0', '-1', 'abc', '1.5']) {
      const res = await feed(page);
      expect(res.statusCode, page).toBe(400);
      expect((res.json() as { message: string }).message, page).toEqual(expect.any(String));
    }
    expect((await feed(0)).json()).toEqual({ message: 'Page starts at 1' });
    for (const cursor of ['garbage', Buffer.from('2024-01-01|x').toString('base64url')]) {
      const res = await feed(2, { cursor });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Invalid cursor' });
    }
    const res = await t.app.inject({ url: '/api/feed/1' });
    expect(res.statusCode).toBe(401);
  });
});

describe('location precision', () => {
  // 36.72131, -4.42139 sits inside one grid cell; strangers get that cell's centre.
  const exact = { latitude: 36.72131, longitude: -4.42139 };

  async function seen(
    postId: string,
    auth: { authorization: string },
    authorId: string,
  ): Promise<Post | undefined> {
    const res = await t.app.inject({
      url: `/api/profile/getPosts/?user=${authorId}&pagenum=1`,
      headers: auth,
    });
    expect(res.statusCode).toBe(200);
    return (res.json() as PagedPostsResponse).posts.find((p) => p._id === postId);
  }

  it('owner sees exact coordinates; strangers the centre of a ~500 m cell', async () => {
    const owner = await createUser(t.db);
    const located = await post(owner.id, { ...exact, showLocation: true });
    const mine = (await seen(located.id, await authHeader(t.app, owner.id), owner.id))!;
    expect([mine.latitude, mine.longitude, mine.locationPrecision]).toEqual([
      exact.latitude,
      exact.longitude,
      'exact',
    ]);

    const theirs = (await seen(located.id, viewerAuth, owner.id))!;
    expect(theirs.locationPrecision).toBe('approximate');
    expect(theirs.showLocation).toBe(true);
    const centre = approximateLocation(exact.latitude, exact.longitude);
    expect([theirs.latitude, theirs.longitude]).toEqual([centre.latitude, centre.longitude]);
    expect(theirs.latitude).not.toBe(exact.latitude);
    // The centre is within half a cell of the truth (~250 m each way), never the exact point.
    const metresNorth = Math.abs(theirs.latitude! - exact.latitude) * 111_320;
    const metresEast =
      Math.abs(theirs.longitude! - exact.longitude) * 111_320 * Math.cos((exact.latitude * Math.PI) / 180);
    expect(metresNorth).toBeLessThanOrEqual(255);
    expect(metresEast).toBeLessThanOrEqual(255);
    // The demo user is a stranger too, and sees names anonymised.
    const demo = (await seen(located.id, await authHeader(t.app, DEMO_USER_ID), owner.id))!;
    expect(demo.locationPrecision).toBe('approximate');
    expect(demo.user.username).toBe(ANONYMISED_USERNAME);
  });

  it('every point of a cell maps to the same centre (no averaging attack)', () => {
    const a = approximateLocation(36.7201, -4.4201);
    const b = approximateLocation(36.7201 + LOCATION_GRID_DEGREES * 0.4, -4.4201 + 0.001);
    expect(a).toEqual(b);
    const far = approximateLocation(36.7201 + LOCATION_GRID_DEGREES, -4.4201);
    expect(far.latitude).toBeCloseTo(a.latitude + LOCATION_GRID_DEGREES, 6);
    for (const [lat, lng] of [
      [89.9999, 179.9999],
      [-89.9999, -179.9999],
      [0, 0],
    ] as const) {
      const c = approximateLocation(lat, lng);
      expect(Math.abs(c.latitude)).toBeLessThanOrEqual(90);
      expect(Math.abs(c.longitude)).toBeLessThanOrEqual(180);
    }
  });

  it('owners who chose exact public locations are shown exactly to everyone', async () => {
    const open = await createUser(t.db, { exactPublicLocation: true });
    const located = await post(open.id, { ...exact, showLocation: true });
    const theirs = (await seen(located.id, viewerAuth, open.id))!;
    expect([theirs.latitude, theirs.longitude, theirs.locationPrecision]).toEqual([
      exact.latitude,
      exact.longitude,
      'exact',
    ]);
  });

  it('with the switch off, only the owner sees coordinates', async () => {
    const owner = await createUser(t.db, { exactPublicLocation: true });
    const quiet = await post(owner.id, { ...exact, showLocation: false });
    const theirs = (await seen(quiet.id, viewerAuth, owner.id))!;
    expect([theirs.latitude, theirs.longitude, theirs.locationPrecision, theirs.showLocation]).toEqual([
      null,
      null,
      null,
      false,
    ]);
    const mine = (await seen(quiet.id, await authHeader(t.app, owner.id), owner.id))!;
    expect([mine.latitude, mine.longitude, mine.showLocation]).toEqual([
      exact.latitude,
      exact.longitude,
      false,
    ]);
    const none = await post(owner.id, { showLocation: false });
    const noCoords = (await seen(none.id, await authHeader(t.app, owner.id), owner.id))!;
    expect([noCoords.latitude, noCoords.longitude, noCoords.locationPrecision]).toEqual([null, null, null]);
  });

  it('members see shared posts exactly wherever they meet them; switched off, nobody but the owner', async () => {
    const owner = await createUser(t.db);
    const member = await createUser(t.db);
    const outsider = await createUser(t.db);
    const [group] = await t.db
      .insert(groups)
      .values({ name: 'Rooftops', code: `Roof#${Date.now() % 10000}`, ownerId: owner.id })
      .returning();
    await t.db.insert(groupMembers).values([
      { groupId: group!.id, userId: owner.id, role: 'owner' },
      { groupId: group!.id, userId: member.id, role: 'member' },
    ]);
    const shared = await post(owner.id, { ...exact, showLocation: true });
    const switchedOff = await post(owner.id, { ...exact, showLocation: false });
    await t.db.insert(postGroups).values([
      { postId: shared.id, groupId: group!.id, userId: owner.id },
      { postId: switchedOff.id, groupId: group!.id, userId: owner.id },
    ]);
    const opts = { page: 1, pageSize: 10, publicBase: undefined };
    const asMember = await listPosts(
      t.db,
      { userId: member.id, isDemo: false },
      { groupId: group!.id },
      opts,
    );
    expect(asMember.posts.map((p) => [p._id, p.latitude, p.longitude, p.locationPrecision])).toEqual([
      [switchedOff.id, null, null, null],
      [shared.id, exact.latitude, exact.longitude, 'exact'],
    ]);
    // The demo account, even as a member (as the seed makes it), is a stranger for locations.
    await t.db.insert(groupMembers).values({ groupId: group!.id, userId: DEMO_USER_ID, role: 'member' });
    const asDemo = await listPosts(
      t.db,
      { userId: DEMO_USER_ID, isDemo: true },
      { groupId: group!.id },
      opts,
    );
    const cell = approximateLocation(exact.latitude, exact.longitude);
    expect(asDemo.posts.map((p) => [p._id, p.latitude, p.longitude, p.locationPrecision])).toEqual([
      [switchedOff.id, null, null, null],
      [shared.id, cell.latitude, cell.longitude, 'approximate'],
    ]);
    const asOutsider = await listPosts(
      t.db,
      { userId: outsider.id, isDemo: false },
      { groupId: group!.id },
      opts,
    );
    expect(asOutsider.posts).toEqual([]);
    // The feed shows the member the same exact spot as the group does, and the switched-off post no spot.
    const inFeed = (await seen(shared.id, await authHeader(t.app, member.id), owner.id))!;
    expect([inFeed.latitude, inFeed.longitude, inFeed.locationPrecision]).toEqual([
      exact.latitude,
      exact.longitude,
      'exact',
    ]);
    const offInFeed = (await seen(switchedOff.id, await authHeader(t.app, member.id), owner.id))!;
    expect([offInFeed.latitude, offInFeed.longitude]).toEqual([null, null]);
    // Only the owner learns which groups it is shared with.
    const mine = (await seen(shared.id, await authHeader(t.app, owner.id), owner.id))!;
    expect(mine.groupIds).toEqual([group!.id]);
    expect(inFeed.groupIds).toBeUndefined();
  });
});

describe('GET /api/profile/getPosts/', () => {
  it("lists one author's posts, paged like the feed", async () => {
    const author = await createUser(t.db);
    const other = await createUser(t.db);
    const made: PostRow[] = [];
    for (let i = 0; i < 7; i += 1) made.push(await post(author.id));
    await post(other.id);
    const page1 = await t.app.inject({
      url: `/api/profile/getPosts/?user=${author.id}&pagenum=1`,
      headers: viewerAuth,
    });
    expect(page1.statusCode).toBe(200);
    const body1 = page1.json() as PagedPostsResponse;
    expect(body1.posts.map((p) => p._id)).toEqual(
      made
        .slice(-PAGE)
        .reverse()
        .map((p) => p.id),
    );
    expect(body1.info.next).toBe(2);
    const page2 = (
      await t.app.inject({
        url: `/api/profile/getPosts?user=${author.id}&pagenum=2&cursor=${body1.info.nextCursor}&currentUserId=ignored`,
        headers: viewerAuth,
      })
    ).json() as PagedPostsResponse;
    expect(page2.posts.map((p) => p._id)).toEqual(
      made
        .slice(0, 2)
        .reverse()
        .map((p) => p.id),
    );
    expect(page2.info).toEqual({ next: null, nextCursor: null });
  });

  it('answers 404 for an unknown or malformed user id and 400 for a bad page', async () => {
    for (const user of ['9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d', 'not-an-id', "1' or 1=1"]) {
      const res = await t.app.inject({
        url: `/api/profile/getPosts/?user=${encodeURIComponent(user)}&pagenum=1`,
        headers: viewerAuth,
      });
      expect(res.statusCode, user).toBe(404);
      expect(res.json()).toEqual({ message: 'User not found' });
    }
    const res = await t.app.inject({
      url: `/api/profile/getPosts/?user=${viewer.id}&pagenum=0`,
      headers: viewerAuth,
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('feed query plan', () => {
  it('can page on posts_feed_idx alone: keyset condition in the index, no sort of posts', async () => {
    // With test-sized tables the planner rightly prefers a sequential scan; switching the other plan
    // shapes off shows that an index-only ordering exists, which is what large tables get.
    const cursor = { createdAt: '2024-01-01T00:10:00.000000Z', id: 'ffffffff-ffff-4fff-bfff-ffffffffffff' };
    const plan = await t.db.transaction(async (tx) => {
      for (const setting of ['seqscan', 'sort', 'bitmapscan', 'hashjoin', 'mergejoin']) {
        await tx.execute(sql.raw(`set local enable_${setting} = off`));
      }
      const query = visiblePostsQuery(tx, viewer.id, {}, { limit: PAGE, cursor });
      const result = await tx.execute(sql`explain ${query.getSQL()}`);
      return ((result as unknown as { rows: Record<string, string>[] }).rows ?? [])
        .map((r) => Object.values(r)[0])
        .join('\n');
    });
    // Index-only where the visibility map allows it: the index also carries the author (the block filter).
    expect(plan).toMatch(/Index (Only )?Scan using posts_feed_idx on posts/);
    expect(plan).toMatch(/Index Cond: \(ROW\(created_at, id\) < ROW\(/);
    // The only sorts are inside the per-post subqueries (like and group lists), never of posts.
    expect(plan).not.toMatch(/Sort Key: posts\./);
  });
});
