// 'Which cat is this?' on Spot (GET /api/cats/suggestions): the cats seen recently around a point,
// measured from where the viewer may see each sighting.
import {
  CAT_SUGGESTION_DAYS,
  CAT_SUGGESTION_LIMIT,
  CAT_SUGGESTION_METRES,
  type Cat,
  type CatSuggestionsResponse,
} from '@cats/contracts';
import type { AuthContext } from '../../plugins/auth.ts';
import { LOCATION_GRID_DEGREES, locationCell } from '../location/location-grid.ts';
import { metresBetween, sightingPlace } from '../visibility/cat-place.ts';
import { caredForAmong } from './cats.repository.ts';
import {
  recentSightingsInBox,
  suggestionCovers,
  type Box,
  type SuggestionSightingRow,
} from './cat-suggestions.repository.ts';
import { toCover, type CatsDeps } from './cats.service.ts';

/** The Earth's radius as metres_between and metresBetween take it. */
export const EARTH_METRES = 6_371_000;
const DEGREE_METRES = (EARTH_METRES * Math.PI) / 180;

/**
 * Where a sighting can lie for its place as the viewer may see it to fall within `metres` of `near`:
 * the place is the spot itself or the centre of its grid cell, at most half a cell from it, so the
 * search reaches half a cell further in each direction (a row's height; the widest column of the rows
 * it touches). One rectangle, or two where it crosses the antimeridian. Only a pre-filter on an index:
 * each sighting is then placed and measured exactly.
 */
export function suggestionBoxes(near: { latitude: number; longitude: number }, metres: number): Box[] {
  const reach = metres / DEGREE_METRES;
  const south = Math.max(-90, near.latitude - reach - LOCATION_GRID_DEGREES / 2);
  const north = Math.min(90, near.latitude + reach + LOCATION_GRID_DEGREES / 2);
  const widest = Math.max(
    ...[south, north].map((lat) => {
      const cell = locationCell(lat, near.longitude);
      return cell.east - cell.west;
    }),
  );
  // The band's edge farthest from the equator has the shortest degree of longitude.
  const cos = Math.cos((Math.max(Math.abs(south), Math.abs(north)) * Math.PI) / 180);
  const span = cos > 1e-6 ? (reach / cos) * 1.01 + widest / 2 : 360;
  if (span >= 180) return [{ south, north, west: -180, east: 180 }];
  const west = near.longitude - span;
  const east = near.longitude + span;
  if (west < -180)
    return [
      { south, north, west: west + 360, east: 180 },
      { south, north, west: -180, east },
    ];
  if (east > 180)
    return [
      { south, north, west, east: 180 },
      { south, north, west: -180, east: east - 360 },
    ];
  return [{ south, north, west, east }];
}

/**
 * Up to CAT_SUGGESTION_LIMIT cats seen within CAT_SUGGESTION_METRES of `near` in the last
 * CAT_SUGGESTION_DAYS days, nearest first, then the most recently seen (then by id, so the order is
 * stable). A sighting counts only where the viewer may see its post, and it is measured FROM THE PLACE
 * THE VIEWER MAY SEE (cat-place.ts: exact for their own posts, their groups' and exact-public authors',
 * the ~500 m cell's centre for others, nothing when the location is off or near a household cat's home):
 * an attacker asking at many points around a sighting learns its cell, which its post shows anyway, and
 * never the spot (docs/security.md, "Cats").
 */
export async function suggestCats(
  deps: CatsDeps,
  viewer: AuthContext,
  near: { latitude: number; longitude: number },
): Promise<CatSuggestionsResponse> {
  const found = await Promise.all(
    suggestionBoxes(near, CAT_SUGGESTION_METRES).map((area) =>
      recentSightingsInBox(deps.db, viewer.userId, area, CAT_SUGGESTION_DAYS),
    ),
  );
  interface Candidate {
    catId: string;
    name: string;
    living: Cat['living'];
    missing: boolean;
    coverPostId: string | null;
    distance: number;
    /** The newest of its sightings that count: the order's second key, and the cover when none is set. */
    newest: SuggestionSightingRow;
  }
  const byCat = new Map<string, Candidate>();
  for (const row of found.flat()) {
    const cat = { living: row.living, homeLatitude: row.homeLatitude, homeLongitude: row.homeLongitude };
    // Passed sighting_kept_from in SQL (recentSightingsInBox), which weighed the author.
    const place = sightingPlace(viewer, cat, row.viewerIsCaretaker, { ...row, authorCaresForCat: null });
    if (place.latitude === null || place.longitude === null) continue;
    const distance = metresBetween(near, { latitude: place.latitude, longitude: place.longitude });
    if (distance > CAT_SUGGESTION_METRES) continue;
    const seen = byCat.get(row.catId);
    if (!seen) {
      byCat.set(row.catId, {
        catId: row.catId,
        name: row.catName,
        living: row.living as Cat['living'],
        missing: row.catMissing,
        coverPostId: row.coverPostId,
        distance,
        newest: row,
      });
      continue;
    }
    seen.distance = Math.min(seen.distance, distance);
    if (row.createdAt > seen.newest.createdAt) seen.newest = row;
  }
  const chosen = [...byCat.values()]
    .sort(
      (a, b) =>
        a.distance - b.distance ||
        b.newest.createdAt.getTime() - a.newest.createdAt.getTime() ||
        (a.catId < b.catId ? -1 : a.catId > b.catId ? 1 : 0),
    )
    .slice(0, CAT_SUGGESTION_LIMIT);
  // Pictures: the chosen cover where the viewer may see it (still one of the cat's sightings), else the
  // newest sighting that counted. A chosen cover among the sightings just read needs no second look
  // (each of them the viewer may see, of its cat); the others are asked for in one statement.
  const read = new Map(found.flat().map((row) => [row.postId, row]));
  const coverRead = (c: Candidate) => {
    const row = c.coverPostId ? read.get(c.coverPostId) : undefined;
    return row?.catId === c.catId ? row : undefined;
  };
  const toCheck = chosen.filter((c) => c.coverPostId !== null && !coverRead(c)).map((c) => c.catId);
  // Whether the viewer cares for each cat: Spot offers a household cat to its caretakers alone
  // (decision 022). The sightings' statement asks it only where the home rule needs it.
  const [checked, caredFor] = await Promise.all([
    suggestionCovers(deps.db, viewer.userId, toCheck),
    caredForAmong(
      deps.db,
      viewer.userId,
      chosen.map((c) => c.catId),
    ),
  ]);
  const pictureOf = (c: Candidate) => coverRead(c) ?? checked.find((p) => p.catId === c.catId) ?? c.newest;
  return {
    cats: chosen.map((c) => ({
      _id: c.catId,
      name: c.name,
      cover: toCover(deps, pictureOf(c)),
      living: c.living,
      viewerIsCaretaker: caredFor.has(c.catId),
      missing: c.missing,
    })),
  };
}
