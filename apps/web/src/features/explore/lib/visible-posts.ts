import type { MapCluster, MapMarker } from '@cats/contracts';
import type { BoundsLike } from './viewport.ts';

/** Whether a point is inside bounds whose longitudes may run past +-180 when the world wraps. */
function contains(bounds: BoundsLike, latitude: number, longitude: number): boolean {
  if (latitude < bounds.getSouth() || latitude > bounds.getNorth()) return false;
  return [longitude, longitude - 360, longitude + 360].some(
    (lng) => lng >= bounds.getWest() && lng <= bounds.getEast(),
  );
}

export interface VisiblePosts {
  /** The lone markers on screen, newest first. */
  markers: MapMarker[];
  /** How many posts the clusters on screen hold: the list names them only once zoomed in. */
  clustered: number;
}

/**
 * What the desktop list beside the map shows: the markers inside the visible bounds (the map loads a
 * padded area, so some markers are just off screen). Only what the map itself already has: the list
 * can never show a post, or a position, the map does not.
 */
export function visiblePosts(
  markers: readonly MapMarker[],
  clusters: readonly MapCluster[],
  bounds: BoundsLike | null,
): VisiblePosts {
  if (!bounds) return { markers: [], clustered: 0 };
  const shown = markers
    .filter((m) => contains(bounds, m.latitude, m.longitude))
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  const clustered = clusters
    .filter((c) => contains(bounds, c.latitude, c.longitude))
    .reduce((sum, c) => sum + c.count, 0);
  return { markers: shown, clustered };
}
