// A cat's timeline and map: its sightings the viewer may see, each placed as they may see it (cat-place.ts).
import {
  CAT_MAP_POINTS_MAX,
  CAT_SIGHTINGS_PAGE_SIZE,
  type CatMapResponse,
  type CatSightingsResponse,
} from '@cats/contracts';
import type { AuthContext } from '../../plugins/auth.ts';
import { decodeCursor, encodeCursor, toPostView } from '../posts/post-view.ts';
import { selectVisiblePosts } from '../posts/posts.repository.ts';
import { hiddenByHome, sightingPlace } from '../visibility/cat-place.ts';
import { isCaretaker } from './cats.repository.ts';
import { requireCat, type CatsDeps } from './cats.service.ts';

/** The cat's sightings the viewer may see, newest first, each as the feed shows it less a home-near place. */
export async function listSightings(
  deps: CatsDeps,
  viewer: AuthContext,
  catId: string,
  cursor: string | undefined,
): Promise<CatSightingsResponse> {
  const cat = await requireCat(deps.db, catId);
  const position = cursor ? decodeCursor(cursor) : null;
  const [rows, caretaker] = await Promise.all([
    selectVisiblePosts(
      deps.db,
      viewer.userId,
      { catId: cat.id },
      { limit: CAT_SIGHTINGS_PAGE_SIZE, cursor: position },
    ),
    isCaretaker(deps.db, cat.id, viewer.userId),
  ]);
  const page = rows.slice(0, CAT_SIGHTINGS_PAGE_SIZE);
  const last = page.at(-1);
  return {
    posts: page.map((row) => {
      // In the cat's own timeline the cat is known; a sighting near its home loses its place instead.
      const post = {
        ...toPostView(viewer, row, deps),
        cat: { _id: cat.id, name: cat.name, missing: row.linkedCatMissing },
      };
      if (!hiddenByHome(viewer, cat, caretaker, row)) return post;
      return { ...post, latitude: null, longitude: null, locationPrecision: null, showLocation: false };
    }),
    info: { nextCursor: rows.length > CAT_SIGHTINGS_PAGE_SIZE && last ? encodeCursor(last) : null },
  };
}

/** The newest located sightings the viewer may place, each as they may place it. */
export async function sightingsMap(
  deps: CatsDeps,
  viewer: AuthContext,
  catId: string,
): Promise<CatMapResponse> {
  const cat = await requireCat(deps.db, catId);
  const [rows, caretaker] = await Promise.all([
    selectVisiblePosts(
      deps.db,
      viewer.userId,
      { catId: cat.id, located: true },
      { limit: CAT_MAP_POINTS_MAX },
    ),
    isCaretaker(deps.db, cat.id, viewer.userId),
  ]);
  const points: CatMapResponse['points'] = [];
  for (const row of rows.slice(0, CAT_MAP_POINTS_MAX)) {
    const place = sightingPlace(viewer, cat, caretaker, row);
    if (place.latitude === null || place.longitude === null || place.locationPrecision === null) continue;
    points.push({
      postId: row.id,
      latitude: place.latitude,
      longitude: place.longitude,
      locationPrecision: place.locationPrecision,
      at: row.createdAt.toISOString(),
    });
  }
  return { points };
}
