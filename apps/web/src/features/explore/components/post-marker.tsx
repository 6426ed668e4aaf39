import { useEffect, useMemo, useRef } from 'react';
import L, { type LeafletKeyboardEvent } from 'leaflet';
import { Marker } from 'react-leaflet';
import { MAP_MARKER_SIZE, MAP_MAX_ZOOM, type MapCluster, type MapMarker } from '@cats/contracts';
import { escapeHtml, markerAlt } from '../lib/viewport.ts';

const HALF = MAP_MARKER_SIZE / 2;

/**
 * Enter or Space on a focused marker acts like a click (Leaflet markers are role="button" divs);
 * `onHover`, when given, runs when the pointer comes over the marker.
 */
function useActivation(onActivate: () => void, onHover?: () => void) {
  const ref = useRef({ onActivate, onHover });
  useEffect(() => {
    ref.current = { onActivate, onHover };
  });
  return useMemo(
    () => ({
      click: () => ref.current.onActivate(),
      mouseover: () => ref.current.onHover?.(),
      keydown: (e: LeafletKeyboardEvent) => {
        const key = e.originalEvent.key;
        if (key !== 'Enter' && key !== ' ') return;
        e.originalEvent.preventDefault();
        ref.current.onActivate();
      },
    }),
    [],
  );
}

/**
 * One post standing alone: its 64 px picture in a round frame, focusable, opening the detail card.
 * `onHover` lets the card start loading before the click.
 */
export function PostMarker({
  marker,
  onOpen,
  onHover,
}: {
  marker: MapMarker;
  onOpen: (marker: MapMarker) => void;
  onHover: (marker: MapMarker) => void;
}) {
  const src = marker.previewUrl;
  const alt = markerAlt(marker);
  // A new icon would replace the marker's element (and lose focus): only when the picture changes.
  const icon = useMemo(
    () =>
      L.divIcon({
        className: 'explore-marker',
        html: `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}" width="${MAP_MARKER_SIZE}" height="${MAP_MARKER_SIZE}" draggable="false" decoding="async">`,
        iconSize: [MAP_MARKER_SIZE, MAP_MARKER_SIZE],
        iconAnchor: [HALF, HALF],
      }),
    [src, alt],
  );
  const handlers = useActivation(
    () => onOpen(marker),
    () => onHover(marker),
  );
  return (
    <Marker
      position={[marker.latitude, marker.longitude]}
      icon={icon}
      keyboard
      title={alt}
      eventHandlers={handlers}
    />
  );
}

/**
 * Several posts: the newest one's picture with the count. Activating it zooms in to where it splits,
 * or, when its posts share one spot, opens them in the detail card.
 */
export function ClusterMarker({
  cluster,
  onZoom,
  onOpenStack,
}: {
  cluster: MapCluster;
  onZoom: (cluster: MapCluster) => void;
  onOpenStack: (cluster: MapCluster) => void;
}) {
  const stack = cluster.expansionZoom > MAP_MAX_ZOOM;
  const label = stack
    ? `${cluster.count} cats spotted at this place, show them`
    : `${cluster.count} cats spotted around here, zoom in`;
  const count = cluster.count > 999 ? `${Math.floor(cluster.count / 1000)}k` : String(cluster.count);
  const icon = useMemo(
    () =>
      L.divIcon({
        className: `explore-cluster${stack ? ' explore-cluster--stack' : ''}`,
        html:
          `<img src="${escapeHtml(cluster.previewUrl)}" alt="" width="${MAP_MARKER_SIZE}" height="${MAP_MARKER_SIZE}" draggable="false" decoding="async">` +
          `<span class="explore-cluster__count" aria-hidden="true">${escapeHtml(count)}</span>` +
          `<span class="visually-hidden">${escapeHtml(label)}</span>`,
        iconSize: [MAP_MARKER_SIZE, MAP_MARKER_SIZE],
        iconAnchor: [HALF, HALF],
      }),
    [cluster.previewUrl, count, label, stack],
  );
  const handlers = useActivation(() => (stack ? onOpenStack(cluster) : onZoom(cluster)));
  return (
    <Marker
      position={[cluster.latitude, cluster.longitude]}
      icon={icon}
      keyboard
      title={label}
      eventHandlers={handlers}
      zIndexOffset={1000}
    />
  );
}
