// The cats list (GET /api/cats): by name, nearest a point or newest sighting first, its cursors, and
// the distances it orders by, measured from where the viewer may see each cat.
import { CATS_PAGE_SIZE, type Cat, type CatsResponse } from '@cats/contracts';
import { badRequest } from '../../lib/http-errors.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { INVALID_CURSOR_MESSAGE } from '../posts/post-view.ts';
import type { LocatedPost } from '../location/location-rule.ts';
import { metresBetween, sightingPlace, type CatHome } from '../visibility/cat-place.ts';
import { listCatsWithNewestSighting, type CatListRow, type NewestCursor } from './cats-list.repository.ts';
import {
  catsMaybeUnplaced,
  catsPlacedInBoxes,
  catsPlacedNearest,
  catsSeenOtherwiseNear,
  catsWithNewestSightingByIds,
  type NearRow,
} from './cats-nearest.repository.ts';
import type { CatsNearStore } from './cats-near-store.ts';
import { toCover, type CatsDeps } from './cats.service.ts';
import { EARTH_METRES, suggestionBoxes } from './cat-suggestions.service.ts';

/** Cursors of the list, base64url of JSON: {r, t, i} newest first, {r, d, i} nearest first. */
function encodeListCursor(value: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decodeListCursor(cursor: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // falls through to the refusal
  }
  throw badRequest(INVALID_CURSOR_MESSAGE);
}

const TIME_KEY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z|-infinity)$/;
const UUID_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function newestCursor(cursor: string): NewestCursor {
  const { r, t, i } = decodeListCursor(cursor);
  if (
    (r !== 0 && r !== 1) ||
    typeof t !== 'string' ||
    !TIME_KEY.test(t) ||
    typeof i !== 'string' ||
    !UUID_KEY.test(i)
  )
    throw badRequest(INVALID_CURSOR_MESSAGE);
  return { rank: r, lastSeen: t, id: i };
}

function nearestCursor(cursor: string): { rank: number; distance: number; id: string } {
  const { r, d, i } = decodeListCursor(cursor);
  // Infinity (a cat with no place the viewer may see) travels as the string 'inf'.
  const distance = d === 'inf' ? Number.POSITIVE_INFINITY : d;
  if (
    (r !== 0 && r !== 1) ||
    typeof distance !== 'number' ||
    Number.isNaN(distance) ||
    distance < 0 ||
    typeof i !== 'string' ||
    !UUID_KEY.test(i)
  )
    throw badRequest(INVALID_CURSOR_MESSAGE);
  return { rank: r, distance, id: i };
}

/** A cat of the near list with its distance as the viewer may measure it (Infinity: no place for them). */
interface Ranked {
  row: CatListRow;
  distance: number;
}

/** The near list's order: rank, then distance (unplaced cats last), then id. */
function nearOrder(a: { rank: number; distance: number; id: string }, b: typeof a): number {
  return (
    a.rank - b.rank ||
    (a.distance === b.distance ? 0 : a.distance < b.distance ? -1 : 1) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/**
 * How far a sighting's spot can lie from its place as a viewer sees it: half a ~500 m cell's diagonal
 * (~357 m; location-grid.ts), with room to spare. A cat placed beyond D has its spot beyond D - this.
 */
const CELL_REACH_METRES = 400;
/**
 * How many cats of cat_places the list reads at first, nearest its point: a page's worth several times
 * over, so that the nearest page is among them unless the cats are packed tighter than a cell (then
 * four times as many are read).
 */
const NEAREST_READ_LIMIT = 128;
/** Farther than any two points of the Earth lie apart (pi * 6,371 km): a radius this wide holds them all. */
const WORLD_METRES = 20_100_000;

/**
 * Whether every point at least `degrees` from `near` on the plane of longitude and latitude (where
 * GiST's `<->` measures) lies farther than `metres` from it on the Earth. A path of length L metres
 * from `near` stays within latitudes |lat| + L / R, where a degree of longitude spans at least
 * R cos(that) and one of latitude R (in radians): so its two ends lie at most L / (R cos(that))
 * apart on the plane. That holds while such a path neither passes a pole nor crosses the 180th
 * meridian (where longitudes jump): then nothing can be said, and the answer is false.
 */
export function beyondInMetres(
  near: { latitude: number; longitude: number },
  degrees: number,
  metres: number,
): boolean {
  const rad = Math.PI / 180;
  const reach = metres / EARTH_METRES;
  const maxLatitude = Math.abs(near.latitude) * rad + reach;
  if (maxLatitude >= Math.PI / 2) return false;
  // The farthest a point within `metres` can lie on the plane, in degrees.
  const plane = reach / Math.cos(maxLatitude) / rad;
  if (Math.abs(near.longitude) + plane >= 180) return false;
  return degrees > plane;
}

/** The distance from `near` to where the viewer may see the cat (its newest sighting they may see). */
function distanceFor(viewer: AuthContext, near: { latitude: number; longitude: number }, row: CatListRow) {
  if (!row.sighting) return Number.POSITIVE_INFINITY;
  return placedDistance(viewer, near, row, row.viewerIsCaretaker, row.sighting);
}

/** Where the viewer may see the cat (its newest sighting they may see), or null: nowhere. */
function placeOf(viewer: AuthContext, row: CatListRow): { latitude: number; longitude: number } | null {
  if (!row.sighting) return null;
  const place = sightingPlace(viewer, row, row.viewerIsCaretaker, {
    ...row.sighting,
    authorCaresForCat: null,
  });
  return place.latitude === null || place.longitude === null
    ? null
    : { latitude: place.latitude, longitude: place.longitude };
}

/** The distance from `near` to where the viewer may see this sighting of this cat (cat-place.ts). */
function placedDistance(
  viewer: AuthContext,
  near: { latitude: number; longitude: number },
  cat: CatHome,
  viewerIsCaretaker: boolean,
  sighting: LocatedPost,
) {
  // The lists' sightings passed sighting_kept_from in SQL (sighting-visibility.ts), which weighed the author.
  const place = sightingPlace(viewer, cat, viewerIsCaretaker, { ...sighting, authorCaresForCat: null });
  if (place.latitude === null || place.longitude === null) return Number.POSITIVE_INFINITY;
  return metresBetween(near, { latitude: place.latitude, longitude: place.longitude });
}

/**
 * Up to `limit` cats of the near list after the cursor, in its order: by rank (with a query: names
 * starting with it, then names containing it), then by distance from `near` to the cat's newest
 * sighting the viewer may see, AT THE PLACE THEY MAY SEE (cat-place.ts: exact, the ~500 m cell's
 * centre, or none), then by id; cats with no place for the viewer close each rank, by id.
 *
 * Paging is a keyset on (rank, distance, id): the cursor is the last cat's key, and a page is the cats
 * after it. The distance is a pure function of the cat's rows and the viewer, recomputed here the same
 * way on every request, so the key of a cat that has not changed is the same double each time, and a
 * page neither repeats nor skips one (a new sighting moves a cat, as it would in any live list).
 *
 * The placed cats of a rank are read nearest first rather than every cat: the cats of cat_places (each
 * one's newest sighting anyone may see, where it shows a place) come out of a GiST index in order of
 * their spots' distance, at most a page's worth several times over (NEAREST_READ_LIMIT); the few cats
 * the viewer may see otherwise (their own, cared for, hidden or blocked pictures) are read apart,
 * within the distance that page reaches. Each is placed as the viewer may see it, and the nearest
 * `limit` are the answer once the cats left unread are sure to lie farther (beyondInMetres: the index's
 * order is in degrees, a cat's place may lie a cell's reach nearer than its spot); else four times as
 * many are read. After a cursor, only cats with a sighting beyond its distance less a cell's reach are
 * read (CELL_REACH_METRES): a later page does not read the nearer ones again. The unplaced cats of the
 * rank follow by id (catsMaybeUnplaced, the one read of every cat of the rank, reached only at the end
 * of its placed ones).
 */
async function nearestCats(
  deps: CatsDeps,
  viewer: AuthContext,
  near: { latitude: number; longitude: number },
  q: string | undefined,
  caredFor: boolean,
  after: { rank: number; distance: number; id: string } | null,
  limit: number,
): Promise<Ranked[]> {
  if (deps.nearStore && !q && !caredFor && !after) {
    const first = await firstPageNearest(deps.nearStore, viewer, near, limit);
    if (first) return first;
  }
  const found: Ranked[] = [];
  for (const rank of q ? [0, 1] : [0]) {
    if (after && rank < after.rank) continue;
    const from = after && rank === after.rank ? after : null;
    if (!from || Number.isFinite(from.distance)) {
      found.push(...(await placedNear(deps, viewer, near, q, caredFor, rank, from, limit - found.length)));
      if (found.length >= limit) break;
    }
    const afterId = from && !Number.isFinite(from.distance) ? from.id : null;
    found.push(...(await unplaced(deps, viewer, near, q, caredFor, rank, afterId, limit - found.length)));
    if (found.length >= limit) break;
  }
  return found.slice(0, limit);
}

/**
 * The first page of every cat nearest `near` (no name, no cursor, not 'only cats I care for': what the
 * cats page and the post menus ask first), from the process's caches (cats-near-store.ts) instead of
 * SQL: the same answer as placedNear's. Every cat the viewer sees as a stranger sees it is placed where
 * cat_places puts it for strangers, and its page row is a stranger's; the cats they may see otherwise
 * (their exceptions, read once per change) are placed from their own rows, as the long way places them.
 * Null when fewer placed cats than a page lie anywhere: the unplaced ones follow, which placedNear and
 * unplaced read.
 */
async function firstPageNearest(
  store: CatsNearStore,
  viewer: AuthContext,
  near: { latitude: number; longitude: number },
  limit: number,
): Promise<Ranked[] | null> {
  await store.current();
  const exceptions = await store.exceptionsOf(viewer.userId, (row) => placeOf(viewer, row));
  const found: { id: string; rank: number; distance: number; row: CatListRow | null }[] = [];
  for (const { row, latitude, longitude } of exceptions.placed) {
    found.push({ id: row.id, rank: 0, distance: metresBetween(near, { latitude, longitude }), row });
  }
  const strangers = store.nearest(near, limit, (id) => exceptions.ids.has(id));
  if (strangers.length + found.length < limit) return null;
  for (const s of strangers) found.push({ id: s.id, rank: 0, distance: s.distance, row: null });
  const page = found.sort(nearOrder).slice(0, limit);
  const rows = await store.strangerRowsOf(page.flatMap((x) => (x.row ? [] : [x.id])));
  // A cat deleted or merged since its place was read is left out of this page, as placedNear does.
  return page.flatMap((x) => {
    const row = x.row ?? rows.get(x.id);
    return row ? [{ row, distance: x.distance }] : [];
  });
}

/**
 * The nearest `wanted` placed cats of the rank after `from` (see nearestCats). The reads return a few
 * columns a cat, enough to place it as this viewer may see it; only the cats that make the page are
 * then read in full.
 */
async function placedNear(
  deps: CatsDeps,
  viewer: AuthContext,
  near: { latitude: number; longitude: number },
  q: string | undefined,
  caredFor: boolean,
  rank: number,
  from: { rank: number; distance: number; id: string } | null,
  wanted: number,
): Promise<Ranked[]> {
  // After a cursor, a cat can count only if its newest sighting's spot lies beyond the cursor's
  // distance less a cell's reach: cats seen only nearer in are left in the index.
  const beyond = from ? from.distance - CELL_REACH_METRES : 0;
  const placed = (r: NearRow) => ({
    id: r.id,
    rank,
    distance: placedDistance(viewer, near, r, r.viewerIsCaretaker, r.sighting),
  });
  const afterCursor = (x: { rank: number; distance: number; id: string }) =>
    Number.isFinite(x.distance) && (!from || nearOrder(x, from) > 0);
  let limit = NEAREST_READ_LIMIT;
  for (;;) {
    const rows = await catsPlacedNearest(deps.db, viewer.userId, q, rank, { near, beyond, limit }, caredFor);
    const strangers = rows
      .filter((r) => r.listed)
      .map(placed)
      .filter(afterCursor)
      .sort(nearOrder);
    // Every row read and still short of a page (merged cats, or rows before the cursor): read more
    // before the cats seen otherwise, whose read would otherwise reach round the world.
    if (rows.length >= limit && strangers.length < wanted) {
      limit *= 4;
      continue;
    }
    // No page reaches past its `wanted`-th cat of cat_places: the cats seen otherwise are read within it.
    const reach = strangers.length >= wanted ? strangers[wanted - 1]!.distance : WORLD_METRES;
    const others = (
      await catsSeenOtherwiseNear(
        deps.db,
        viewer.userId,
        q,
        rank,
        { near, beyond, boxes: suggestionBoxes(near, reach) },
        caredFor,
      )
    )
      .map(placed)
      .filter((x) => afterCursor(x) && x.distance <= reach);
    let page = [...strangers, ...others].sort(nearOrder).slice(0, wanted);
    // The rows of cat_places came nearest first, up to the limit. The ones left unread lie at least as
    // far in degrees as the last one read: enough were read when that puts their spots, and so their
    // places (a cell's reach nearer at most), beyond the page's last cat. Where degrees cannot tell
    // (far from the equator a degree of longitude is short; across the 180th meridian), every cat of
    // cat_places whose place can lie within the page's last cat is read from the boxes around it.
    if (rows.length >= limit) {
      // A full page: at least `wanted` cats of cat_places were placed (above).
      const last = page[wanted - 1]!.distance;
      const lastDegrees = Math.max(...rows.map((r) => r.degrees));
      if (!beyondInMetres(near, lastDegrees, last + CELL_REACH_METRES + 1)) {
        const seen = new Set(rows.map((r) => r.id));
        const boxed = (
          await catsPlacedInBoxes(
            deps.db,
            viewer.userId,
            q,
            rank,
            { near, beyond, boxes: suggestionBoxes(near, last) },
            caredFor,
          )
        )
          .filter((r) => r.listed && !seen.has(r.id))
          .map(placed)
          .filter((x) => afterCursor(x) && x.distance <= last);
        page = [...page, ...boxed].sort(nearOrder).slice(0, wanted);
      }
    }
    const read = new Map(
      (
        await catsWithNewestSightingByIds(
          deps.db,
          viewer.userId,
          page.map((x) => x.id),
          rank,
        )
      ).map((row) => [row.id, row]),
    );
    // A cat deleted or merged between the two reads is left out of this page.
    return page.flatMap((x) => {
      const row = read.get(x.id);
      return row ? [{ row, distance: x.distance }] : [];
    });
  }
}

/** Batches in which the rank's possibly unplaced cats are read until enough turn out unplaced. */
const UNPLACED_BATCH = 100;

/** The rank's cats with no place for the viewer after `afterId`, by id, at most `wanted`. */
async function unplaced(
  deps: CatsDeps,
  viewer: AuthContext,
  near: { latitude: number; longitude: number },
  q: string | undefined,
  caredFor: boolean,
  rank: number,
  afterId: string | null,
  wanted: number,
): Promise<Ranked[]> {
  const found: Ranked[] = [];
  let cursor = afterId;
  while (found.length < wanted) {
    const rows = await catsMaybeUnplaced(deps.db, viewer.userId, q, rank, cursor, UNPLACED_BATCH, caredFor);
    for (const row of rows) {
      const distance = distanceFor(viewer, near, row);
      if (!Number.isFinite(distance)) found.push({ row, distance });
    }
    if (rows.length < UNPLACED_BATCH) break;
    cursor = rows.at(-1)!.id;
  }
  return found.slice(0, wanted);
}

/**
 * Cats by name (q: case-insensitive, names starting with it first, then names containing it), nearest
 * first to `near` or else newest sighting first. Nearness is measured from the cat's newest sighting
 * the viewer may see, AT THE PLACE THE VIEWER MAY SEE (its cell, or nothing): the order can never tell
 * more than the answers do. Cats with no such place come after the placed ones.
 */
export async function listCats(
  deps: CatsDeps,
  viewer: AuthContext,
  query: {
    q?: string | undefined;
    near?: { latitude: number; longitude: number } | undefined;
    cursor?: string | undefined;
    caredFor?: boolean | undefined;
  },
): Promise<CatsResponse> {
  const q = query.q ? query.q : undefined;
  const caredFor = query.caredFor === true;
  let page: CatListRow[];
  let nextCursor: string | null = null;
  if (query.near) {
    const after = query.cursor ? nearestCursor(query.cursor) : null;
    const rows = await nearestCats(deps, viewer, query.near, q, caredFor, after, CATS_PAGE_SIZE + 1);
    const taken = rows.slice(0, CATS_PAGE_SIZE);
    page = taken.map((x) => x.row);
    const last = taken.at(-1);
    if (rows.length > CATS_PAGE_SIZE && last) {
      nextCursor = encodeListCursor({
        r: last.row.rank,
        d: Number.isFinite(last.distance) ? last.distance : 'inf',
        i: last.row.id,
      });
    }
  } else {
    const cursor = query.cursor ? newestCursor(query.cursor) : null;
    const rows = await listCatsWithNewestSighting(
      deps.db,
      viewer.userId,
      q,
      { cursor, limit: CATS_PAGE_SIZE },
      caredFor,
    );
    page = rows.slice(0, CATS_PAGE_SIZE);
    const last = page.at(-1);
    if (rows.length > CATS_PAGE_SIZE && last) {
      nextCursor = encodeListCursor({
        r: last.rank,
        t: last.sighting?.createdKey ?? '-infinity',
        i: last.id,
      });
    }
  }
  return {
    cats: page.map((row) => ({
      _id: row.id,
      name: row.name,
      cover: toCover(deps, row.cover ?? row.sighting),
      living: row.living as Cat['living'],
      viewerIsCaretaker: row.viewerIsCaretaker,
      lastSeenAt: row.sighting ? row.sighting.createdAt.toISOString() : null,
      missing: row.missing,
    })),
    info: { nextCursor },
  };
}
