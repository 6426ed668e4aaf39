import { useEffect, useMemo, useRef } from 'react';
import L, { type LeafletKeyboardEvent } from 'leaflet';
import { useMap } from 'react-leaflet';
import { MAP_MARKER_SIZE, MAP_MAX_ZOOM, type MapCluster, type MapMarker } from '@cats/contracts';
import { escapeHtml } from '../../../lib/leaflet-tiles.ts';
import { markerAlt } from '../lib/viewport.ts';

const HALF = MAP_MARKER_SIZE / 2;

/**
 * Markers added per task: a full default view (~90 markers) takes several short tasks, not one long one.
 * Each marker costs ~5 ms on a phone 4x slower than a laptop (Chromium's CPU throttle): 30 at a time
 * made tasks of 140-260 ms there, and every millisecond over 50 counts as blocking time.
 */
export const MARKERS_PER_TASK = 10;

const picture = (src: string, alt: string) =>
  `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}" width="${MAP_MARKER_SIZE}" height="${MAP_MARKER_SIZE}" draggable="false" decoding="async">`;

const icon = (className: string, html: string) =>
  L.divIcon({ className, html, iconSize: [MAP_MARKER_SIZE, MAP_MARKER_SIZE], iconAnchor: [HALF, HALF] });

/** A cluster whose posts share one spot: zooming in would not split it, so it opens them instead. */
export const isStack = (cluster: MapCluster) => cluster.expansionZoom > MAP_MAX_ZOOM;

export function clusterLabel(cluster: MapCluster): string {
  return isStack(cluster)
    ? `${cluster.count} cats spotted at this place, show them`
    : `${cluster.count} cats spotted around here, zoom in`;
}

/** The class a highlighted post marker carries (its list item is hovered or focused, or it is). */
export const HIGHLIGHT_CLASS = 'explore-marker--highlighted';
/** Above every other marker and cluster (clusters sit at +1000), so a highlighted one is never hidden. */
const HIGHLIGHT_Z = 2000;

/** Shows a marker as highlighted or not: a distinct ring and on top of its neighbours. */
export function setMarkerHighlight(marker: L.Marker, on: boolean): void {
  marker.getElement()?.classList.toggle(HIGHLIGHT_CLASS, on);
  marker.setZIndexOffset(on ? HIGHLIGHT_Z : 0);
}

/**
 * A focusable Leaflet marker (role="button" from Leaflet) that `activate` runs on click, Enter or
 * Space; `hover`, when given, runs when the pointer comes over it or it takes the keyboard focus, and
 * `leave` when either goes.
 */
function interactiveMarker(
  position: L.LatLngExpression,
  options: L.MarkerOptions,
  activate: () => void,
  hover?: () => void,
  leave?: () => void,
): L.Marker {
  const marker = L.marker(position, { keyboard: true, ...options });
  marker.on('click', activate);
  if (hover) marker.on('mouseover', hover);
  if (leave) marker.on('mouseout', leave);
  if (hover || leave) {
    marker.on('add', () => {
      const element = marker.getElement();
      if (hover) element?.addEventListener('focus', hover);
      if (leave) element?.addEventListener('blur', leave);
    });
  }
  marker.on('keydown', (e: LeafletKeyboardEvent) => {
    const key = e.originalEvent.key;
    if (key !== 'Enter' && key !== ' ') return;
    e.originalEvent.preventDefault();
    activate();
  });
  return marker;
}

export interface MarkerActions {
  /** A lone post's marker was activated. */
  openPost: (marker: MapMarker) => void;
  /** The pointer came over a lone post's marker: its card can start loading. */
  hoverPost: (marker: MapMarker) => void;
  /** A lone post's marker is pointed at or focused (its id), or no longer (null): the list follows. */
  highlightPost?: (postId: string | null) => void;
  /** A cluster that splits further in: zoom to where it does. */
  zoomTo: (cluster: MapCluster) => void;
  /** A cluster of posts at one spot: show them. */
  openStack: (cluster: MapCluster) => void;
}

interface Placed {
  marker: L.Marker;
  /** Everything the marker shows: a marker whose look is unchanged stays as it is. */
  look: string;
}

interface Wanted {
  look: string;
  create: () => L.Marker;
}

/**
 * The viewport's markers: each lone post as its 64 px picture in a round frame, each cluster as its
 * newest picture with the count. Drawn with Leaflet directly rather than one React component per
 * marker, and added a batch per task: React's per-marker work was most of a 70-150 ms task on a
 * throttled phone (docs/performance.md). A marker that stays in view keeps its element (and focus)
 * when the viewport reloads.
 */
export function MarkerLayer({
  markers,
  clusters,
  actions,
  highlighted = null,
}: {
  markers: MapMarker[];
  clusters: MapCluster[];
  actions: MarkerActions;
  /** The post whose marker stands out (desktop list beside the map). */
  highlighted?: string | null;
}) {
  const map = useMap();
  const layer = useMemo(() => L.layerGroup(), []);
  const placed = useRef(new Map<string, Placed>());
  // Markers call the latest actions without being re-created when the callbacks change.
  const latest = useRef(actions);
  // Read by markers added later, in batches: one added while highlighted starts highlighted.
  const highlightedRef = useRef(highlighted);
  useEffect(() => {
    latest.current = actions;
  });

  useEffect(() => {
    highlightedRef.current = highlighted;
    if (highlighted === null) return;
    const entry = placed.current.get(`post:${highlighted}`);
    if (!entry) return;
    setMarkerHighlight(entry.marker, true);
    return () => setMarkerHighlight(entry.marker, false);
  }, [highlighted]);

  useEffect(() => {
    layer.addTo(map);
    const current = placed.current;
    return () => {
      layer.remove();
      layer.clearLayers();
      current.clear();
    };
  }, [map, layer]);

  useEffect(() => {
    const wanted = new Map<string, Wanted>();
    for (const m of markers) {
      const alt = markerAlt(m);
      wanted.set(`post:${m._id}`, {
        look: JSON.stringify([m.latitude, m.longitude, m.previewUrl, alt]),
        create: () =>
          interactiveMarker(
            [m.latitude, m.longitude],
            { icon: icon('explore-marker', picture(m.previewUrl, alt)), title: alt },
            () => latest.current.openPost(m),
            () => {
              latest.current.hoverPost(m);
              latest.current.highlightPost?.(m._id);
            },
            () => latest.current.highlightPost?.(null),
          ),
      });
    }
    for (const c of clusters) {
      const label = clusterLabel(c);
      const count = c.count > 999 ? `${Math.floor(c.count / 1000)}k` : String(c.count);
      const className = `explore-cluster${isStack(c) ? ' explore-cluster--stack' : ''}`;
      const html =
        picture(c.previewUrl, '') +
        `<span class="explore-cluster__count" aria-hidden="true">${escapeHtml(count)}</span>` +
        `<span class="visually-hidden">${escapeHtml(label)}</span>`;
      wanted.set(`cluster:${c.id}`, {
        look: JSON.stringify([c.latitude, c.longitude, className, html]),
        create: () =>
          interactiveMarker(
            [c.latitude, c.longitude],
            { icon: icon(className, html), title: label, zIndexOffset: 1000 },
            () => (isStack(c) ? latest.current.openStack(c) : latest.current.zoomTo(c)),
          ),
      });
    }

    for (const [key, entry] of placed.current) {
      if (wanted.get(key)?.look === entry.look) {
        wanted.delete(key);
        continue;
      }
      layer.removeLayer(entry.marker);
      placed.current.delete(key);
    }

    const queue = [...wanted];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const addBatch = () => {
      for (const [key, { look, create }] of queue.splice(0, MARKERS_PER_TASK)) {
        const marker = create();
        layer.addLayer(marker);
        placed.current.set(key, { marker, look });
        if (key === `post:${highlightedRef.current}`) setMarkerHighlight(marker, true);
      }
      if (queue.length > 0) timer = setTimeout(addBatch);
    };
    addBatch();
    return () => clearTimeout(timer);
  }, [markers, clusters, layer]);

  return null;
}
