import { z } from 'zod';
import { parseDecimal } from './common-constants.ts';
import { postSchema } from './posts.ts';
import { MAP_MAX_ZOOM, EXPLORE_POSTS_MAX, EXPLORE_MESSAGES } from './map-constants.ts';

export * from './map-constants.ts';

/**
 * A query number: '' counts as missing, anything else must be a plain decimal in range (`0x10` is not
 * 16: an unreadable value becomes NaN, which the schema refuses with the message below).
 */
const queryNumber = (name: string, min: number, max: number) =>
  z.preprocess(
    (v) => (v === '' ? undefined : typeof v === 'string' ? (parseDecimal(v) ?? Number.NaN) : v),
    z
      .number({ message: `${name} must be a number` })
      .refine(Number.isFinite, `${name} must be a number`)
      .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`)
      .optional(),
  );

/**
 * The map's viewport as query parameters, each optional on its own: Leaflet's bounds in degrees (whose
 * longitudes may run past +-180 when the world wraps) and its zoom. Explore's and the missing-cat pins'.
 */
export const viewportQueryShape = () => ({
  west: queryNumber('west', -540, 540),
  south: queryNumber('south', -90, 90),
  east: queryNumber('east', -540, 540),
  north: queryNumber('north', -90, 90),
  zoom: queryNumber('zoom', 0, MAP_MAX_ZOOM),
});

/**
 * `GET /api/explore` query. Without parameters: every post on the viewer's map (the spec's call). With
 * a viewport (Leaflet's bounds, which may run past +-180 when the world wraps, and its zoom): clusters
 * and individual posts for that area only.
 */
export const exploreQuerySchema = z.object(viewportQueryShape()).superRefine((q, ctx) => {
  const given = [q.west, q.south, q.east, q.north, q.zoom].filter((v) => v !== undefined).length;
  if (given !== 0 && given !== 5)
    ctx.addIssue({ code: 'custom', message: EXPLORE_MESSAGES.viewportTogether });
  else if (q.south !== undefined && q.north !== undefined && q.south > q.north)
    ctx.addIssue({ code: 'custom', path: ['south'], message: EXPLORE_MESSAGES.southAboveNorth });
});
export type ExploreQuery = z.infer<typeof exploreQuerySchema>;

/** Several posts close together at this zoom, drawn as one marker with a count. */
export const mapClusterSchema = z.object({
  /** Names its grid cell (zoom-column-row): stable while panning at one zoom. */
  id: z.string(),
  /** Centre of its posts' positions as everyone may see them (never exact private coordinates). */
  latitude: z.number(),
  longitude: z.number(),
  count: z.number().int(),
  /** 64 px picture of the newest post in the cluster. */
  previewUrl: z.string(),
  /**
   * Zoom at which the cluster starts to split. Above MAP_MAX_ZOOM when zooming cannot split it (its
   * posts share one spot): its posts come from `GET /api/explore/clusters/{id}/posts`.
   */
  expansionZoom: z.number().int(),
});
export type MapCluster = z.infer<typeof mapClusterSchema>;

/**
 * A post standing alone at the viewport's zoom: what its marker needs, no more. The detail card loads
 * the post itself (`GET /api/explore/posts`) when the marker is opened, so the map's answer stays small
 * however many likes and comments its posts have.
 */
export const mapMarkerSchema = z.object({
  _id: z.string(),
  /** Exact for the viewer's own posts and owners who chose exact; else the ~500 m grid-cell centre. */
  latitude: z.number(),
  longitude: z.number(),
  /** 64 px picture. */
  previewUrl: z.string(),
  /** With the author's name, the marker's text alternative (the same as the card picture's). */
  catName: z.string().nullable(),
  username: z.string(),
  /** When the post was made (ISO 8601): the desktop list beside the map says how long ago. */
  createdAt: z.string(),
});
export type MapMarker = z.infer<typeof mapMarkerSchema>;

/**
 * Without a viewport (the spec's call): `{posts}`, every post on the viewer's map in full (location
 * shown, valid coordinates, not hidden or blocked either way). With one: `{markers, clusters}` for
 * that area, where markers are the posts standing alone at that zoom.
 */
export const exploreResponseSchema = z.object({
  posts: z.array(postSchema).optional(),
  markers: z.array(mapMarkerSchema).optional(),
  clusters: z.array(mapClusterSchema).optional(),
});
export type ExploreResponse = z.infer<typeof exploreResponseSchema>;
export type ExploreAllResponse = { posts: z.infer<typeof postSchema>[] };
export type ExploreViewportResponse = { markers: MapMarker[]; clusters: MapCluster[] };

/** `GET /api/explore/posts?ids=a,b`: the detail card's posts (a marker's, or a stack's). */
export const explorePostsQuerySchema = z.object({
  ids: z
    .string({ message: EXPLORE_MESSAGES.idsRequired })
    .max(EXPLORE_POSTS_MAX * 37, `At most ${EXPLORE_POSTS_MAX} ids`)
    .transform((s) => s.split(',').filter(Boolean))
    .refine((ids) => ids.length > 0, EXPLORE_MESSAGES.idsRequired)
    .refine((ids) => ids.length <= EXPLORE_POSTS_MAX, `At most ${EXPLORE_POSTS_MAX} ids`),
});
export const explorePostsResponseSchema = z.object({ posts: z.array(postSchema) });

export const clusterPostsParamsSchema = z.object({ clusterId: z.string().max(40) });
/** `GET /api/config/map` (public): where map tiles come from. */
export const mapConfigResponseSchema = z.object({ tileUrl: z.string(), attribution: z.string() });
export type MapConfigResponse = z.infer<typeof mapConfigResponseSchema>;
