// Constants and plain functions only: no zod here, so the web app can import them without loading
// the schema library (docs/performance.md). map.ts re-exports them beside its schemas.

export const MAP_DEFAULT_CENTER = { lat: 37.0, lng: -4.5 } as const; // southern Spain
export const MAP_DEFAULT_ZOOM = 8;
export const MAP_MIN_ZOOM = 3;
export const MAP_MAX_ZOOM = 18;
/** Spec section 9: map markers show the 64 px picture, the detail card the 400 px one. */
export const MAP_MARKER_SIZE = 64;
export const MAP_DETAIL_IMAGE_WIDTH = 400;
/** Most posts `GET /api/explore/clusters/{id}/posts` returns (newest first). */
export const MAP_STACK_MAX = 50;
/** Most posts `GET /api/explore` without a viewport returns (newest first); the map uses the viewport form. */
export const EXPLORE_ALL_MAX = 1000;
/** Most ids one `GET /api/explore/posts` accepts. */
export const EXPLORE_POSTS_MAX = MAP_STACK_MAX;

export const EXPLORE_MESSAGES = {
  viewportTogether: 'Give west, south, east, north and zoom together',
  southAboveNorth: 'south must not be greater than north',
  areaTooLarge: 'The area is too large for this zoom level',
  idsRequired: 'Give the ids of the posts to show',
} as const;

export interface MapViewport {
  west: number;
  south: number;
  east: number;
  north: number;
  zoom: number;
}

export const CLUSTER_NOT_FOUND_MESSAGE = 'Cluster not found';
