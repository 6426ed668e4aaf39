import type { AuthContext } from '../../plugins/auth.ts';
import { cellIndex, cellsAdjacent } from '../location/location-grid.ts';
import { locationFor, type LocatedPost, type LocationView } from '../location/location-rule.ts';

/**
 * Where a viewer may see one of a cat's sightings (issue 26). Never more than the sighting's own post
 * shows them (location-rule.ts), and for a household cat with a home point, nothing at all in the
 * ~500 m cell of that point or its neighbours (so nothing within CAT_HOME_PRIVACY_METRES), except to
 * the cat's caretakers and the sighting's author; and a sighting by anyone but a caretaker, nowhere.
 * Decided on cells, never on exact distances (issue 46, decision 022): the answer shows to others, and
 * may depend on the home and the post no more finely than a stranger sees the post. Migration 0040's
 * sighting_kept_from() is the same rule in SQL.
 */
export interface CatHome {
  living: string;
  homeLatitude: number | null;
  homeLongitude: number | null;
}

const NO_PLACE: LocationView = { latitude: null, longitude: null, locationPrecision: null };

/** Metres between two points on a sphere (haversine). */
export function metresBetween(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Whether the author of a sighting of a household cat cares for it: null where the row has already
 * passed sighting_kept_from for this viewer in SQL, which decided the author's part (a stranger's
 * sighting reaches such a caller only for its author or a caretaker, from whom nothing is hidden).
 */
export type AuthorCaresForCat = boolean | null;

/**
 * The sighting is kept from this viewer near the household cat's home. One by someone who is not the
 * cat's caretaker is kept from everyone but the caretakers and its author wherever it lies: its author
 * moves it at will, and an answer that changed from cell to cell would show them the home's cells.
 */
export function hiddenByHome(
  viewer: AuthContext,
  cat: CatHome,
  viewerIsCaretaker: boolean,
  post: Pick<LocatedPost, 'userId' | 'latitude' | 'longitude' | 'showLocation'> & {
    authorCaresForCat: AuthorCaresForCat;
  },
): boolean {
  if (cat.living !== 'household' || cat.homeLatitude === null || cat.homeLongitude === null) return false;
  if (post.userId === viewer.userId) return false;
  // The demo account is never a caretaker (its password is public); checked here too.
  if (viewerIsCaretaker && !viewer.isDemo) return false;
  if (post.authorCaresForCat === false) return true;
  // A caretaker's sighting whose location is switched off shows no place to anyone else, so the link
  // tells nothing of the home; and its point, which nobody else may know even coarsely, decides nothing.
  if (!post.showLocation || post.latitude === null || post.longitude === null) return false;
  return cellsAdjacent(
    cellIndex(post.latitude, post.longitude),
    cellIndex(cat.homeLatitude, cat.homeLongitude),
  );
}

export function sightingPlace(
  viewer: AuthContext,
  cat: CatHome,
  viewerIsCaretaker: boolean,
  post: LocatedPost & { authorCaresForCat: AuthorCaresForCat },
): LocationView {
  if (hiddenByHome(viewer, cat, viewerIsCaretaker, post)) return NO_PLACE;
  return locationFor(viewer, post);
}
