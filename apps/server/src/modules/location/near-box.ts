/**
 * The box of latitudes and longitudes around a point that holds every point within `metres` of it, for
 * a btree index on (latitude, longitude) to read before the exact distance is checked (issue 26: the
 * missing-cats near list; the same box as migration 0019's missing_near_home_areas()). Near a pole the
 * box spans every longitude; across the antimeridian it is two ranges of longitude.
 */
export interface NearBox {
  south: number;
  north: number;
  /** One range, or two where the box crosses longitude ±180. */
  longitudes: [number, number][];
}

/** metres_between()'s sphere (migration 0018), so that the box never cuts a point the distance keeps. */
const EARTH_RADIUS_METRES = 6_371_000;
const POLE_MARGIN = 89.9;

export function nearBox(latitude: number, longitude: number, metres: number): NearBox {
  const dLat = ((metres / EARTH_RADIUS_METRES) * 180) / Math.PI;
  const south = Math.max(-90, latitude - dLat);
  const north = Math.min(90, latitude + dLat);
  const widest = Math.abs(latitude) + dLat;
  if (widest >= POLE_MARGIN) return { south, north, longitudes: [[-180, 180]] };
  // The widest the box gets, at its edge nearer the pole.
  const dLon = dLat / Math.cos((widest * Math.PI) / 180);
  if (dLon >= 180) return { south, north, longitudes: [[-180, 180]] };
  const west = longitude - dLon;
  const east = longitude + dLon;
  if (west < -180)
    return {
      south,
      north,
      longitudes: [
        [west + 360, 180],
        [-180, east],
      ],
    };
  if (east > 180)
    return {
      south,
      north,
      longitudes: [
        [west, 180],
        [-180, east - 360],
      ],
    };
  return { south, north, longitudes: [[west, east]] };
}
