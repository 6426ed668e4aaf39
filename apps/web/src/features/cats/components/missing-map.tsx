import { useEffect } from 'react';
import L from 'leaflet';
import { Circle, CircleMarker, MapContainer, Popup, TileLayer, useMap } from 'react-leaflet';
import 'leaflet/dist/leaflet.css';
import { Link } from 'react-router';
import type { MissingReport, ShownPlace } from '@cats/contracts';
import { LastSeenText } from '../../../components/cats/last-seen-text.tsx';
import { Message } from '../../../i18n/message.tsx';
import { MAP_VIEW_OPTIONS, TILE_LAYER_OPTIONS } from '../../../lib/leaflet-tiles.ts';
import { useMapConfig } from '../../../lib/map-config.ts';

/** Half the side of the ~500 m cell an approximate place stands for (as on the sightings map). */
const CELL_RADIUS_METRES = 250;
/** The last-seen place in the alert's red; the reports in the app's ink. */
const MISSING = '#b3261e';
const REPORT = '#4b3aa6';

interface MissingMapProps {
  catName: string;
  lastSeen: ShownPlace;
  lastSeenAt: string;
  /** The caretakers' reports; others see the last-seen place alone. */
  reports?: MissingReport[];
}

function Fit({ places }: { places: ShownPlace[] }) {
  const map = useMap();
  const key = places.map((p) => `${p.latitude},${p.longitude}`).join('|');
  useEffect(() => {
    const bounds = L.latLngBounds([]);
    for (const p of places) bounds.extend(L.latLng(p.latitude, p.longitude).toBounds(CELL_RADIUS_METRES * 2));
    map.fitBounds(bounds, { padding: [24, 24], maxZoom: 16 });
    // Only when the places change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, key]);
  return null;
}

function Place({ place, color, children }: { place: ShownPlace; color: string; children: React.ReactNode }) {
  const center: [number, number] = [place.latitude, place.longitude];
  if (place.locationPrecision === 'approximate') {
    return (
      <Circle
        center={center}
        radius={CELL_RADIUS_METRES}
        pathOptions={{ color, weight: 2, dashArray: '6 6', fillColor: color, fillOpacity: 0.18 }}
      >
        <Popup>{children}</Popup>
      </Circle>
    );
  }
  return (
    <CircleMarker
      center={center}
      radius={9}
      pathOptions={{ color: '#ffffff', weight: 3, fillColor: color, fillOpacity: 1 }}
    >
      <Popup>{children}</Popup>
    </CircleMarker>
  );
}

/**
 * Where the missing cat was last seen (red: a dot where exact, the ~500 m cell where not), and for its
 * caretakers where people reported seeing it (purple). Lazy-loaded with Leaflet.
 */
export default function MissingMap({ catName, lastSeen, lastSeenAt, reports = [] }: MissingMapProps) {
  const config = useMapConfig();
  const placed = reports.filter((r): r is MissingReport & { place: ShownPlace } => r.place !== null);
  if (!config.data) return <div className="cat-map cat-map--loading" aria-hidden="true" />;
  return (
    <MapContainer className="cat-map missing-map" {...MAP_VIEW_OPTIONS} scrollWheelZoom={false}>
      <TileLayer url={config.data.tileUrl} attribution={config.data.attribution} {...TILE_LAYER_OPTIONS} />
      {placed.map((r) => (
        <Place key={r._id} place={r.place} color={REPORT}>
          <p className="cat-map__popup-when">
            <LastSeenText at={r.seenAt} kind="one" />
          </p>
          {r.kind === 'photo' && (
            <Link to={`/posts/${encodeURIComponent(r._id)}`}>
              <Message id="missing.map.openPhoto" defaultMessage="Open this photo" />
            </Link>
          )}
        </Place>
      ))}
      <Place place={lastSeen} color={MISSING}>
        <p className="cat-map__popup-when">
          <Message
            id="missing.map.lastSeenHere"
            defaultMessage="{cat} was last seen here."
            values={{ cat: catName }}
          />
        </p>
        <p>
          <LastSeenText at={lastSeenAt} />
        </p>
      </Place>
      <Fit places={[lastSeen, ...placed.map((r) => r.place)]} />
    </MapContainer>
  );
}
