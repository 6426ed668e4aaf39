import { MAP_DEFAULT_CENTER, MAP_DEFAULT_ZOOM, MAP_MAX_ZOOM, MAP_MIN_ZOOM } from '@cats/contracts';
import L from 'leaflet';
import { translate } from '../i18n/i18n-store.ts';

/**
 * Leaflet names its zoom buttons in English ('Zoom in', 'Zoom out'): every map's buttons are named in
 * the reader's language instead (issue 28), as each map is made. Every map module imports this file.
 */
L.Control.Zoom.addInitHook(function (this: L.Control.Zoom) {
  this.options.zoomInTitle = translate({ id: 'map.zoomIn', defaultMessage: 'Zoom in' });
  this.options.zoomOutTitle = translate({ id: 'map.zoomOut', defaultMessage: 'Zoom out' });
});

/**
 * Tile-layer options both maps share. On high-density screens (most phones) Leaflet asks for the next
 * zoom level's tiles at half their size, so the map is drawn sharp instead of upscaled and blurred
 * (Lighthouse's image-size-responsive; docs/performance.md). Leaflet lowers the layer's maxZoom by one
 * to do that: the + 1 keeps tiles at the map's deepest zoom (18), which then come from zoom 19, the
 * deepest OpenStreetMap serves.
 */
export const TILE_LAYER_OPTIONS = { detectRetina: true, maxZoom: MAP_MAX_ZOOM + 1 } as const;

/** The view both maps open on (spec: the default centre and zoom) and how far they zoom. */
export const MAP_VIEW_OPTIONS = {
  center: [MAP_DEFAULT_CENTER.lat, MAP_DEFAULT_CENTER.lng] as [number, number],
  zoom: MAP_DEFAULT_ZOOM,
  minZoom: MAP_MIN_ZOOM,
  maxZoom: MAP_MAX_ZOOM,
  worldCopyJump: true,
};

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** For the HTML of both maps' div icons, which React does not render: text as text, never as markup. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
