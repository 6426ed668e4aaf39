// SQL of 'Which cat is this?' on Spot: the recent sightings in a box's grid cells that the viewer may
// see, and the chosen covers of the cats suggested.
import { sql, type SQL } from 'drizzle-orm';
import { CAT_SUGGESTION_LIMIT } from '@cats/contracts';
import type { Executor } from '../../db/client.ts';
import { preparedSql } from '../../db/prepared.ts';
import { rowsOf, toBoolean } from '../../db/raw-results.ts';
import { catCaretakers, cats, posts, users } from '../../db/schema/index.ts';
import { sharedWithMember } from '../visibility/visibility.ts';
import { catMissingFor } from '../visibility/alert-visibility.ts';
import { cellRunsWithCentreIn, type CellRun } from '../location/location-grid.ts';
import type { CoverRow } from './cover-row.ts';
import { numberOrNull } from './cats.repository.ts';
import { sightingVisibleTo } from './sighting-visibility.ts';

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
