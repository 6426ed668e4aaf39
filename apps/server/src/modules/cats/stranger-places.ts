import { metresBetween } from '../visibility/cat-place.ts';

/** A cat at the place where strangers see it (its cell's centre, or the exact spot where shown so). */
export interface StrangerPlace {
  id: string;
  latitude: number;
  longitude: number;
}

const EARTH_METRES = 6_371_000;
const RAD = Math.PI / 180;
/** Bands of latitude this many degrees tall (~1.1 km), each sorted by longitude. */
const BAND_DEGREES = 0.01;
/** The first radius searched, and the farthest any two points of the Earth lie apart. */
const FIRST_METRES = 1_000;
const WORLD_METRES = 20_100_000;
/** Room for rounding at a search's edges, in degrees (about a millimetre). */
const EDGE = 1e-8;

/**
 * One process's copy of the places strangers see of the cats of cat_places, by bands of latitude, each
 * sorted by longitude: the cats within R metres of a point are those of the bands within R of its
 * latitude whose longitude lies within R / (Earth's radius x cos(the farthest latitude R reaches)),
 * each then measured exactly (a path of R metres can change the longitude no more than that, as long
 * as it reaches no pole; beyond one, every longitude is searched). So a search finds every cat within
 * its radius, across the 180th meridian too, reading only about the cats of a box around the point.
 */
export class StrangerPlaces {
  private readonly byId = new Map<string, StrangerPlace>();
  private readonly bands = new Map<number, StrangerPlace[]>();
  /** The bands' keys in order; rebuilt after a band is added or emptied. */
  private keys: number[] = [];
  private keysDirty = false;

  get size(): number {
    return this.byId.size;
  }

  clear(): void {
    this.byId.clear();
    this.bands.clear();
    this.keys = [];
    this.keysDirty = false;
  }

  /** Puts a cat at its place, or takes it out (null). */
  set(id: string, place: { latitude: number; longitude: number } | null): void {
    const old = this.byId.get(id);
    if (old) {
      const band = this.bands.get(bandOf(old.latitude))!;
      band.splice(band.indexOf(old), 1);
      if (band.length === 0) {
        this.bands.delete(bandOf(old.latitude));
        this.keysDirty = true;
      }
      this.byId.delete(id);
    }
    if (!place) return;
    const entry: StrangerPlace = { id, latitude: place.latitude, longitude: place.longitude };
    this.byId.set(id, entry);
    const key = bandOf(entry.latitude);
    let band = this.bands.get(key);
    if (!band) {
      band = [];
      this.bands.set(key, band);
      this.keysDirty = true;
    }
    band.splice(lowerBound(band, entry.longitude), 0, entry);
  }

  /**
   * The cats not skipped within the smallest radius tried (1 km, then wider) that holds at least
   * `wanted` of them, with their distances in metres, in no order (every cat not skipped when fewer lie
   * anywhere). Every cat left out lies beyond that radius, farther than each one returned: so the
   * `wanted` nearest of those returned are the `wanted` nearest of all.
   */
  nearest(
    near: { latitude: number; longitude: number },
    wanted: number,
    skip: (id: string) => boolean,
  ): { id: string; distance: number }[] {
    let radius = FIRST_METRES;
    for (;;) {
      const found = this.within(near, radius, skip);
      if (found.length >= wanted || radius >= WORLD_METRES) return found;
      // Grow by the density found: an area holding `wanted` at the same density, with room; at least
      // twice, at most eight times as wide.
      const factor = found.length ? Math.sqrt(wanted / found.length) * 1.5 : 8;
      radius = Math.min(WORLD_METRES, radius * Math.min(8, Math.max(2, factor)));
    }
  }

  /** The cats not skipped within `radius` metres of `near`, with their distances. */
  within(
    near: { latitude: number; longitude: number },
    radius: number,
    skip: (id: string) => boolean,
  ): { id: string; distance: number }[] {
    if (this.keysDirty) {
      this.keys = [...this.bands.keys()].sort((a, b) => a - b);
      this.keysDirty = false;
    }
    const reach = radius / EARTH_METRES;
    const latReach = reach / RAD + EDGE;
    const south = bandOf(near.latitude - latReach);
    const north = bandOf(near.latitude + latReach);
    const farthest = Math.abs(near.latitude) * RAD + reach;
    // Longitude ranges: every one past a pole or where the range spans the globe.
    let ranges: [number, number][];
    if (farthest >= Math.PI / 2) ranges = [[-180, 180]];
    else {
      const lngReach = reach / Math.cos(farthest) / RAD + EDGE;
      if (lngReach >= 180) ranges = [[-180, 180]];
      else {
        const west = near.longitude - lngReach;
        const east = near.longitude + lngReach;
        ranges = [[Math.max(-180, west), Math.min(180, east)]];
        if (west < -180) ranges.push([west + 360, 180]);
        if (east > 180) ranges.push([-180, east - 360]);
      }
    }
    const found: { id: string; distance: number }[] = [];
    for (let k = lowerBoundKeys(this.keys, south); k < this.keys.length && this.keys[k]! <= north; k++) {
      const band = this.bands.get(this.keys[k]!)!;
      for (const [west, east] of ranges) {
        for (let i = lowerBound(band, west); i < band.length && band[i]!.longitude <= east; i++) {
          const place = band[i]!;
          if (skip(place.id)) continue;
          const distance = metresBetween(near, place);
          if (distance <= radius) found.push({ id: place.id, distance });
        }
      }
    }
    return found;
  }
}

const bandOf = (latitude: number) => Math.floor(latitude / BAND_DEGREES);

/** The first position in a band (sorted by longitude) whose longitude is at least `longitude`. */
function lowerBound(band: readonly StrangerPlace[], longitude: number): number {
  let lo = 0;
  let hi = band.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (band[mid]!.longitude < longitude) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function lowerBoundKeys(keys: readonly number[], key: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
