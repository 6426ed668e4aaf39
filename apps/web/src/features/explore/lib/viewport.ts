import type { MapViewport } from '@cats/contracts';
import { postLabel } from '../../../components/post/post-alt.ts';

/** Pans of less than this much of the screen keep the markers already loaded around it. */
export const VIEWPORT_PADDING = 0.25;
/** The map reloads this long after the last pan or zoom ends. */
export const VIEWPORT_DEBOUNCE_MS = 250;

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));
const round = (v: number) => Math.round(v * 1e4) / 1e4;

export interface BoundsLike {
  getWest(): number;
  getSouth(): number;
  getEast(): number;
  getNorth(): number;
}

/**
 * The area to ask the server for: the visible bounds padded on every side, rounded so that tiny moves
 * reuse the cached answer, and clamped to what the API accepts (Leaflet's longitudes run past +-180
 * when the world wraps; the server unwraps them).
 */
export function toViewport(bounds: BoundsLike, zoom: number, padding = VIEWPORT_PADDING): MapViewport {
  const w = bounds.getEast() - bounds.getWest();
  const h = bounds.getNorth() - bounds.getSouth();
  return {
    west: round(clamp(bounds.getWest() - w * padding, -540, 540)),
    south: round(clamp(bounds.getSouth() - h * padding, -90, 90)),
    east: round(clamp(bounds.getEast() + w * padding, -540, 540)),
    north: round(clamp(bounds.getNorth() + h * padding, -90, 90)),
    zoom: Math.round(zoom),
  };
}

/** A lone marker's text alternative: the same as its post's picture. */
export const markerAlt = (marker: { catName: string | null; username: string }): string =>
  postLabel({ catName: marker.catName, user: { username: marker.username } });
