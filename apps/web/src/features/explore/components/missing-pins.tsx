import { useEffect, useMemo, useRef } from 'react';
import L, { type LeafletKeyboardEvent } from 'leaflet';
import { useMap } from 'react-leaflet';
import { useNavigate } from 'react-router';
import type { MissingAlert } from '@cats/contracts';
import { escapeHtml } from '../../../lib/leaflet-tiles.ts';

const PIN_WIDTH = 40;
const PIN_HEIGHT = 52;

/** A red pin with an exclamation mark: unlike the round photo markers of posts, whatever the map shows. */
const PIN_SVG =
  '<svg viewBox="0 0 40 52" width="40" height="52" aria-hidden="true" focusable="false">' +
  '<path d="M20 1C9.5 1 1 9.3 1 19.6 1 33.8 20 51 20 51s19-17.2 19-31.4C39 9.3 30.5 1 20 1z" fill="#b3261e" stroke="#ffffff" stroke-width="2"/>' +
  '<circle cx="20" cy="19" r="11" fill="#ffffff"/>' +
  '<rect x="18" y="11" width="4" height="10" rx="2" fill="#b3261e"/><circle cx="20" cy="25" r="2.2" fill="#b3261e"/></svg>';

/** The pin's name for screen readers and its tooltip: one whole sentence per cat. */
export const missingPinLabel = (alert: MissingAlert) =>
  `Missing cat: ${alert.cat.name}. Open the cat's page.`;

/** Pins that share a place (one ~500 m cell) fan out side by side, this many to a row, rows upwards. */
const FAN_ROW = 5;
const FAN_STEP_X = PIN_WIDTH + 4;
const FAN_STEP_Y = PIN_HEIGHT + 4;

/**
 * Where each pin's tip sits relative to its place, in pixels, so that alerts at one place (most are
 * shown at their cell's centre, so two cats lost in one street share it) are each visible and each
 * clickable instead of stacked into one. Stable: the same alerts give the same layout (by id).
 */
export function fanOffsets(alerts: readonly MissingAlert[]): Map<string, { x: number; y: number }> {
  const byPlace = new Map<string, MissingAlert[]>();
  for (const alert of alerts) {
    const key = `${alert.place.latitude},${alert.place.longitude}`;
    byPlace.set(key, [...(byPlace.get(key) ?? []), alert]);
  }
  const offsets = new Map<string, { x: number; y: number }>();
  for (const group of byPlace.values()) {
    const sorted = [...group].sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
    sorted.forEach((alert, i) => {
      const row = Math.floor(i / FAN_ROW);
      const inRow = Math.min(FAN_ROW, sorted.length - row * FAN_ROW);
      const col = i % FAN_ROW;
      offsets.set(alert._id, {
        x: Math.round((col - (inRow - 1) / 2) * FAN_STEP_X),
        y: row === 0 ? 0 : -row * FAN_STEP_Y,
      });
    });
  }
  return offsets;
}

interface Placed {
  marker: L.Marker;
  /** Everything the pin shows: a pin whose look is unchanged stays as it is (and keeps focus). */
  look: string;
}

/**
 * Issue 26: the missing cats of the map's viewport as red pins on Explore, at the place the viewer may
 * see (the ~500 m cell's centre unless they care for the cat). Each opens the cat's page; focusable,
 * and Enter or Space opens it too. A pin that stays in view keeps its element when the viewport reloads.
 */
export function MissingPins({ alerts }: { alerts: readonly MissingAlert[] }) {
  const map = useMap();
  const navigate = useNavigate();
  const layer = useMemo(() => L.layerGroup(), []);
  const placed = useRef(new Map<string, Placed>());
  const go = useRef(navigate);
  useEffect(() => {
    go.current = navigate;
  });

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
    const wanted = new Map<string, MissingAlert>(alerts.map((alert) => [alert._id, alert]));
    const offsets = fanOffsets(alerts);
    const offsetOf = (alert: MissingAlert) => offsets.get(alert._id) ?? { x: 0, y: 0 };
    const lookOf = (alert: MissingAlert) =>
      JSON.stringify([
        alert.place.latitude,
        alert.place.longitude,
        alert.cat._id,
        missingPinLabel(alert),
        offsetOf(alert),
      ]);
    for (const [id, entry] of placed.current) {
      const alert = wanted.get(id);
      if (alert && lookOf(alert) === entry.look) {
        wanted.delete(id);
        continue;
      }
      layer.removeLayer(entry.marker);
      placed.current.delete(id);
    }
    for (const [id, alert] of wanted) {
      const label = missingPinLabel(alert);
      const icon = L.divIcon({
        className: 'explore-missing-pin',
        html: `${PIN_SVG}<span class="visually-hidden">${escapeHtml(label)}</span>`,
        iconSize: [PIN_WIDTH, PIN_HEIGHT],
        // Moving the anchor the other way moves the pin: fanned out beside the others at its place.
        iconAnchor: [PIN_WIDTH / 2 - offsetOf(alert).x, PIN_HEIGHT - 1 - offsetOf(alert).y],
      });
      const open = () => void go.current(`/cats/${encodeURIComponent(alert.cat._id)}`);
      const marker = L.marker([alert.place.latitude, alert.place.longitude], {
        icon,
        title: label,
        keyboard: true,
        // Above the photo markers and clusters: an alert should not hide under a crowd of posts.
        zIndexOffset: 2000,
      });
      marker.on('click', open);
      marker.on('keydown', (e: LeafletKeyboardEvent) => {
        const key = e.originalEvent.key;
        if (key !== 'Enter' && key !== ' ') return;
        e.originalEvent.preventDefault();
        open();
      });
      marker.addTo(layer);
      placed.current.set(id, { marker, look: lookOf(alert) });
    }
  }, [alerts, layer]);

  return null;
}
