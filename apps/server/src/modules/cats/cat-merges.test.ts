import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAT_HISTORY_PAGE_SIZE,
  CAT_MESSAGES,
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  type Cat,
  type CatHistoryResponse,
  type CatMerge,
  type CatResponse,
  type CatSightingsResponse,
  type CatsResponse,
  type MergeCatsResponse,
} from '@cats/contracts';
import {
  blocks,
  catCaretakers,
  catFollows,
  catMerges,
  cats,
  notifications,
  posts,
} from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createCat, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { NO_RATE_LIMITS } from '../../../test/hostile/support/world.ts';

type Who = { id: string } | null;

/**
 * Issue 26, "Linking sightings": two profiles of one cat merged by a caretaker of both; the merge is in
 * the cat's history and can be undone for 30 days, moving back exactly what it moved.
 */
describe('cat merges', () => {
  let t: TestApp;
  let ana: CreatedUser; // cares for both profiles
  let ben: CreatedUser; // cares for the duplicate only
  let cleo: CreatedUser; // cares for the survivor only
  let fan: CreatedUser; // follows the duplicate
  let stranger: CreatedUser;

  async function api(user: Who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
    return t.app.inject({
      method,
      url,
      headers: user ? await authHeader(t.app, user.id) : {},
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  }
  const merge = (who: Who, catId: string, duplicateCatId: unknown) =>
    api(who, 'POST', `/api/cats/${catId}/merge`, { duplicateCatId });
  const undo = (who: Who, catId: string, mergeId: string) =>
    api(who, 'POST', `/api/cats/${catId}/merges/${mergeId}/undo`);
  const mergeOk = async (who: Who, catId: string, duplicateCatId: string) => {
    const res = await merge(who, catId, duplicateCatId);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as MergeCatsResponse;
  };
  const history = async (who: Who, catId: string) => {
    const res = await api(who, 'GET', `/api/cats/${catId}/history`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as CatHistoryResponse).merges;
  };
  const catIdsOf = async (postIds: string[]) => {
    const rows = await t.db.select({ id: posts.id, catId: posts.catId }).from(posts);
    return postIds.map((id) => rows.find((r) => r.id === id)?.catId);
  };
  const people = async (table: typeof catFollows | typeof catCaretakers, catId: string) =>
    (await t.db.select({ userId: table.userId }).from(table).where(eq(table.catId, catId)))
      .map((r) => r.userId)
      .sort();
  /** Everything a refusal must leave as it was. */
  const snapshot = async () => ({
    cats: await t.db.select().from(cats).orderBy(asc(cats.id)),
    links: await t.db.select({ id: posts.id, catId: posts.catId }).from(posts).orderBy(asc(posts.id)),
    follows: await t.db.select().from(catFollows).orderBy(asc(catFollows.catId), asc(catFollows.userId)),
    caretakers: await t.db
      .select()
      .from(catCaretakers)
      .orderBy(asc(catCaretakers.catId), asc(catCaretakers.userId)),
    merges: await t.db.select().from(catMerges).orderBy(asc(catMerges.id)),
    entries: await t.db.select().from(notifications).orderBy(asc(notifications.id)),
  });

  /** Luna (ana, cleo) and her duplicate 'Luna 2' (ana, ben), each with sightings and followers. */
  async function pair() {
    const luna = await createCat(t.db, ana.id, { name: 'Luna', caretakers: [cleo.id] });
    const twin = await createCat(t.db, ana.id, { name: 'Luna 2', caretakers: [ben.id] });
    const lunaPost = await createPost(t.db, stranger.id, { catId: luna.id });
    const twinPosts = [
      await createPost(t.db, stranger.id, { catId: twin.id }),
      await createPost(t.db, fan.id, { catId: twin.id }),
      // Trashed: restored, it is Luna's.
      await createPost(t.db, fan.id, { catId: twin.id, deletedAt: new Date() }),
    ];
    await api(fan, 'PUT', `/api/cats/${twin.id}/follow`);
    await api(cleo, 'PUT', `/api/cats/${twin.id}/follow`);
    await api(cleo, 'PUT', `/api/cats/${luna.id}/follow`);
    return { luna, twin, lunaPost, twinPosts };
  }

  beforeAll(async () => {
    t = await buildTestApp(NO_RATE_LIMITS);
    [ana, ben, cleo, fan, stranger] = [
      await createUser(t.db),
      await createUser(t.db),
      await createUser(t.db),
      await createUser(t.db),
      await createUser(t.db),
    ];
  });
  afterAll(async () => t?.close());

  it("moves the duplicate's sightings, followers and caretakers to the survivor, whose id the duplicate's leads to", async () => {
    const { luna, twin, lunaPost, twinPosts } = await pair();
    const { message, cat, merge: done } = await mergeOk(ana, luna.id, twin.id);
    expect(message).toBe('Cats merged');
    expect(cat).toMatchObject({ _id: luna.id, name: 'Luna', sightingCount: 3, followerCount: 2 });
    expect(done).toMatchObject({
      cat: { _id: luna.id, name: 'Luna' },
      duplicate: { _id: twin.id, name: 'Luna 2' },
      mergedBy: { _id: ana.id, username: ana.username },
      undoneBy: null,
      undoneAt: null,
      canUndo: true,
    });
    expect(new Date(done.undoUntil).getTime() - new Date(done.mergedAt).getTime()).toBe(30 * 86_400_000);

    expect(await catIdsOf([lunaPost.id, ...twinPosts.map((p) => p.id)])).toEqual([
      luna.id,
      luna.id,
      luna.id,
      luna.id,
    ]);
    expect(await people(catFollows, luna.id)).toEqual([cleo.id, fan.id].sort());
    expect(await people(catFollows, twin.id)).toEqual([]);
    expect(await people(catCaretakers, luna.id)).toEqual([ana.id, ben.id, cleo.id].sort());
    expect(await people(catCaretakers, twin.id)).toEqual([]);
    const [row] = await t.db.select().from(cats).where(eq(cats.id, twin.id));
    expect(row!.mergedInto).toBe(luna.id);

    // The duplicate's id answers with the survivor, and says so; its sightings and map are Luna's.
    const res = await api(stranger, 'GET', `/api/cats/${twin.id}`);
    expect(res.statusCode).toBe(200);
    const answer = res.json() as CatResponse;
    expect(answer.mergedInto).toBe(luna.id);
    expect(answer.cat._id).toBe(luna.id);
    expect((await api(stranger, 'GET', `/api/cats/${luna.id}`)).json()).not.toHaveProperty('mergedInto');
    const sightings = (
      await api(stranger, 'GET', `/api/cats/${twin.id}/sightings`)
    ).json() as CatSightingsResponse;
    expect(sightings.posts.map((p) => p.cat?._id)).toEqual([luna.id, luna.id, luna.id]);
    // It is no cat of its own in the list any more.
    const list = (await api(stranger, 'GET', '/api/cats?q=luna')).json() as CatsResponse;
    expect(list.cats.map((c) => c._id)).toContain(luna.id);
    expect(list.cats.map((c) => c._id)).not.toContain(twin.id);

    // The history of both ids holds the merge, with who and when; the answers carry no place.
    const merges = await history(stranger, luna.id);
    expect(merges).toHaveLength(1);
    expect(merges[0]).toMatchObject({ _id: done._id, mergedBy: { _id: ana.id }, canUndo: false });
    expect((await history(ana, twin.id))[0]).toMatchObject({ _id: done._id, canUndo: true });
    expect(JSON.stringify(merges)).not.toMatch(/latitude|longitude/);
  });

  it('links posts, follows and suggestions made with a merged id to the survivor', async () => {
    const { luna, twin } = await pair();
    await mergeOk(ana, luna.id, twin.id);
    const post = await createPost(t.db, stranger.id);
    const linked = await api(stranger, 'PUT', `/api/posts/${post.id}/cat`, { catId: twin.id });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toMatchObject({ updatedPost: { cat: { _id: luna.id } } });
    const followed = await api(stranger, 'PUT', `/api/cats/${twin.id}/follow`);
    expect(followed.statusCode).toBe(200);
    expect(await people(catFollows, luna.id)).toContain(stranger.id);
    expect(await people(catFollows, twin.id)).toEqual([]);
    // The database sends a link to a merged cat on to the survivor, whoever writes it.
    const direct = await createPost(t.db, stranger.id, { catId: twin.id });
    expect(direct.catId).toBe(luna.id);
  });

  it('lets a caretaker of the survivor undo it: exactly what moved goes back, sightings linked since stay', async () => {
    const { luna, twin, lunaPost, twinPosts } = await pair();
    const { merge: done } = await mergeOk(ana, luna.id, twin.id);
    // After the merge: a new sighting of Luna, a new follower, and one moved picture relinked by its author.
    const since = await createPost(t.db, stranger.id);
    await api(stranger, 'PUT', `/api/posts/${since.id}/cat`, { catId: luna.id });
    await api(stranger, 'PUT', `/api/cats/${luna.id}/follow`);
    const other = await createCat(t.db, fan.id, { name: 'Other' });
    const relinked = twinPosts[1]!;
    await api(fan, 'PUT', `/api/posts/${relinked.id}/cat`, { catId: other.id });
    // A moved picture as Luna's cover: it goes with its post.
    await t.db.update(cats).set({ coverPostId: twinPosts[0]!.id }).where(eq(cats.id, luna.id));

    // ben came with the duplicate: he may undo it too, as a caretaker of Luna.
    const res = await undo(ben, luna.id, done._id);
    expect(res.statusCode, res.body).toBe(200);
    const { message, merge: undone } = res.json() as { message: string; merge: CatMerge };
    expect(message).toBe('Merge undone');
    expect(undone).toMatchObject({ undoneBy: { _id: ben.id }, canUndo: false });
    expect(undone.undoneAt).not.toBeNull();

    expect(await catIdsOf([lunaPost.id, since.id, twinPosts[0]!.id, relinked.id, twinPosts[2]!.id])).toEqual([
      luna.id,
      luna.id,
      twin.id,
      other.id,
      twin.id,
    ]);
    expect(await people(catFollows, twin.id)).toEqual([cleo.id, fan.id].sort());
    // cleo followed Luna before: she stays; fan came with the merge: he goes; the new follower stays.
    expect(await people(catFollows, luna.id)).toEqual([cleo.id, stranger.id].sort());
    expect(await people(catCaretakers, twin.id)).toEqual([ana.id, ben.id].sort());
    expect(await people(catCaretakers, luna.id)).toEqual([ana.id, cleo.id].sort());
    const [lunaRow, twinRow] = await Promise.all(
      [luna.id, twin.id].map(async (id) => (await t.db.select().from(cats).where(eq(cats.id, id)))[0]!),
    );
    expect(twinRow!.mergedInto).toBeNull();
    expect(lunaRow!.coverPostId).toBeNull();
    const answer = (await api(stranger, 'GET', `/api/cats/${twin.id}`)).json() as CatResponse;
    expect(answer.cat._id).toBe(twin.id);
    expect(answer).not.toHaveProperty('mergedInto');

    const merges = await history(ana, luna.id);
    expect(merges[0]).toMatchObject({ _id: done._id, undoneBy: { _id: ben.id }, canUndo: false });
    // Undone once is undone.
    const again = await undo(ana, luna.id, done._id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: CAT_MESSAGES.undoAlreadyUndone });
  });

  it('refuses merges with a clear message, and changes nothing', async () => {
    const { luna, twin } = await pair();
    const lone = await createCat(t.db, ben.id, { name: 'Lone' });
    const merged = await createCat(t.db, ana.id, { name: 'Gone' });
    const into = await createCat(t.db, ana.id, { name: 'Into' });
    await mergeOk(ana, into.id, merged.id);
    const before = await snapshot();
    const cases: [Who, string, unknown, number, string][] = [
      // cleo cares for Luna only, ben for the twin only, the stranger for neither.
      [cleo, luna.id, twin.id, 403, CAT_MESSAGES.mergeNotCaretaker],
      [ben, luna.id, twin.id, 403, CAT_MESSAGES.mergeNotCaretaker],
      [ben, twin.id, luna.id, 403, CAT_MESSAGES.mergeNotCaretaker],
      [stranger, luna.id, twin.id, 403, CAT_MESSAGES.mergeNotCaretaker],
      [ana, luna.id, luna.id, 400, CAT_MESSAGES.mergeSameCat],
      [ana, luna.id, luna.id.toUpperCase(), 400, CAT_MESSAGES.mergeSameCat],
      [ana, luna.id, merged.id, 409, CAT_MESSAGES.duplicateMerged],
      [ana, merged.id, luna.id, 409, CAT_MESSAGES.survivorMerged],
      [ana, luna.id, crypto.randomUUID(), 404, CAT_MESSAGES.notFound],
      [ana, crypto.randomUUID(), twin.id, 404, CAT_MESSAGES.notFound],
      [ana, 'nope', twin.id, 404, CAT_MESSAGES.notFound],
      [ana, luna.id, 'nope', 404, CAT_MESSAGES.notFound],
      [ana, luna.id, undefined, 400, ''],
      [ana, luna.id, 42, 400, ''],
      // ben cares for both the lone cat and the twin, but the twin's merge is ana's to make with Luna.
      [ben, lone.id, luna.id, 403, CAT_MESSAGES.mergeNotCaretaker],
      [{ id: DEMO_USER_ID }, luna.id, twin.id, 403, DEMO_DISABLED_MESSAGE],
      [null, luna.id, twin.id, 401, ''],
    ];
    for (const [who, catId, duplicateCatId, status, message] of cases) {
      const res = await merge(who, catId, duplicateCatId);
      expect(res.statusCode, `${catId} <- ${String(duplicateCatId)}: ${res.body}`).toBe(status);
      const body = res.json() as { message: unknown };
      expect(typeof body.message).toBe('string');
      if (message) expect(body.message).toBe(message);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses to merge a duplicate that is marked missing, until it is found', async () => {
    const { luna, twin } = await pair();
    const raised = await api(ana, 'POST', `/api/cats/${twin.id}/missing`, {
      lastSeenAt: new Date(Date.now() - 3_600_000).toISOString(),
      place: { latitude: 36.7213, longitude: -4.4214 },
      note: 'Seen last by the bakery.',
      contact: 'keep_distance',
    });
    expect(raised.statusCode, raised.body).toBe(201);
    const before = await snapshot();
    const res = await merge(ana, luna.id, twin.id);
    expect(res.statusCode, res.body).toBe(409);
    expect((res.json() as { message: string }).message).toBe(CAT_MESSAGES.mergeDuplicateMissing);
    expect(await snapshot()).toEqual(before);
    // The survivor's own alert does not stand in the way, and once the twin is found the merge goes.
    const found = await api(ana, 'DELETE', `/api/cats/${twin.id}/missing`);
    expect(found.statusCode, found.body).toBe(200);
    await mergeOk(ana, luna.id, twin.id);
  });

  it('refuses undos with a clear message, and changes nothing', async () => {
    const { luna, twin } = await pair();
    const { merge: done } = await mergeOk(ana, luna.id, twin.id);
    const other = await createCat(t.db, ana.id, { name: 'Other' });
    const before = await snapshot();
    const cases: [Who, string, string, number, string][] = [
      [stranger, luna.id, done._id, 403, CAT_MESSAGES.undoNotCaretaker],
      [fan, luna.id, done._id, 403, CAT_MESSAGES.undoNotCaretaker],
      [{ id: DEMO_USER_ID }, luna.id, done._id, 403, DEMO_DISABLED_MESSAGE],
      [null, luna.id, done._id, 401, ''],
      [ana, luna.id, crypto.randomUUID(), 404, CAT_MESSAGES.mergeNotFound],
      [ana, luna.id, 'nope', 404, CAT_MESSAGES.mergeNotFound],
      [ana, other.id, done._id, 404, CAT_MESSAGES.mergeNotFound],
      [ana, crypto.randomUUID(), done._id, 404, CAT_MESSAGES.notFound],
    ];
    for (const [who, catId, mergeId, status, message] of cases) {
      const res = await undo(who, catId, mergeId);
      expect(res.statusCode, res.body).toBe(status);
      if (message) expect(res.json()).toEqual({ message });
    }
    expect(await snapshot()).toEqual(before);

    // Older than 30 days: refused, and said why.
    await t.db
      .update(catMerges)
      .set({ mergedAt: sql`now() - interval '31 days'` })
      .where(eq(catMerges.id, done._id));
    const late = await snapshot();
    const res = await undo(ana, luna.id, done._id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: CAT_MESSAGES.undoExpired });
    expect(await snapshot()).toEqual(late);
    expect((await history(ana, luna.id))[0]!.canUndo).toBe(false);
  });

  it('undoes merges in a row last first: the earlier one waits for the later', async () => {
    const a = await createCat(t.db, ana.id, { name: 'Ash' });
    const b = await createCat(t.db, ana.id, { name: 'Birch' });
    const c = await createCat(t.db, ana.id, { name: 'Cedar' });
    const seen = await createPost(t.db, stranger.id, { catId: a.id });
    const first = (await mergeOk(ana, b.id, a.id)).merge;
    const second = (await mergeOk(ana, c.id, b.id)).merge;
    expect(await catIdsOf([seen.id])).toEqual([c.id]);
    // Ash's id leads through Birch to Cedar.
    expect(((await api(stranger, 'GET', `/api/cats/${a.id}`)).json() as CatResponse).cat._id).toBe(c.id);
    expect((await history(ana, b.id))[0]).toMatchObject({ _id: second._id, canUndo: true });
    expect((await history(ana, b.id))[1]).toMatchObject({ _id: first._id, canUndo: false });
    const early = await undo(ana, b.id, first._id);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ message: CAT_MESSAGES.undoLaterMerge });
    expect((await undo(ana, c.id, second._id)).statusCode).toBe(200);
    expect(await catIdsOf([seen.id])).toEqual([b.id]);
    expect((await undo(ana, b.id, first._id)).statusCode).toBe(200);
    expect(await catIdsOf([seen.id])).toEqual([a.id]);
  });

  it("keeps a household duplicate's home sightings private: the survivor takes its home point, and an undo gives it back", async () => {
    const home = { latitude: 51.51, longitude: -0.13 };
    const luna = await createCat(t.db, ana.id, { name: 'Luna', living: 'community' });
    const twin = await createCat(t.db, ana.id, {
      name: 'Luna at home',
      living: 'household',
      homeLatitude: home.latitude,
      homeLongitude: home.longitude,
    });
    const nearHome = await createPost(t.db, ben.id, {
      catId: twin.id,
      latitude: home.latitude + 0.0004,
      longitude: home.longitude,
      showLocation: true,
    });
    await mergeOk(ana, luna.id, twin.id);
    const [merged] = await t.db.select().from(cats).where(eq(cats.id, luna.id));
    expect(merged).toMatchObject({ living: 'household', homeLatitude: home.latitude });
    // Not Luna's for the stranger (migration 0018), as it was not the duplicate's.
    const sightings = (
      await api(stranger, 'GET', `/api/cats/${luna.id}/sightings`)
    ).json() as CatSightingsResponse;
    expect(sightings.posts.map((p) => p._id)).not.toContain(nearHome.id);
    const forAna = (await api(ana, 'GET', `/api/cats/${luna.id}`)).json() as { cat: Cat };
    expect(forAna.cat.home).toEqual(home);

    const [done] = await history(ana, luna.id);
    expect((await undo(ana, luna.id, done!._id)).statusCode).toBe(200);
    const [after] = await t.db.select().from(cats).where(eq(cats.id, luna.id));
    expect(after).toMatchObject({ living: 'community', homeLatitude: null, homeLongitude: null });
  });

  it('leaves people behind a block out of the history, and keeps a cat with a caretaker on undo', async () => {
    const luna = await createCat(t.db, ana.id, { name: 'Luna' });
    const twin = await createCat(t.db, ana.id, { name: 'Twin', caretakers: [ben.id] });
    const { merge: done } = await mergeOk(ana, luna.id, twin.id);
    await t.db.insert(blocks).values({ blockerId: stranger.id, blockedId: ana.id });
    expect((await history(stranger, luna.id))[0]!.mergedBy).toBeNull();
    await t.db.delete(blocks).where(eq(blocks.blockerId, stranger.id));
    // ana leaves Luna to ben (who came with the duplicate); ben undoes: he stays Luna's caretaker too.
    const left = await api(ana, 'DELETE', `/api/cats/${luna.id}/caretakers/${ana.id}`);
    expect(left.statusCode, left.body).toBe(200);
    expect((await undo(ben, luna.id, done._id)).statusCode).toBe(200);
    expect(await people(catCaretakers, luna.id)).toEqual([ben.id]);
    expect(await people(catCaretakers, twin.id)).toEqual([ana.id, ben.id].sort());
  });

  it('pages the history newest first by cursor, every merge once, down to the microsecond', async () => {
    const luna = await createCat(t.db, ana.id, { name: 'Luna' });
    const made: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const twin = await createCat(t.db, ana.id, { name: `Twin ${i}` });
      made.push((await mergeOk(ana, luna.id, twin.id)).merge._id);
    }
    // Older merges, recorded directly: in threes at the same microsecond, or a microsecond apart.
    for (let i = 0; i < CAT_HISTORY_PAGE_SIZE + 3; i += 1) {
      const twin = await createCat(t.db, ana.id, { name: `Old ${i}`, mergedInto: luna.id });
      const [row] = await t.db
        .insert(catMerges)
        .values({
          catId: luna.id,
          duplicateCatId: twin.id,
          mergedBy: ana.id,
          mergedAt: sql`'2026-01-01T10:00:00.000007Z'::timestamptz - ${Math.floor(i / 3)} * interval '1 minute' - ${i % 2} * interval '1 microsecond'`,
        })
        .returning({ id: catMerges.id });
      made.push(row!.id);
    }
    const expected = (
      await t.db
        .select({ id: catMerges.id })
        .from(catMerges)
        .where(eq(catMerges.catId, luna.id))
        .orderBy(sql`${catMerges.mergedAt} desc, ${catMerges.id} desc`)
    ).map((r) => r.id);
    expect([...expected].sort()).toEqual([...made].sort());
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/api/cats/${luna.id}/history${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await api(stranger, 'GET', url);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as CatHistoryResponse;
      seen.push(...body.merges.map((m) => m._id));
      sizes.push(body.merges.length);
      cursor = body.info.nextCursor;
    } while (cursor && sizes.length < 5);
    expect(sizes).toEqual([CAT_HISTORY_PAGE_SIZE, 5]);
    expect(seen).toEqual(expected);
    // The newest merges first, as they were made.
    expect(seen.slice(0, 2)).toEqual([made[1], made[0]]);
    for (const bad of ['zzz', Buffer.from('2026-01-01|x').toString('base64url')]) {
      const res = await api(stranger, 'GET', `/api/cats/${luna.id}/history?cursor=${bad}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Invalid cursor' });
    }
    const unknown = await api(stranger, 'GET', `/api/cats/${crypto.randomUUID()}/history`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: CAT_MESSAGES.notFound });
  });

  it('keeps its rules in the database too', async () => {
    const a = await createCat(t.db, ana.id);
    const b = await createCat(t.db, ana.id);
    await expect(t.db.update(cats).set({ mergedInto: a.id }).where(eq(cats.id, a.id))).rejects.toThrow();
    await expect(t.db.insert(catMerges).values({ catId: a.id, duplicateCatId: a.id })).rejects.toThrow();
    await t.db.insert(catMerges).values({ catId: a.id, duplicateCatId: b.id });
    // One merge of a duplicate in force at a time.
    await expect(t.db.insert(catMerges).values({ catId: a.id, duplicateCatId: b.id })).rejects.toThrow();
  });
});
