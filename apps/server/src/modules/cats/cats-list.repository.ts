// SQL of the cats list's rows (each cat with its newest sighting the viewer may see, its cover and
// whether it is missing), the name filter every list shares, and the list newest sighting first.
import { and, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf, toBoolean, type RawRow } from '../../db/raw-results.ts';
import { catCaretakers, cats, posts, users } from '../../db/schema/index.ts';
import { sharedWithMember } from '../visibility/visibility.ts';
import { catMissingFor } from '../visibility/alert-visibility.ts';
import { coverFromColumns, type CoverRow } from './cover-row.ts';
import { numberOrNull } from './cats.repository.ts';
import { sightingVisibleTo } from './sighting-visibility.ts';

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

export const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The name filter and its rank: 0 for names starting with `q`, 1 for names containing it (0 for all without). */
export function nameMatch(q: string | undefined): { rank: SQL; conditions: SQL[]; ranked: boolean } {
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

export const caredForBy = (viewerId: unknown) =>
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
