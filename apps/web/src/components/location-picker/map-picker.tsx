import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { MapContainer, Marker, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import L, { type LeafletEvent, type Map as LeafletMap } from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { MAP_MAX_ZOOM, MAP_MIN_ZOOM } from '@cats/contracts';
import { Button } from '../button.tsx';
import { defineMessage } from '../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../i18n/message.tsx';
import { TILE_LAYER_OPTIONS } from '../../lib/leaflet-tiles.ts';
import { useMapConfig } from '../../lib/map-config.ts';
import type { Coordinates } from './geolocation.ts';

export interface MapPickerProps {
  /** Where the pin starts, and the map's centre. */
  start: Coordinates;
  zoom: number;
  onConfirm: (place: Coordinates) => void;
  onCancel: () => void;
  /** What the pin marks, for the help text and the map's name (a picture's place by default). */
  help?: string | undefined;
  label?: string | undefined;
}

const PICTURE_HELP = defineMessage({
  id: 'locationPicker.map.help',
  defaultMessage:
    'Drag the pin or tap the map where the picture was taken. With a keyboard, focus the map and move the pin with the arrow keys.',
});
const PICTURE_LABEL = defineMessage({
  id: 'locationPicker.map.label',
  defaultMessage: 'Map for choosing where the picture was taken',
});

/** Screen pixels one arrow press moves the pin; with Shift, five times as far. */
const STEP_PX = 10;
/** ~10 cm: more than a phone's GPS knows, and the server's decimals stay short. */
const round = (degrees: number) => Math.round(degrees * 1e6) / 1e6;
/** Leaflet's world copies run past ±180°; the server takes the real longitude. */
const normalise = (latLng: L.LatLng): Coordinates => {
  const wrapped = latLng.wrap();
  return { latitude: round(wrapped.lat), longitude: round(wrapped.lng) };
};

/** A pin drawn in CSS and SVG: Leaflet's default marker images do not survive bundling. */
const PIN_ICON = L.divIcon({
  className: 'location-picker__pin',
  html: '<svg viewBox="0 0 32 42" width="32" height="42" aria-hidden="true"><path d="M16 1C7.7 1 1 7.6 1 15.8 1 27 16 41 16 41s15-14 15-25.2C31 7.6 24.3 1 16 1z"/><circle cx="16" cy="15.5" r="5.5"/></svg>',
  iconSize: [32, 42],
  iconAnchor: [16, 41],
});

const ARROWS: Record<string, [number, number]> = {
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
};

/** Taps on the map place the pin there. */
function TapToPlace({ onPlace }: { onPlace: (latLng: L.LatLng) => void }) {
  useMapEvents({ click: (e) => onPlace(e.latlng) });
  return null;
}

/** Hands the Leaflet map to the picker (for the keyboard), and keeps it sized to its box. */
function MapHandle({ onReady }: { onReady: (map: LeafletMap) => void }) {
  const map = useMap();
  useEffect(() => {
    onReady(map);
    // The picker opens inside forms and dialogs that may still be laying out.
    const frame = requestAnimationFrame(() => map.invalidateSize());
    return () => cancelAnimationFrame(frame);
  }, [map, onReady]);
  return null;
}

/**
 * Pick where the picture was taken (issue 26): drag the pin, tap the map, or, with the map focused,
 * move the pin with the arrow keys (Shift for bigger steps; + and - zoom). Loaded only when opened,
 * so Leaflet stays out of the Spot and Edit screens until someone needs the map.
 */
export default function MapPicker({
  start,
  zoom,
  onConfirm,
  onCancel,
  help: helpProp,
  label: labelProp,
}: MapPickerProps) {
  const t = useTranslate();
  const help = helpProp ?? t(PICTURE_HELP);
  const label = labelProp ?? t(PICTURE_LABEL);
  const config = useMapConfig();
  const [pin, setPin] = useState<Coordinates>(start);
  const mapRef = useRef<LeafletMap | null>(null);
  const helpId = useId();
  const readoutId = useId();
  const center = useMemo<[number, number]>(() => [start.latitude, start.longitude], [start]);

  const place = (latLng: L.LatLng) => setPin(normalise(latLng));

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const map = mapRef.current;
    if (e.key === 'Escape') {
      // Inside a dialog, Escape closes the map, not the dialog.
      e.preventDefault();
      e.stopPropagation();
      onCancel();
      return;
    }
    // Only the map itself: the zoom buttons and the attribution's links keep their keys.
    if (!map || e.target !== map.getContainer()) return;
    const arrow = ARROWS[e.key];
    if (arrow) {
      e.preventDefault();
      const step = e.shiftKey ? STEP_PX * 5 : STEP_PX;
      // In the map's own pixel space, unrounded (container points are whole pixels: a step east would
      // drift north or south by up to half a pixel, hundreds of metres zoomed out).
      const zoom = map.getZoom();
      const point = map.project([pin.latitude, pin.longitude], zoom);
      const next = map.unproject(point.add([arrow[0] * step, arrow[1] * step]), zoom);
      place(next);
      map.panInside(next, { padding: [48, 48] });
    } else if (e.key === '+' || e.key === '=') {
      e.preventDefault();
      map.zoomIn();
    } else if (e.key === '-' || e.key === '_') {
      e.preventDefault();
      map.zoomOut();
    }
  };

  const onReady = useMemo(
    () => (map: LeafletMap) => {
      mapRef.current = map;
      // Leaflet's own keyboard handling pans the map; here the arrows move the pin instead.
      const container = map.getContainer();
      container.tabIndex = 0;
      container.setAttribute('role', 'application');
      container.setAttribute(
        'aria-roledescription',
        t({ id: 'locationPicker.map.roleDescription', defaultMessage: 'map' }),
      );
      container.setAttribute('aria-label', label);
      container.setAttribute('aria-describedby', `${helpId} ${readoutId}`);
      // Keyboard users land on the map they just opened (pointer users see no ring: focus-visible).
      container.focus({ preventScroll: true });
      // The whole panel, so that Confirm and Cancel are in view too (the tab bar is scroll padding).
      container.closest('.location-picker__panel')?.scrollIntoView?.({ block: 'nearest' });
    },
    [helpId, readoutId, label, t],
  );

  return (
    // A group with a name: inside the Edit dialog its Cancel is not the dialog's.
    <div
      className="location-picker__panel"
      role="group"
      aria-label={t({ id: 'locationPicker.map.group', defaultMessage: 'Place on the map' })}
      onKeyDown={onKeyDown}
    >
      <p id={helpId} className="location-picker__help">
        {help}
      </p>
      {config.data ? (
        <MapContainer
          className="location-picker__map"
          center={center}
          zoom={zoom}
          minZoom={MAP_MIN_ZOOM}
          maxZoom={MAP_MAX_ZOOM}
          keyboard={false}
          worldCopyJump
        >
          <TileLayer
            url={config.data.tileUrl}
            attribution={config.data.attribution}
            {...TILE_LAYER_OPTIONS}
          />
          <Marker
            position={[pin.latitude, pin.longitude]}
            icon={PIN_ICON}
            draggable
            keyboard={false}
            eventHandlers={{
              dragend: (e: LeafletEvent) => place((e.target as L.Marker).getLatLng()),
            }}
          />
          <TapToPlace onPlace={place} />
          <MapHandle onReady={onReady} />
        </MapContainer>
      ) : (
        <div className="location-picker__map location-picker__map--loading" aria-hidden="true" />
      )}
      <p id={readoutId} className="location-picker__readout" aria-live="polite">
        <Message
          id="locationPicker.map.readout"
          defaultMessage="The pin is at latitude {latitude, number, ::.00000}, longitude {longitude, number, ::.00000}."
          values={{ latitude: pin.latitude, longitude: pin.longitude }}
        />
      </p>
      <div className="location-picker__actions">
        <Button variant="secondary" onClick={onCancel}>
          <Message id="locationPicker.map.cancel" defaultMessage="Cancel" />
        </Button>
        <Button onClick={() => onConfirm(pin)}>
          <Message id="locationPicker.map.confirm" defaultMessage="Confirm location" />
        </Button>
      </div>
    </div>
  );
}
