import { Circle, CircleMarker, MapContainer, TileLayer } from 'react-leaflet';
import 'leaflet/dist/leaflet.css';
import { MAP_MAX_ZOOM } from '@cats/contracts';
import { TILE_LAYER_OPTIONS } from '../../../lib/leaflet-tiles.ts';
import { useMapConfig } from '../api/get-map-config.ts';

interface LocationMapProps {
  latitude: number;
  longitude: number;
  approximate: boolean;
}

/** Half the side of the ~500 m grid cell the server rounds an approximate location to. */
const CELL_RADIUS_METRES = 250;

/**
 * Where the picture was taken, as precisely as the server lets this viewer know it: a dot for an exact
 * spot, a circle the size of the grid cell for an approximate one (never a pin that looks exact).
 * Lazy-loaded, so Leaflet stays out of the page until a post has a location.
 */
export default function LocationMap({ latitude, longitude, approximate }: LocationMapProps) {
  const config = useMapConfig();
  if (!config.data) return <div className="post-page__map post-page__map--loading" aria-hidden="true" />;
  const center: [number, number] = [latitude, longitude];
  return (
    <MapContainer
      className="post-page__map"
      center={center}
      zoom={approximate ? 15 : 16}
      maxZoom={MAP_MAX_ZOOM}
      scrollWheelZoom={false}
    >
      <TileLayer url={config.data.tileUrl} attribution={config.data.attribution} {...TILE_LAYER_OPTIONS} />
      {approximate ? (
        <Circle center={center} radius={CELL_RADIUS_METRES} pathOptions={{ color: '#4b3aa6', weight: 2 }} />
      ) : (
        <CircleMarker
          center={center}
          radius={9}
          pathOptions={{ color: '#ffffff', weight: 3, fillColor: '#4b3aa6', fillOpacity: 1 }}
        />
      )}
    </MapContainer>
  );
}
