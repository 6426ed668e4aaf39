import type { Post } from '@cats/contracts';
import type { AuthContext } from '../../plugins/auth.ts';
import { approximateLocation } from './location-grid.ts';

/**
 * What a viewer may know of where a picture was taken (issue 23; docs/security.md, "Location"). Every
 * answer that carries a post's position goes through here, whatever the route:
 *
 * 1. the owner sees the exact spot, even with the location switched off (the toggle needs it);
 * 2. a picture whose location is switched off shows no location to anyone else: not to the members of
 *    its groups, not on any map, in no cluster or count;
 * 3. members of a group the picture is shared with see the exact spot, wherever they meet the post;
 * 4. everyone else sees the centre of its ~500 m grid cell, or the exact spot where the owner chose
 *    exact public locations in settings.
 *
 * The shared demo account is a stranger for location purposes: its password is public, so anything it
 * sees, everyone sees. Its membership of the sample group shows visitors what a group looks like,
 * never more precisely than a brand-new account would see it.
 */
export interface LocatedPost {
  userId: string;
  latitude: number | null;
  longitude: number | null;
  showLocation: boolean;
  /** The owner chose exact public locations. */
  exactPublicLocation: boolean;
  /** The viewer belongs to a group the post is shared with. */
  sharedWithViewer: boolean;
}

export type LocationView = Pick<Post, 'latitude' | 'longitude' | 'locationPrecision'>;

export type Precision = 'exact' | 'approximate' | 'none';

/** How precisely this viewer may see this post's position. */
export function locationPrecisionFor(viewer: AuthContext, post: LocatedPost): Precision {
  if (post.latitude === null || post.longitude === null) return 'none';
  if (post.userId === viewer.userId) return 'exact';
  if (!post.showLocation) return 'none';
  if (post.sharedWithViewer && !viewer.isDemo) return 'exact';
  if (post.exactPublicLocation) return 'exact';
  return 'approximate';
}

export function locationFor(viewer: AuthContext, post: LocatedPost): LocationView {
  const precision = locationPrecisionFor(viewer, post);
  if (precision === 'none' || post.latitude === null || post.longitude === null) {
    return { latitude: null, longitude: null, locationPrecision: null };
  }
  if (precision === 'exact') {
    return { latitude: post.latitude, longitude: post.longitude, locationPrecision: 'exact' };
  }
  return { ...approximateLocation(post.latitude, post.longitude), locationPrecision: 'approximate' };
}
