import { MAP_MAX_ZOOM } from '@cats/contracts';

/**
 * Tile-layer options both maps share. On high-density screens (most phones) Leaflet asks for the next
 * zoom level's tiles at half their size, so the map is drawn sharp instead of upscaled and blurred
 * (Lighthouse's image-size-responsive; docs/performance.md). Leaflet lowers the layer's maxZoom by one
 * to do that: the + 1 keeps tiles at the map's deepest zoom (18), which then come from zoom 19, the
 * deepest OpenStreetMap serves.
 */
export const TILE_LAYER_OPTIONS = { detectRetina: true, maxZoom: MAP_MAX_ZOOM + 1 } as const;
