// SQL of the cats list nearest a point first: cat_places through its GiST index, the cats a viewer may
// see otherwise, a page's rows by id, the unplaced tail. The first page's caches: cats-near.repository.ts.
import { and, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedSql } from '../../db/prepared.ts';
import { rowsOf, toBoolean, type RawRow } from '../../db/raw-results.ts';
import { catCaretakers, catPlaces, cats, hiddenPosts, posts, users } from '../../db/schema/index.ts';
import { sharedWithMember, usersBlockedWith } from '../visibility/visibility.ts';
import type { LocatedPost } from '../location/location-rule.ts';
import { numberOrNull } from './cats.repository.ts';
import {
  caredForBy,
  catsWithNewestSighting,
  likeEscape,
  nameMatch,
  toListRow,
  withCoverAndMissing,
  type CatListRow,
} from './cats-list.repository.ts';
import type { Box } from './cat-suggestions.repository.ts';

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
 * (cats-list.service.ts › placedNear).
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
 * The near list's tail (cats-list.service.ts › nearestCats): cats of this rank whose newest sighting the
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
