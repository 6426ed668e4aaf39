import {
  CLUSTER_NOT_FOUND_MESSAGE,
  EXPLORE_ALL_MAX,
  EXPLORE_MESSAGES,
  MAP_MARKER_SIZE,
  MAP_STACK_MAX,
  isUuid,
  type ExploreViewportResponse,
  type MapCluster,
  type MapMarker,
  type MapViewport,
  type Post,
} from '@cats/contracts';
import type { Database } from '../../db/client.ts';
import { badRequest, notFound } from '../../lib/http-errors.ts';
import { visibleUsername } from '../visibility/user-summary.ts';
import { mediaUrl, variantKey } from '../../media/urls.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { locationFor } from '../location/location-rule.ts';
import { listAllPosts, toPostView } from '../posts/post-view.ts';
import { selectVisiblePosts } from '../posts/posts.repository.ts';
import { markerDetails, viewerExclusions } from './explore.repository.ts';
import { AreaTooLargeError } from './map-index.ts';
import type { MapStore } from './map-store.ts';

export interface ExploreDeps {
  db: Database;
  store: MapStore;
  /** config.S3_PUBLIC_URL */
  publicBase: string | undefined;
}

/** The spec's call: every post on the viewer's map, newest first (capped: the map uses viewports). */
export function allMapPosts(deps: ExploreDeps, viewer: AuthContext): Promise<Post[]> {
  return listAllPosts(
    deps.db,
    viewer,
    { located: true },
    { publicBase: deps.publicBase, max: EXPLORE_ALL_MAX },
  );
}

/** Posts on the viewer's map by id, newest first; others (hidden, blocked, unknown, not located) are left out. */
export async function mapPostsById(
  deps: ExploreDeps,
  viewer: AuthContext,
  ids: readonly string[],
): Promise<Post[]> {
  const wanted = [...new Set(ids)].filter(isUuid);
  if (wanted.length === 0) return [];
  const rows = await selectVisiblePosts(
    deps.db,
    viewer.userId,
    { postIds: wanted, located: true },
    { limit: wanted.length },
  );
  return rows.slice(0, wanted.length).map((row) => toPostView(viewer, row, deps));
}

/**
 * One viewport at one zoom: lone markers and clusters. The shared index holds public positions only;
 * the viewer's hidden posts and blocked users are subtracted from it. A lone marker carries what the
 * map draws (position, picture, text alternative); its card loads the post when opened. A marker sits
 * where the viewer's card of the post puts it (location-rule.ts): exact for the owner and the post's
 * groups, else the public position the index holds (exact only when the owner chose so).
 */
export async function viewportMap(
  deps: ExploreDeps,
  viewer: AuthContext,
  viewport: MapViewport,
): Promise<ExploreViewportResponse> {
  const excluded = await viewerExclusions(deps.db, viewer.userId);
  const index = await deps.store.current();
  let result;
  try {
    // Same synchronous step as current(): no refresh can patch the store in between.
    result = index.query(
      viewport,
      deps.store.exclusions(index, excluded.hiddenPostIds, excluded.blockedUserIds),
    );
  } catch (err) {
    if (err instanceof AreaTooLargeError) throw badRequest(EXPLORE_MESSAGES.areaTooLarge);
    throw err;
  }
  const details = new Map(
    (
      await markerDetails(
        deps.db,
        viewer.userId,
        result.singles.map((p) => p.id),
      )
    ).map((row) => [row.id, row]),
  );
  const markers: MapMarker[] = [];
  for (const point of result.singles) {
    const detail = details.get(point.id);
    if (!detail) continue; // deleted since the index looked
    // The index holds the public position; the owner and the post's groups see the exact one.
    const exact = locationFor(viewer, detail);
    const precise =
      exact.locationPrecision === 'exact' && exact.latitude !== null && exact.longitude !== null;
    markers.push({
      _id: point.id,
      latitude: precise ? exact.latitude! : point.latitude,
      longitude: precise ? exact.longitude! : point.longitude,
      previewUrl: mediaUrl(deps.publicBase, variantKey(point.mediaKey, MAP_MARKER_SIZE)),
      catName: detail.catName,
      username: visibleUsername(viewer, { id: detail.userId, username: detail.username }),
      createdAt: new Date(point.createdAt).toISOString(),
    });
  }
  const clusters: MapCluster[] = result.clusters.map((c) => ({
    id: c.id,
    latitude: c.latitude,
    longitude: c.longitude,
    count: c.count,
    previewUrl: mediaUrl(deps.publicBase, variantKey(c.representative.mediaKey, MAP_MARKER_SIZE)),
    expansionZoom: c.expansionZoom,
  }));
  return { markers, clusters };
}

/** The posts of one cluster of the viewer's map (a spot no zoom can split), newest first. */
export async function clusterPosts(
  deps: ExploreDeps,
  viewer: AuthContext,
  clusterId: string,
): Promise<Post[]> {
  const excluded = await viewerExclusions(deps.db, viewer.userId);
  const index = await deps.store.current();
  const exclusions = deps.store.exclusions(index, excluded.hiddenPostIds, excluded.blockedUserIds);
  const members = index.clusterMembers(clusterId, exclusions, MAP_STACK_MAX);
  if (!members) throw notFound(CLUSTER_NOT_FOUND_MESSAGE);
  return mapPostsById(
    deps,
    viewer,
    members.map((p) => p.id),
  );
}
