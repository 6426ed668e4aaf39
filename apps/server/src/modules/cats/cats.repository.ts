import { and, asc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { CAT_SUGGESTION_LIMIT, isUuid } from '@cats/contracts';
import type { Executor } from '../../db/client.ts';
import { preparedSql } from '../../db/prepared.ts';
import { rowsOf, toBoolean, type RawRow } from '../../db/raw-results.ts';
import {
  catCaretakers,
  catFollows,
  catPlaces,
  cats,
  hiddenPosts,
  posts,
  users,
  type CatRow,
} from '../../db/schema/index.ts';
import {
  notBlockedWith,
  postVisibleTo,
  sharedWithMember,
  usersBlockedWith,
} from '../visibility/visibility.ts';
import type { LocatedPost } from '../location/location-rule.ts';
import { cellRunsWithCentreIn, type CellRun } from '../location/location-grid.ts';
import { coverFromColumns, type CoverRow } from './cover-row.ts';
import { sightingVisibleTo } from './sighting-visibility.ts';
import { catMissingFor } from '../visibility/alert-visibility.ts';

/**
 * SQL of the cats (issue 26). Sightings are posts with cat_id set; wherever they are read for a viewer
 * they pass the feed's visibility (live, not hidden by the viewer, no block either way with the author).
 * Positions leave here raw, with what the location rule needs; the service decides what the viewer sees.
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

// ---------------------------------------------------------------------------------------------------
// The list: every cat matching the name, with its newest sighting the viewer may see
// ---------------------------------------------------------------------------------------------------

/** A cat with its newest sighting the viewer may see (all sighting fields null when none). */
export interface CatListRow {
  id: string;
  name: string;
  living: string;
  homeLatitude: number | null;
  homeLongitude: number | null;
  viewerIsCaretaker: boolean;
  /** 0: the name starts with the query, 1: contains it (0 for all without a query). */
  rank: number;
  /** The cat's chosen cover when the viewer may see it (visibleCovers' rule), else null. */
  cover: CoverRow | null;
  /** An alert the viewer may see is open (the missing list's rule, alertShownTo). */
  missing: boolean;
  sighting: {
    postId: string;
    userId: string;
    latitude: number | null;
    longitude: number | null;
    showLocation: boolean;
    exactPublicLocation: boolean;
    sharedWithViewer: boolean;
    createdAt: Date;
    /** created_at in UTC with microseconds, for cursors. */
    createdKey: string;
    mediaKey: string;
    width: number;
    height: number;
    placeholder: string;
    altText: string | null;
  } | null;
}

/** A position in the list newest sighting first: (rank, last seen or -infinity, id), all descending after rank. */
export interface NewestCursor {
  rank: number;
  lastSeen: string;
  id: string;
}

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The name filter and its rank: 0 for names starting with `q`, 1 for names containing it (0 for all without). */
function nameMatch(q: string | undefined): { rank: SQL; conditions: SQL[]; ranked: boolean } {
  const needle = q ? q.toLowerCase() : '';
  // A merged profile is not a cat of its own any more: its id leads to the survivor, which is listed.
  // A cat a moderator removed (issue 27) is listed nowhere.
  const conditions: SQL[] = [sql`c.merged_into is null and c.removed_at is null`];
  if (!needle) return { rank: sql`0`, conditions, ranked: false };
  conditions.push(sql`lower(c.name) like ${`%${likeEscape(needle)}%`}`);
  return {
    rank: sql`case when lower(c.name) like ${`${likeEscape(needle)}%`} then 0 else 1 end`,
    conditions,
    ranked: true,
  };
}

const caredForBy = (viewerId: unknown) =>
  sql`exists (select 1 from ${catCaretakers} mine where mine.cat_id = c.id and mine.user_id = ${viewerId})`;

/**
 * Each cat `c` with its newest sighting the viewer may see as `s` (all of s null when none): live, not
 * hidden by them, no block with its author, not kept from them near a household cat's home. One
 * statement's head for every list below, so that they all agree on which sighting places a cat.
 * posts_cat_timeline_idx gives each cat's newest first; sighting_kept_from is asked only of household
 * cats with a home point, for which alone it can be true.
 */
export function catsWithNewestSighting(viewerId: unknown, rank: SQL): SQL {
  return sql`select c.id, c.name, c.living, c.home_latitude, c.home_longitude, c.cover_post_id, ${rank} as rank,
      exists (select 1 from ${catCaretakers} cc where cc.cat_id = c.id and cc.user_id = ${viewerId}) as viewer_is_caretaker,
      s.id as post_id, s.user_id, s.latitude, s.longitude, s.show_location, s.created_at,
      to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_key,
      s.media_key, s.width, s.height, s.placeholder, s.alt_text, su.exact_public_location,
      case when s.id is null then false else ${sharedWithMember(viewerId, sql`s.id`)} end as shared_with_viewer
    from ${cats} c
    left join lateral (
      select p.id, p.user_id, p.latitude, p.longitude, p.show_location, p.created_at, p.media_key,
        p.width, p.height, p.placeholder, p.alt_text
      from ${posts} p
      where p.cat_id = c.id and ${sightingVisibleTo(viewerId, 'p', 'c')}
      order by p.created_at desc, p.id desc
      limit 1
    ) s on true
    -- The author's setting, for the one sighting that counts (not for each one weighed above).
    left join ${users} su on su.id = s.user_id`;
}

/**
 * The rows of a list statement built on catsWithNewestSighting (`inner`, ordered and limited), each
 * with its cat's chosen cover when the viewer may see it, as visibleCovers decides: one probe by
 * primary key per listed row, in the same statement. A second statement for the covers cost the near
 * list a sixth of its time (docs/performance.md, "Cats"). And whether the cat is missing, by an alert
 * the viewer may see (the missing list's rule): a probe of missing_alerts_open_cat_idx per row. `order`
 * restores the inner order, which a join does not promise to keep.
 */
export function withCoverAndMissing(inner: SQL, viewerId: unknown, order: SQL = sql``): SQL {
  return sql`select l.*, cv.id as cover_id, cv.media_key as cover_media_key, cv.width as cover_width,
      cv.height as cover_height, cv.placeholder as cover_placeholder, cv.alt_text as cover_alt_text,
      ${catMissingFor(viewerId, sql`l.id`)} as missing
    from (${inner}) l
    left join lateral (
      select p.id, p.media_key, p.width, p.height, p.placeholder, p.alt_text from ${posts} p
      where p.id = l.cover_post_id and p.cat_id = l.id and ${sightingVisibleTo(viewerId, 'p', 'l')}
    ) cv on true ${order}`;
}

/**
 * Cats whose name contains `q` (case-insensitive; prefix matches first), each with its newest sighting
 * the viewer may see; `caredFor`: only those the viewer cares for. A page ordered by that sighting,
 * newest first (cats never seen last), after the cursor, limit + 1 rows.
 */
export async function listCatsWithNewestSighting(
  db: Executor,
  viewerId: string,
  q: string | undefined,
  newest: { cursor: NewestCursor | null; limit: number },
  caredFor = false,
): Promise<CatListRow[]> {
  const { rank, conditions, ranked } = nameMatch(q);
  if (caredFor) conditions.push(caredForBy(viewerId));
  const lastSeenKey = sql`coalesce(s.created_at, '-infinity'::timestamptz)`;
  if (newest.cursor) {
    conditions.push(
      sql`(-(${rank}), ${lastSeenKey}, c.id) < (${-newest.cursor.rank}, ${newest.cursor.lastSeen}::timestamptz, ${newest.cursor.id}::uuid)`,
    );
  }
  // Without a query every rank is 0; a bare 0 in ORDER BY would mean a column's position.
  const result = await db.execute(
    withCoverAndMissing(
      sql`${catsWithNewestSighting(viewerId, rank)}
        where ${and(...conditions)}
        order by ${ranked ? sql`${rank} asc,` : sql``} ${lastSeenKey} desc, c.id desc limit ${newest.limit + 1}`,
      viewerId,
      sql`order by l.rank asc, coalesce(l.created_at, '-infinity'::timestamptz) desc, l.id desc`,
    ),
  );
  return rowsOf(result).map(toListRow);
}

/** A cat found for the near list, with what places it for the viewer (cat-place.ts). */
export interface NearRow {
  id: string;
  living: string;
  homeLatitude: number | null;
  homeLongitude: number | null;
  viewerIsCaretaker: boolean;
  /** False for a cat merged or removed since its cat_places row was read: not to be listed. */
  listed: boolean;
  /** The newest sighting the viewer may see (the one a stranger may see, for most cats): always located. */
  sighting: LocatedPost & { postId: string; latitude: number; longitude: number };
}

/** A cat of cat_places, read nearest first: with how far its spot lies from `near` in degrees. */
export interface PlacedRow extends NearRow {
  /** The spot's distance from `near` on the plane of longitude and latitude (GiST's `<->` on points). */
  degrees: number;
}

interface NearQuery {
  near: { latitude: number; longitude: number };
  /** Only cats seen at least this many metres from `near` (a later page: the nearer ones were listed). */
  beyond: number;
}

/**
 * The near list's cats of this rank whose newest sighting anyone may see shows a place (cat_places),
 * nearest `near` first by their spots, at most `limit`, leaving out the cats the viewer may see
 * otherwise (catsSeenOtherwiseBy: for those, another sighting may count; catsSeenOtherwiseNear reads
 * them). For every other cat that sighting is the viewer's newest too, so these few columns place it
 * (cats.service.ts › placedNear).
 *
 * The order comes from cat_places_point_idx, a GiST index on point(longitude, latitude): it hands the
 * rows out nearest first in degrees, without reading or sorting the rest, however far they spread. A
 * degree of longitude spans fewer metres away from the equator, so the order is not quite the order in
 * metres; the service knows how far in metres the unread rows must lie (degreesToMetresFloor).
 */
export async function catsPlacedNearest(
  db: Executor,
  viewerId: string,
  q: string | undefined,
  rank: number,
  query: NearQuery & { limit: number },
  caredFor: boolean,
): Promise<PlacedRow[]> {
  const every = !q && query.beyond <= 0 && !caredFor;
  const rows = rowsOf(
    await (every ? everyPlacedNearestStatement(query.limit) : placedNearestStatement)(db).execute({
      ...nameValues(q),
      viewerId,
      rank,
      lat: query.near.latitude,
      lng: query.near.longitude,
      beyond: query.beyond,
      limit: query.limit,
      caredFor,
    }),
  );
  return rows.map((r) => ({ ...toNearRow(r), degrees: Number(r.degrees) }));
}

/**
 * catsPlacedNearest's cats whose spots lie in the boxes (suggestionBoxes), in no order: where the
 * index's order in degrees cannot tell whether the cats left unread lie beyond the page (far from the
 * equator, where a degree of longitude is short; across the 180th meridian), the page's disc is read
 * whole instead. Through the same GiST index (`<@ box`).
 */
export async function catsPlacedInBoxes(
  db: Executor,
  viewerId: string,
  q: string | undefined,
  rank: number,
  query: NearQuery & { boxes: readonly Box[] },
  caredFor: boolean,
): Promise<NearRow[]> {
  return rowsOf(
    await placedInBoxesStatement(db).execute(seenOtherwiseValues(viewerId, q, rank, query, caredFor)),
  ).map(toNearRow);
}

/**
 * The near list's cats of this rank that the viewer may see otherwise than a stranger
 * (catsSeenOtherwiseBy) with a live located sighting in the boxes, each with its newest sighting for
 * the viewer as every cat list reads it, kept when that one lies in the boxes and may place the cat for
 * them (located; the location on, or theirs). The boxes (suggestionBoxes) hold every spot whose place
 * for the viewer can lie within the radius the service asks about.
 */
export async function catsSeenOtherwiseNear(
  db: Executor,
  viewerId: string,
  q: string | undefined,
  rank: number,
  query: NearQuery & { boxes: readonly Box[] },
  caredFor: boolean,
): Promise<NearRow[]> {
  return rowsOf(
    await seenOtherwiseStatement(db).execute(seenOtherwiseValues(viewerId, q, rank, query, caredFor)),
  ).map(toNearRow);
}

function toNearRow(r: RawRow): NearRow {
  return {
    id: String(r.id),
    living: String(r.living),
    homeLatitude: numberOrNull(r.home_latitude),
    homeLongitude: numberOrNull(r.home_longitude),
    viewerIsCaretaker: toBoolean(r.viewer_is_caretaker),
    listed: toBoolean(r.listed),
    sighting: {
      postId: String(r.post_id),
      userId: String(r.user_id),
      latitude: Number(r.latitude),
      longitude: Number(r.longitude),
      showLocation: toBoolean(r.show_location),
      exactPublicLocation: toBoolean(r.exact_public_location),
      sharedWithViewer: toBoolean(r.shared_with_viewer),
    },
  };
}

const near = {
  viewerId: sql.placeholder('viewerId'),
  needle: sql.placeholder('needle'),
  prefix: sql.placeholder('prefix'),
  contains: sql.placeholder('contains'),
  rank: sql.placeholder('rank'),
  lat: sql.placeholder('lat'),
  lng: sql.placeholder('lng'),
  beyond: sql.placeholder('beyond'),
  caredFor: sql.placeholder('caredFor'),
};
const nearest = { ...near, limit: sql.placeholder('limit') };
const boxed = {
  ...near,
  south: sql.placeholder('south'),
  north: sql.placeholder('north'),
  west1: sql.placeholder('west1'),
  east1: sql.placeholder('east1'),
  west2: sql.placeholder('west2'),
  east2: sql.placeholder('east2'),
};

/** The name filter's values: the lower-cased query, as a prefix and as a part (LIKE, escaped). */
function nameValues(q: string | undefined) {
  const needle = q ? q.toLowerCase() : '';
  return { needle, prefix: `${likeEscape(needle)}%`, contains: `%${likeEscape(needle)}%` };
}

/**
 * The cats whose newest sighting this viewer may see can be another than a stranger's (cat_places):
 * they took a picture of it (theirs show to them even moderated, or near a home), they care for it
 * (the home hides nothing from them), they hid one of its pictures, or one of its pictures is by
 * someone they share a block with. A superset: a few index lookups, however many cats there are.
 */
export function catsSeenOtherwiseBy(viewerId: SQL): SQL {
  return sql`select op.cat_id from ${posts} op
      where op.user_id = ${viewerId} and op.cat_id is not null and op.deleted_at is null
    union select cc.cat_id from ${catCaretakers} cc where cc.user_id = ${viewerId}
    union select hp.cat_id from ${hiddenPosts} h join ${posts} hp on hp.id = h.post_id
      where h.user_id = ${viewerId} and hp.cat_id is not null
    union select bp.cat_id from ${posts} bp
      where bp.user_id in (${usersBlockedWith(viewerId)}) and bp.cat_id is not null and bp.deleted_at is null`;
}

/** The near statements' shared parts: a name's rank, the name filter and the cursor's distance. */
function nearParts(v: typeof near) {
  // A name's rank: 0 when it starts with the query (or there is none), 1 when it only contains it.
  const rankOf = (alias: SQL) =>
    sql`(case when ${v.needle}::text = '' or lower(${alias}.name) like ${v.prefix}::text then 0 else 1 end)`;
  return {
    viewerId: sql`${v.viewerId}::uuid`,
    rankOf,
    named: (alias: SQL) => sql`(${v.needle}::text = '' or lower(${alias}.name) like ${v.contains}::text)
      and ${rankOf(alias)} = ${v.rank}::int`,
    beyond: (t: SQL) =>
      sql`(${v.beyond}::float8 <= 0
      or metres_between(${t}.latitude, ${t}.longitude, ${v.lat}::float8, ${v.lng}::float8) >= ${v.beyond}::float8)`,
  };
}

/**
 * catsPlacedNearest's statement, one for every query and viewer, prepared (PostgreSQL plans it once per
 * connection). The name is asked before the limit; merged and removed cats are marked, not left out,
 * so that the limit's rows are the nearest whatever they turn out to be. The cats a viewer cares for
 * are all among those they may see otherwise: none from here.
 */
function placedNearestSql(v: typeof nearest, filtered = true, fixedLimit?: number): SQL {
  const here = sql`point(${v.lng}::float8, ${v.lat}::float8)`;
  // The cat and the author are joined before the limit, in the index's order: a probe by primary key
  // for each row read (about the limit's worth). Joined after it, PostgreSQL chose to hash every cat.
  return sql`${placedHead(v, sql`, point(cp.longitude, cp.latitude) <-> ${here} as degrees`, sql`true`, filtered)}
    order by point(cp.longitude, cp.latitude) <-> ${here}
    limit ${fixedLimit === undefined ? sql`${v.limit}::int` : sql.raw(String(Math.trunc(fixedLimit)))}`;
}

/**
 * The cats of cat_places that pass the viewer's and the query's filters, with `extra` columns.
 * `filtered` false leaves out the name, the cursor's distance and 'only cats I care for': the first
 * page of every cat (what the cats page and the post menus ask) gets statements without them
 * (everyPlacedNearestStatement).
 */
function placedHead(v: typeof near, extra: SQL, where: SQL = sql`true`, filtered = true): SQL {
  const { viewerId, named, beyond } = nearParts(v);
  const filters = filtered
    ? sql`and ${beyond(sql`cp`)}
      and not ${v.caredFor}::boolean
      and (case when ${v.needle}::text = '' then ${v.rank}::int = 0 else ${named(sql`c`)} end)`
    : sql``;
  return sql`select cp.cat_id as id, c.living, c.home_latitude, c.home_longitude,
      false as viewer_is_caretaker,
      c.merged_into is null and c.removed_at is null as listed,
      cp.post_id, cp.user_id, cp.latitude, cp.longitude,
      true as show_location, u.exact_public_location,
      ${sharedWithMember(viewerId, sql`cp.post_id`)} as shared_with_viewer ${extra}
    from ${catPlaces} cp
    join ${cats} c on c.id = cp.cat_id
    join ${users} u on u.id = cp.user_id
    where ${where} ${filters}
      and cp.cat_id not in (${catsSeenOtherwiseBy(viewerId)})`;
}

/** catsPlacedInBoxes's statement, prepared: the boxes as seenOtherwiseSql takes them. */
function placedInBoxesSql(v: typeof boxed): SQL {
  const box = (west: unknown, east: unknown) =>
    sql`point(cp.longitude, cp.latitude) <@ box(point(${west}::float8, ${v.south}::float8), point(${east}::float8, ${v.north}::float8))`;
  // The second box matches nothing when west2 > east2 (one box is enough): a box of no width.
  return placedHead(
    v,
    sql``,
    sql`(${box(v.west1, v.east1)} or (${v.west2}::float8 <= ${v.east2}::float8 and ${box(v.west2, v.east2)}))`,
  );
}
const placedInBoxesStatement = preparedSql('cats_placed_in_boxes', placedInBoxesSql(boxed));

const placedNearestStatement = preparedSql('cats_placed_nearest', placedNearestSql(nearest));
/**
 * The first page of every cat, one statement per limit read (128, then four times as many where the
 * cats lie packed): the limit written in, so that the generic plan knows how many rows it reads. With
 * the limit a parameter, PostgreSQL's generic plan counted on a tenth of the table and cost itself
 * twice a plan made for the values, so the statement was planned on every run (a third of its time).
 */
const everyPlacedNearestStatements = new Map<number, ReturnType<typeof preparedSql>>();
function everyPlacedNearestStatement(limit: number) {
  let statement = everyPlacedNearestStatements.get(limit);
  if (!statement) {
    statement = preparedSql(`cats_every_placed_nearest_${limit}`, placedNearestSql(nearest, false, limit));
    everyPlacedNearestStatements.set(limit, statement);
  }
  return statement;
}

/**
 * catsSeenOtherwiseNear's statement, prepared: the boxes are one band of latitude with two ranges of
 * longitude (the second matching nothing when one is enough), as suggestionBoxes makes them.
 */
function seenOtherwiseSql(v: typeof boxed): SQL {
  const { viewerId, rankOf, named, beyond } = nearParts(v);
  const inBoxes = (lat: SQL, lng: SQL) =>
    sql`${lat} between ${v.south}::float8 and ${v.north}::float8
      and (${lng} between ${v.west1}::float8 and ${v.east1}::float8 or ${lng} between ${v.west2}::float8 and ${v.east2}::float8)`;
  return sql`select x.id, x.living, x.home_latitude, x.home_longitude,
      x.viewer_is_caretaker, true as listed,
      x.post_id, x.user_id, x.latitude, x.longitude,
      x.show_location, x.exact_public_location, x.shared_with_viewer
    from (${catsWithNewestSighting(viewerId, rankOf(sql`c`))}
      where c.id in (
          select e.cat_id from (${catsSeenOtherwiseBy(viewerId)}) e
          where exists (select 1 from ${posts} p
            where p.cat_id = e.cat_id and p.deleted_at is null and p.latitude is not null
              and ${inBoxes(sql`p.latitude`, sql`p.longitude`)} and ${beyond(sql`p`)}))
        and c.merged_into is null and c.removed_at is null and ${named(sql`c`)}
        and (not ${v.caredFor}::boolean or ${caredForBy(viewerId)})
        and s.latitude is not null and (s.show_location or s.user_id = ${viewerId})
        and ${inBoxes(sql`s.latitude`, sql`s.longitude`)}) x`;
}
const seenOtherwiseStatement = preparedSql('cats_seen_otherwise_near', seenOtherwiseSql(boxed));

function seenOtherwiseValues(
  viewerId: string,
  q: string | undefined,
  rank: number,
  query: NearQuery & { boxes: readonly Box[] },
  caredFor: boolean,
): Record<keyof typeof boxed, unknown> {
  const { boxes } = query;
  const [first, second] = boxes;
  if (
    !first ||
    boxes.length > 2 ||
    (second && (second.south !== first.south || second.north !== first.north))
  )
    throw new Error('one band of latitude in one or two boxes');
  return {
    ...nameValues(q),
    viewerId,
    rank,
    south: first.south,
    north: first.north,
    west1: first.west,
    east1: first.east,
    west2: second ? second.west : 1,
    east2: second ? second.east : 0,
    lat: query.near.latitude,
    lng: query.near.longitude,
    beyond: query.beyond,
    caredFor,
  };
}

/**
 * These cats, each with its newest sighting the viewer may see, as every list reads them (rank given).
 * Prepared: planning the statement cost more than running it for a page of cats.
 */
export async function catsWithNewestSightingByIds(
  db: Executor,
  viewerId: string,
  catIds: readonly string[],
  rank: number,
): Promise<CatListRow[]> {
  if (catIds.length === 0) return [];
  return rowsOf(await byIdsStatement(db).execute({ viewerId, ids: [...catIds], rank })).map(toListRow);
}
const byIdsViewer = sql`${sql.placeholder('viewerId')}::uuid`;
const byIdsStatement = preparedSql(
  'cats_with_newest_sighting_by_ids',
  withCoverAndMissing(
    sql`${catsWithNewestSighting(byIdsViewer, sql`${sql.placeholder('rank')}::int`)}
      where c.id = any(${sql.placeholder('ids')}::uuid[])`,
    byIdsViewer,
  ),
);

/**
 * The near list's tail (cats.service.ts › nearestCats): cats of this rank whose newest sighting the
 * viewer may see might give them no place (none, unlocated, switched off and not theirs, or a household
 * cat's, whose home may hide it), by id after `afterId`, at most `limit`. The service decides each.
 * This reads every cat of the rank (no index knows what a viewer may place): it runs only once the
 * placed cats of the rank are all listed, at the end of the list.
 */
export async function catsMaybeUnplaced(
  db: Executor,
  viewerId: string,
  q: string | undefined,
  rank: number,
  afterId: string | null,
  limit: number,
  caredFor: boolean,
): Promise<CatListRow[]> {
  const { rank: rankSql, conditions, ranked } = nameMatch(q);
  if (ranked) conditions.push(sql`${rankSql} = ${rank}`);
  if (caredFor) conditions.push(caredForBy(viewerId));
  if (afterId) conditions.push(sql`c.id > ${afterId}::uuid`);
  const result = await db.execute(
    withCoverAndMissing(
      sql`${catsWithNewestSighting(viewerId, rankSql)}
        where ${and(...conditions)}
          and (s.id is null or s.latitude is null or s.longitude is null
            or (not s.show_location and s.user_id <> ${viewerId})
            or (c.living = 'household' and c.home_latitude is not null))
        order by c.id
        limit ${limit}`,
      viewerId,
      sql`order by l.id`,
    ),
  );
  return rowsOf(result).map(toListRow);
}

const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export function toListRow(r: RawRow): CatListRow {
  return {
    id: String(r.id),
    name: String(r.name),
    living: String(r.living),
    homeLatitude: numberOrNull(r.home_latitude),
    homeLongitude: numberOrNull(r.home_longitude),
    viewerIsCaretaker: toBoolean(r.viewer_is_caretaker),
    rank: Number(r.rank),
    cover: coverFromColumns(r),
    missing: toBoolean(r.missing),
    sighting:
      r.post_id === null || r.post_id === undefined
        ? null
        : {
            postId: String(r.post_id),
            userId: String(r.user_id),
            latitude: numberOrNull(r.latitude),
            longitude: numberOrNull(r.longitude),
            showLocation: toBoolean(r.show_location),
            exactPublicLocation: toBoolean(r.exact_public_location),
            sharedWithViewer: toBoolean(r.shared_with_viewer),
            createdAt: new Date(r.created_at as string | Date),
            createdKey: String(r.created_key),
            mediaKey: String(r.media_key),
            width: Number(r.width),
            height: Number(r.height),
            placeholder: String(r.placeholder),
            altText: r.alt_text === null || r.alt_text === undefined ? null : String(r.alt_text),
          },
  };
}

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

// ---------------------------------------------------------------------------------------------------
// 'Which cat is this?' (Spot): recent sightings around a point
// ---------------------------------------------------------------------------------------------------

/** A latitude/longitude rectangle that does not cross the antimeridian (west <= east). */
export interface Box {
  south: number;
  north: number;
  west: number;
  east: number;
}

/** A recent sighting in the box that the viewer may see, with what the location rule needs. */
export interface SuggestionSightingRow {
  postId: string;
  catId: string;
  catName: string;
  living: string;
  homeLatitude: number | null;
  homeLongitude: number | null;
  /** Asked only of household cats with a home point (cat-place.ts needs it for no other). */
  viewerIsCaretaker: boolean;
  /** The cat has an open alert the viewer may see (the same on every row of the cat). */
  catMissing: boolean;
  coverPostId: string | null;
  userId: string;
  latitude: number;
  longitude: number;
  showLocation: boolean;
  exactPublicLocation: boolean;
  sharedWithViewer: boolean;
  createdAt: Date;
  /** Its picture, should it be the cat's cover or the newest that counts. */
  mediaKey: string;
  width: number;
  height: number;
  placeholder: string;
  altText: string | null;
}

/** The most sightings one suggestion request weighs (the newest); plenty for any real street. */
export const SUGGESTION_SIGHTINGS_MAX = 1000;

const box = {
  viewerId: sql.placeholder('viewerId'),
  south: sql.placeholder('south'),
  north: sql.placeholder('north'),
  west: sql.placeholder('west'),
  east: sql.placeholder('east'),
  days: sql.placeholder('days'),
};

/**
 * On posts_cat_sightings_place_idx (migration 0021): the box's latitude is the range scanned, its
 * longitude and the 90 days are checked in the index, so the table is read only for recent sightings in
 * the box (for who may place them, and their picture, which spares a second statement for most cats).
 * Then the feed's visibility (hidden, blocks), and a household cat's home (migration 0018; asked only
 * of household cats with a home point, for which alone it can be true). Whether the cat is missing
 * (an alert the viewer may see): a probe of the small partial index of open alerts a row. Prepared: it
 * runs on every Spot, and PostgreSQL plans it once per connection.
 */
function sightingsInBoxSql(v: Record<keyof typeof box, unknown>, runs: RunValues): SQL {
  // Whole cells only (issue 46): which sightings the limit keeps must not depend on where in its cell
  // one lies. The box scanned is the runs' own; each run then keeps the rows of its grid row.
  const inRuns = sql.join(
    runs.map(
      (r) => sql`(p.latitude >= ${r.south}::float8 and p.latitude < ${r.north}::float8
        and p.longitude between ${r.west}::float8 and ${r.east}::float8)`,
    ),
    sql` or `,
  );
  return sql`select p.id, p.cat_id, p.user_id, p.latitude, p.longitude, p.show_location, p.created_at,
      p.media_key, p.width, p.height, p.placeholder, p.alt_text, u.exact_public_location, c.name as cat_name, c.living, c.home_latitude, c.home_longitude,
      c.cover_post_id,
      case when p.user_id <> ${v.viewerId} then ${sharedWithMember(v.viewerId, sql`p.id`)} else false end
        as shared_with_viewer,
      case when c.living = 'household' and c.home_latitude is not null
        then exists (select 1 from ${catCaretakers} vcc where vcc.cat_id = c.id and vcc.user_id = ${v.viewerId})
        else false end as viewer_is_caretaker,
      ${catMissingFor(v.viewerId, sql`c.id`)} as cat_missing
    from ${posts} p
    join ${cats} c on c.id = p.cat_id
    join ${users} u on u.id = p.user_id
    where p.cat_id is not null and p.deleted_at is null and p.latitude is not null
      and p.latitude between ${v.south} and ${v.north}
      and p.longitude between ${v.west} and ${v.east}
      -- Inside a case, so that the planner keeps one scan of the box rather than one bitmap scan per
      -- run: the same time on a dense street (median 3.2 ms, p95 8.6 ms on PostgreSQL, as before).
      and (case when ${inRuns} then true else false end)
      and p.created_at > now() - make_interval(days => ${v.days}::int)
      -- A switched-off location places the sighting for its author alone (location-rule.ts).
      and (p.show_location or p.user_id = ${v.viewerId})
      and c.removed_at is null and ${sightingVisibleTo(v.viewerId, 'p', 'c')}
    order by p.created_at desc, p.id desc
    limit ${sql.raw(String(SUGGESTION_SIGHTINGS_MAX))}`;
}
/**
 * As many grid rows as a box of suggestionBoxes can hold cell centres of: it is 600 m and a row high,
 * so at most three; one more slot to spare. Unused slots match nothing (south above north).
 */
const RUN_SLOTS = 4;
type RunValues = { south: unknown; north: unknown; west: unknown; east: unknown }[];
const runSlots: RunValues = Array.from({ length: RUN_SLOTS }, (_, i) => ({
  south: sql.placeholder(`s${i}`),
  north: sql.placeholder(`n${i}`),
  west: sql.placeholder(`w${i}`),
  east: sql.placeholder(`e${i}`),
}));
const sightingsInBoxStatement = preparedSql('cat_suggestion_sightings', sightingsInBoxSql(box, runSlots));

/**
 * The cells whose centres lie in the area, and the box around them that the index scans: null when
 * no cell's centre does. A sighting is read when its cell is one of them, never by its exact spot, so
 * the area must reach half a cell beyond where a sighting's place may count (suggestionBoxes does).
 */
function cellsOf(area: Box): { bounds: Box; runs: CellRun[] } | null {
  const runs = cellRunsWithCentreIn(area);
  if (runs.length === 0) return null;
  if (runs.length > RUN_SLOTS) throw new Error(`a box of at most ${RUN_SLOTS} grid rows`);
  return {
    runs,
    bounds: {
      south: runs[0]!.south,
      north: runs.at(-1)!.north,
      west: Math.min(...runs.map((r) => r.west)),
      east: Math.max(...runs.map((r) => r.east)),
    },
  };
}

/** The statement with its values bound, unprepared (tests EXPLAIN it). */
export const sightingsInBoxQuery = (viewerId: string, area: Box, days: number): SQL => {
  const cells = cellsOf(area);
  if (!cells) throw new Error('no cell centre in the area');
  return sightingsInBoxSql({ viewerId, ...cells.bounds, days }, cells.runs);
};

/**
 * Sightings in the box's cells (those whose centres lie in it) from the last `days` days that the
 * viewer may see (live, not hidden by them, no block with the author, not kept from them near a
 * household cat's home), newest first, at most
 * SUGGESTION_SIGHTINGS_MAX. Exact positions: the service places each as the viewer may see it.
 */
export async function recentSightingsInBox(
  db: Executor,
  viewerId: string,
  area: Box,
  days: number,
): Promise<SuggestionSightingRow[]> {
  const cells = cellsOf(area);
  if (!cells) return [];
  const slots: Record<string, number> = {};
  for (let i = 0; i < RUN_SLOTS; i += 1) {
    const run = cells.runs[i] ?? { south: 1, north: 0, west: 1, east: 0 };
    Object.assign(slots, {
      [`s${i}`]: run.south,
      [`n${i}`]: run.north,
      [`w${i}`]: run.west,
      [`e${i}`]: run.east,
    });
  }
  const result = await sightingsInBoxStatement(db).execute({ viewerId, ...cells.bounds, days, ...slots });
  return rowsOf(result).map((r) => ({
    postId: String(r.id),
    catId: String(r.cat_id),
    catName: String(r.cat_name),
    living: String(r.living),
    homeLatitude: numberOrNull(r.home_latitude),
    homeLongitude: numberOrNull(r.home_longitude),
    viewerIsCaretaker: toBoolean(r.viewer_is_caretaker),
    catMissing: toBoolean(r.cat_missing),
    coverPostId: r.cover_post_id === null || r.cover_post_id === undefined ? null : String(r.cover_post_id),
    userId: String(r.user_id),
    latitude: Number(r.latitude),
    longitude: Number(r.longitude),
    showLocation: toBoolean(r.show_location),
    exactPublicLocation: toBoolean(r.exact_public_location),
    sharedWithViewer: toBoolean(r.shared_with_viewer),
    createdAt: new Date(r.created_at as string | Date),
    mediaKey: String(r.media_key),
    width: Number(r.width),
    height: Number(r.height),
    placeholder: String(r.placeholder),
    altText: r.alt_text === null || r.alt_text === undefined ? null : String(r.alt_text),
  }));
}

/** As many cats as one answer suggests: the covers' statement has a slot for each. */
const COVER_SLOTS = CAT_SUGGESTION_LIMIT;
const coverSlots = sql.join(
  Array.from({ length: COVER_SLOTS }, (_, i) => sql`${sql.placeholder(`cat${i}`)}::uuid`),
  sql`, `,
);
const coversViewer = sql.placeholder('viewerId');

/**
 * The chosen covers of some suggested cats that are still their cat's sightings and that the viewer
 * may see (as visibleCovers), in one prepared statement with one parameter per cat, every slot filled
 * (the last id again): PostgreSQL keeps a prepared statement's generic plan only when it costs no more
 * than the plans for the values given, and with an array parameter it planned this statement anew on
 * every request (on the bench's dataset; on PGlite that tripled its cost).
 */
const suggestionCoversStatement = preparedSql(
  'cat_suggestion_covers',
  sql`select c.id as cat_id, p.id, p.media_key, p.width, p.height, p.placeholder, p.alt_text
      from ${cats} c join ${posts} p on p.id = c.cover_post_id and p.cat_id = c.id
     where c.id in (${coverSlots}) and c.removed_at is null and ${sightingVisibleTo(coversViewer, 'p', 'c')}`,
);

/** A cover with the cat it is of. */
export interface CatCoverRow extends CoverRow {
  catId: string;
}

/** The covers of up to CAT_SUGGESTION_LIMIT cats that the viewer may see (visibleCovers' rule). */
export async function suggestionCovers(
  db: Executor,
  viewerId: string,
  catIds: readonly string[],
): Promise<CatCoverRow[]> {
  if (catIds.length === 0) return [];
  if (catIds.length > COVER_SLOTS) throw new Error(`at most ${COVER_SLOTS} cats`);
  const values: Record<string, string> = { viewerId };
  for (let i = 0; i < COVER_SLOTS; i += 1) values[`cat${i}`] = catIds[i] ?? catIds.at(-1)!;
  const result = await suggestionCoversStatement(db).execute(values);
  return rowsOf(result).map((r) => ({
    catId: String(r.cat_id),
    postId: String(r.id),
    mediaKey: String(r.media_key),
    width: Number(r.width),
    height: Number(r.height),
    placeholder: String(r.placeholder),
    altText: r.alt_text === null || r.alt_text === undefined ? null : String(r.alt_text),
  }));
}
