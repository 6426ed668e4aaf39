import { and, asc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { isUuid } from '@cats/contracts';
import type { Executor } from '../../db/client.ts';
import { catCaretakers, catFollows, cats, posts, users, type CatRow } from '../../db/schema/index.ts';
import { notBlockedWith, postVisibleTo } from '../visibility/visibility.ts';
import type { CoverRow } from './cover-row.ts';
import { sightingVisibleTo } from './sighting-visibility.ts';

/**
 * SQL of the cats (issue 26). Sightings are posts with cat_id set; wherever they are read for a viewer
 * they pass the feed's visibility (live, not hidden by the viewer, no block either way with the author).
 * Positions leave here raw, with what the location rule needs; the service decides what the viewer sees.
 * Here: a cat, its caretakers, followers and linked posts. The lists' SQL is in cats-list.repository.ts
 * and cats-nearest.repository.ts, Spot's in cat-suggestions.repository.ts.
 */

export type NewCat = typeof cats.$inferInsert;

export async function insertCat(db: Executor, values: NewCat): Promise<string> {
  const [row] = await db.insert(cats).values(values).returning({ id: cats.id });
  if (!row) throw new Error('insert returned no row');
  return row.id;
}

/**
 * How a cat row is read: FOR UPDATE where it changes (caretakers, a merge), FOR SHARE where something
 * is linked to it (a post, a follow), so that a merge running at that moment commits first or waits.
 */
export type CatLock = 'update' | 'share';

/** The cat as stored (a merged one too), or null when unknown or the id is malformed. */
export async function findCat(db: Executor, catId: string, lock?: CatLock): Promise<CatRow | null> {
  if (!isUuid(catId)) return null;
  const query = db.select().from(cats).where(eq(cats.id, catId.toLowerCase()));
  const [row] = lock ? await query.for(lock) : await query;
  return row ?? null;
}

/** More merges in a row than any cat has had: a loop (which the merge rules cannot make) stops here. */
const MAX_MERGE_HOPS = 100;

/**
 * The cat, or the cat it was merged into (through every later merge): what a merged cat's id stands
 * for (issue 26, "merged ones redirect to the surviving cat"). Null when unknown or malformed, and when
 * a moderator removed it (issue 27): a removed cat is gone for every route that asks, like a deleted one.
 */
export async function findLiveCat(db: Executor, catId: string, lock?: CatLock): Promise<CatRow | null> {
  let row = await findCat(db, catId, lock);
  for (let hops = 0; row?.mergedInto && hops < MAX_MERGE_HOPS; hops += 1) {
    row = await findCat(db, row.mergedInto, lock);
  }
  return row?.mergedInto || row?.removedAt ? null : row;
}

export async function updateCat(db: Executor, catId: string, values: Partial<NewCat>): Promise<void> {
  await db
    .update(cats)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(cats.id, catId));
}

export async function isCaretaker(db: Executor, catId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(catCaretakers)
    .where(and(eq(catCaretakers.catId, catId), eq(catCaretakers.userId, userId)));
  return row !== undefined;
}

/** Which of these cats the user cares for (on cat_caretakers_user_idx). */
export async function caredForAmong(
  db: Executor,
  userId: string,
  catIds: readonly string[],
): Promise<Set<string>> {
  if (catIds.length === 0) return new Set();
  const rows = await db
    .select({ catId: catCaretakers.catId })
    .from(catCaretakers)
    .where(and(eq(catCaretakers.userId, userId), inArray(catCaretakers.catId, [...catIds])));
  return new Set(rows.map((r) => r.catId));
}

export async function addCaretaker(db: Executor, catId: string, userId: string): Promise<void> {
  await db.insert(catCaretakers).values({ catId, userId }).onConflictDoNothing();
}

export async function removeCaretaker(db: Executor, catId: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(catCaretakers)
    .where(and(eq(catCaretakers.catId, catId), eq(catCaretakers.userId, userId)))
    .returning({ userId: catCaretakers.userId });
  return rows.length > 0;
}

export async function caretakerCount(db: Executor, catId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(catCaretakers)
    .where(eq(catCaretakers.catId, catId));
  return row?.n ?? 0;
}

export interface UserRowLike {
  id: string;
  username: string;
  profilePicKey: string | null;
}

/** The cat's caretakers the viewer shares no block with, in the order they became caretakers. */
export async function caretakersVisibleTo(
  db: Executor,
  catId: string,
  viewerId: string,
): Promise<UserRowLike[]> {
  return db
    .select({ id: users.id, username: users.username, profilePicKey: users.profilePicKey })
    .from(catCaretakers)
    .innerJoin(users, eq(users.id, catCaretakers.userId))
    .where(and(eq(catCaretakers.catId, catId), notBlockedWith(viewerId, users.id)))
    .orderBy(asc(catCaretakers.createdAt), asc(users.id));
}

/** A user the viewer shares no block with; null when unknown, malformed or behind a block. */
export async function userVisibleTo(
  db: Executor,
  userId: string,
  viewerId: string,
): Promise<UserRowLike | null> {
  if (!isUuid(userId)) return null;
  const [row] = await db
    .select({ id: users.id, username: users.username, profilePicKey: users.profilePicKey })
    .from(users)
    .where(and(eq(users.id, userId.toLowerCase()), notBlockedWith(viewerId, users.id)));
  return row ?? null;
}

/** A live post the viewer may see (feed rules), with its author and cat; null otherwise. */
export async function visiblePost(
  db: Executor,
  postId: string,
  viewerId: string,
): Promise<{ id: string; userId: string; catId: string | null } | null> {
  if (!isUuid(postId)) return null;
  const [row] = await db
    .select({ id: posts.id, userId: posts.userId, catId: posts.catId })
    .from(posts)
    .where(and(eq(posts.id, postId.toLowerCase()), visibleSighting(viewerId)));
  return row ?? null;
}

/**
 * A post the viewer may see (live, not hidden by them, no block with its author), with its author and
 * cat; null otherwise. Unlike visiblePost it does not ask whether its link to a cat is kept from the
 * viewer: the picture itself is theirs to see (to suggest a cat for, or to be told it is not theirs to
 * link), and an answer that differed for a sighting near a household cat's home would give that away.
 */
export async function postSeenBy(
  db: Executor,
  postId: string,
  viewerId: string,
): Promise<{ id: string; userId: string; catId: string | null } | null> {
  if (!isUuid(postId)) return null;
  const [row] = await db
    .select({ id: posts.id, userId: posts.userId, catId: posts.catId })
    .from(posts)
    .where(and(eq(posts.id, postId.toLowerCase()), postVisibleTo(viewerId)));
  return row ?? null;
}

/**
 * Links the post to the cat (or unlinks it, null). A cat whose cover it was loses that cover unless it
 * stays that cat's sighting: a cover is always one of the cat's own sightings.
 */
export async function setPostCat(db: Executor, postId: string, catId: string | null): Promise<void> {
  await db.update(posts).set({ catId }).where(eq(posts.id, postId));
  await db
    .update(cats)
    .set({ coverPostId: null, updatedAt: sql`now()` })
    .where(
      catId === null ? eq(cats.coverPostId, postId) : and(eq(cats.coverPostId, postId), ne(cats.id, catId)),
    );
}

/** Sightings the viewer may see: in all and in the last 7 days (posts_cat_timeline_idx). */
export async function sightingCounts(
  db: Executor,
  catId: string,
  viewerId: string,
): Promise<{ total: number; week: number }> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)`.mapWith(Number),
      week: sql<number>`count(*) filter (where ${posts.createdAt} > now() - interval '7 days')`.mapWith(
        Number,
      ),
    })
    .from(posts)
    .where(and(eq(posts.catId, catId), visibleSighting(viewerId)));
  return { total: row?.total ?? 0, week: row?.week ?? 0 };
}

/** Followers the viewer shares no block with (a block leaves no trace, not even in a count). */
export async function followState(
  db: Executor,
  catId: string,
  viewerId: string,
): Promise<{ count: number; following: boolean }> {
  const [row] = await db
    .select({
      count: sql<number>`count(*)`.mapWith(Number),
      following: sql<boolean>`coalesce(bool_or(${catFollows.userId} = ${viewerId}), false)`.mapWith(Boolean),
    })
    .from(catFollows)
    .where(and(eq(catFollows.catId, catId), notBlockedWith(viewerId, catFollows.userId)));
  return { count: row?.count ?? 0, following: row?.following ?? false };
}

export async function follow(db: Executor, catId: string, userId: string): Promise<void> {
  await db.insert(catFollows).values({ catId, userId }).onConflictDoNothing();
}

export async function unfollow(db: Executor, catId: string, userId: string): Promise<void> {
  await db.delete(catFollows).where(and(eq(catFollows.catId, catId), eq(catFollows.userId, userId)));
}

/**
 * Account deletion: the cats the user alone cares for go with the account (their home point is the
 * user's data, and nobody would be left to edit them); their sightings by others stay, unlinked.
 * Cats with other caretakers stay, created_by going null.
 */
export async function deleteCatsCaredForOnlyBy(db: Executor, userId: string): Promise<void> {
  // The same row lock as a caretaker's removal (changeCaretaker): a co-caretaker leaving at this moment
  // commits first or waits, and the next statement sees it, so no cat is left without a caretaker.
  await db.execute(sql`select c.id from ${cats} c where c.id in (
      select cc.cat_id from ${catCaretakers} cc where cc.user_id = ${userId}) order by c.id for update`);
  await db.execute(sql`delete from ${cats} c where c.id in (
      select cc.cat_id from ${catCaretakers} cc where cc.user_id = ${userId})
    and not exists (select 1 from ${catCaretakers} o where o.cat_id = c.id and o.user_id <> ${userId})`);
}

/** A post of the query builder's unaliased `posts` that is a sighting the viewer may see. */
const visibleSighting = (viewerId: string): SQL => sightingVisibleTo(viewerId, 'posts');

/** The chosen covers of these cats that the viewer may see and that are still the cat's sightings. */
export async function visibleCovers(
  db: Executor,
  catIds: readonly string[],
  viewerId: string,
): Promise<Map<string, CoverRow>> {
  if (catIds.length === 0) return new Map();
  const rows = await db
    .select({
      catId: cats.id,
      postId: posts.id,
      mediaKey: posts.mediaKey,
      width: posts.width,
      height: posts.height,
      placeholder: posts.placeholder,
      altText: posts.altText,
    })
    .from(cats)
    .innerJoin(posts, and(eq(posts.id, cats.coverPostId), eq(posts.catId, cats.id)))
    .where(and(sql`${cats.id} = any(${sql.param([...catIds])}::uuid[])`, visibleSighting(viewerId)));
  return new Map(rows.map(({ catId, ...cover }) => [catId, cover]));
}

/** The live posts of this author, for a new cat's first sighting: null when not theirs or gone. */
export async function ownLivePost(
  db: Executor,
  postId: string,
  userId: string,
): Promise<{ id: string } | null> {
  if (!isUuid(postId)) return null;
  const [row] = await db
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.id, postId.toLowerCase()), eq(posts.userId, userId), isNull(posts.deletedAt)));
  return row ?? null;
}

/** A raw column's number, or null (the list's and the suggestions' rows read their columns with it). */
export const numberOrNull = (value: unknown) =>
  value === null || value === undefined ? null : Number(value);
