import { useEffect, useMemo } from 'react';
import L from 'leaflet';
import { Circle, CircleMarker, MapContainer, Popup, TileLayer, useMap } from 'react-leaflet';
import 'leaflet/dist/leaflet.css';
import { Link } from 'react-router';
import type { CatMapPoint } from '@cats/contracts';
import { LastSeenText } from '../../../components/cats/last-seen-text.tsx';
import { Message } from '../../../i18n/message.tsx';
import { MAP_VIEW_OPTIONS, TILE_LAYER_OPTIONS } from '../../../lib/leaflet-tiles.ts';
import { useMapConfig } from '../../../lib/map-config.ts';

/** Half the side of the ~500 m grid cell the server rounds an approximate place to (as the post page). */
const CELL_RADIUS_METRES = 250;
const INK = '#4b3aa6';
/** The last sighting stands out in the accent colour, drawn over the others. */
const LAST_SEEN = '#d9822b';

interface SightingsMapProps {
  points: CatMapPoint[];
  /** The newest sighting the viewer may see, highlighted; null or placeless draws none. */
  lastSeen: CatMapPoint | null;
}

/** Frames every point (approximate ones with their whole cell) when the set of points changes. */
function FitToPoints({ points }: { points: CatMapPoint[] }) {
  const map = useMap();
  const key = points.map((p) => `${p.postId}:${p.latitude},${p.longitude}`).join('|');
  useEffect(() => {
    if (points.length === 0) return;
    const bounds = L.latLngBounds([]);
    for (const p of points) {
      const at = L.latLng(p.latitude, p.longitude);
      bounds.extend(p.locationPrecision === 'approximate' ? at.toBounds(CELL_RADIUS_METRES * 2) : at);
    }
    map.fitBounds(bounds, { padding: [32, 32], maxZoom: 16 });
    // Only when the points change, not on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, key]);
  return null;
}

function PointPopup({ point, last }: { point: CatMapPoint; last: boolean }) {
  return (
    <Popup>
      <p className="cat-map__popup-when">
        <LastSeenText at={point.at} kind={last ? 'last' : 'one'} />
      </p>
      <Link to={`/posts/${encodeURIComponent(point.postId)}`}>
        <Message id="cats.map.openSighting" defaultMessage="Open this sighting" />
      </Link>
    </Popup>
  );
}

function Point({ point, last }: { point: CatMapPoint; last: boolean }) {
  const center: [number, number] = [point.latitude, point.longitude];
  const color = last ? LAST_SEEN : INK;
  if (point.locationPrecision === 'approximate') {
    // The cell, never a dot that would look exact.
    return (
      <Circle
        center={center}
        radius={CELL_RADIUS_METRES}
        pathOptions={{
          color,
          weight: last ? 3 : 2,
          dashArray: '6 6',
          fillColor: color,
          fillOpacity: last ? 0.25 : 0.12,
        }}
      >
        <PointPopup point={point} last={last} />
      </Circle>
    );
  }
  return (
    <CircleMarker
      center={center}
      radius={last ? 10 : 8}
      pathOptions={{ color: '#ffffff', weight: 3, fillColor: color, fillOpacity: 1 }}
    >
      <PointPopup point={point} last={last} />
    </CircleMarker>
  );
}

/**
 * Where the cat was seen, each sighting as precisely as its post shows it to this viewer (the server
 * decides): a dot for an exact spot, a dashed circle the size of the grid cell for an approximate one.
 * Lazy-loaded, so Leaflet loads only on this page, and only when there is something to show.
 */
export default function SightingsMap({ points, lastSeen }: SightingsMapProps) {
  const config = useMapConfig();
  const others = useMemo(
    () => points.filter((p) => p.postId !== lastSeen?.postId),
    [points, lastSeen?.postId],
  );
  const all = useMemo(() => (lastSeen ? [...others, lastSeen] : others), [others, lastSeen]);
  if (!config.data) return <div className="cat-map cat-map--loading" aria-hidden="true" />;
  return (
    <MapContainer className="cat-map" {...MAP_VIEW_OPTIONS} scrollWheelZoom={false}>
      <TileLayer url={config.data.tileUrl} attribution={config.data.attribution} {...TILE_LAYER_OPTIONS} />
      {others.map((p) => (
        <Point key={p.postId} point={p} last={false} />
      ))}
      {lastSeen && <Point point={lastSeen} last />}
      <FitToPoints points={all} />
    </MapContainer>
  );
}
