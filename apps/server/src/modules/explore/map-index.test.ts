import { describe, expect, it } from 'vitest';
import { MAP_MAX_ZOOM, MAP_STACK_MAX, type MapViewport } from '@cats/contracts';
import {
  AreaTooLargeError,
  MapIndex,
  indexPoint,
  longitudeRanges,
  type MapPoint,
  type ViewportResult,
} from './map-index.ts';

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function points(n: number, seed: number, box = { west: -8, south: 35, east: -1, north: 39 }): MapPoint[] {
  const rnd = random(seed);
  return Array.from({ length: n }, (_, i) => ({
    id: `p${i}`,
    userId: `u${i % 7}`,
    latitude: box.south + rnd() * (box.north - box.south),
    longitude: box.west + rnd() * (box.east - box.west),
    mediaKey: `posts/${i}`,
    createdAt: 1_700_000_000_000 + Math.floor(rnd() * 1e9),
  }));
}

const index0 = () => MapIndex.build([]);
const WORLD: Omit<MapViewport, 'zoom'> = { west: -180, south: -85, east: 180, north: 85 };
const total = (r: ViewportResult) => r.singles.length + r.clusters.reduce((s, c) => s + c.count, 0);

describe('MapIndex', () => {
  it('answers a question asked again from its cache, per viewer and per index', () => {
    const all = points(400, 11);
    const index = MapIndex.build(all);
    const view = { west: -8, south: 35, east: -1, north: 39, zoom: 8 };
    const first = index.query(view);
    expect(index.query({ ...view })).toBe(first);
    // Another viewer's exclusions: another answer, with their hidden points left out.
    const hidden = index.exclusionsFor(all.slice(0, 50).map(indexPoint));
    const theirs = index.query(view, hidden);
    expect(theirs).not.toBe(first);
    expect(total(theirs)).toBe(total(first) - 50);
    expect(index.query(view, hidden)).toBe(theirs);
    // Another zoom or area is its own question; a new index (a changed map) starts empty.
    expect(index.query({ ...view, zoom: 9 })).not.toBe(first);
    const changed = MapIndex.build(all.slice(1));
    expect(total(changed.query(view))).toBe(total(first) - 1);
  });

  it('accounts for every point exactly once at every zoom', () => {
    const all = points(3000, 1);
    const index = MapIndex.build(all);
    for (const zoom of [0, 3, 5]) expect(total(index.query({ ...WORLD, zoom }))).toBe(3000);
    expect(total(index.query({ west: -10, south: 33, east: 1, north: 41, zoom: 8 }))).toBe(3000);
    // A regional viewport at a deeper zoom counts exactly the points inside it (cells are small there).
    const view = { west: -6, south: 36, east: -4, north: 37.5, zoom: 11 };
    const within = (margin: number) =>
      all.filter(
        (p) =>
          p.longitude >= view.west - margin &&
          p.longitude <= view.east + margin &&
          p.latitude >= view.south - margin &&
          p.latitude <= view.north + margin,
      ).length;
    // Whole cells are counted: a cell at zoom 11 is 88 px, about 0.06 degrees.
    const counted = total(index.query(view));
    expect(counted).toBeGreaterThanOrEqual(within(0));
    expect(counted).toBeLessThanOrEqual(within(0.061));
  });

  it('clusters when zoomed out and separates when zoomed in', () => {
    const index = MapIndex.build(points(500, 2));
    const far = index.query({ ...WORLD, zoom: 3 });
    expect(far.singles).toHaveLength(0);
    expect(far.clusters.length).toBeLessThanOrEqual(4);
    const near = index.query({ west: -8, south: 35, east: -5, north: 37, zoom: 12 });
    expect(near.singles.length).toBeGreaterThan(near.clusters.length);
  });

  it('never leaves two markers overlapping where their cells meet', () => {
    const index = MapIndex.build(points(2000, 3));
    const zoom = 9;
    const r = index.query({ west: -8, south: 35, east: -1, north: 39, zoom });
    const worldPx = 256 * 2 ** zoom;
    const px = (lat: number, lng: number) => {
      const s = Math.sin((lat * Math.PI) / 180);
      return [
        ((lng + 180) / 360) * worldPx,
        (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * worldPx,
      ] as const;
    };
    const markers = [
      ...r.singles.map((p) => px(p.latitude, p.longitude)),
      ...r.clusters.map((c) => px(c.latitude, c.longitude)),
    ];
    let overlapping = 0;
    for (let i = 0; i < markers.length; i += 1)
      for (let j = i + 1; j < markers.length; j += 1)
        if (Math.hypot(markers[i]![0] - markers[j]![0], markers[i]![1] - markers[j]![1]) < 32)
          overlapping += 1;
    // Greedy merging leaves a rare pair; markers half on top of each other should not be common.
    expect(overlapping).toBeLessThanOrEqual(markers.length * 0.02);
  });

  it('subtracts a viewer’s exclusions exactly as if those points did not exist', () => {
    const all = points(4000, 4);
    const index = MapIndex.build(all);
    const hidden = all.filter((_, i) => i % 13 === 0).map((p) => p.id);
    const gone = new Set([...hidden, ...all.filter((p) => p.userId === 'u3').map((p) => p.id)]);
    const without = MapIndex.build(all.filter((p) => !gone.has(p.id)));
    const exclusions = index.exclusionsFor(all.filter((p) => gone.has(p.id)).map(indexPoint));
    expect(exclusions.size).toBe(gone.size);
    for (const view of [
      { ...WORLD, zoom: 3 },
      { west: -8, south: 35, east: -1, north: 39, zoom: 7 },
      { west: -6, south: 36, east: -5, north: 37, zoom: 11 },
    ]) {
      const a = index.query(view, exclusions);
      const b = without.query(view);
      expect(total(a)).toBe(total(b));
      expect(a.singles.map((p) => p.id).sort()).toEqual(b.singles.map((p) => p.id).sort());
      const summary = (r: ViewportResult) =>
        r.clusters
          .map((c) => `${c.id}:${c.count}:${c.representative.id}:${c.expansionZoom}:${c.latitude.toFixed(4)}`)
          .sort();
      expect(summary(a)).toEqual(summary(b));
      for (const c of a.clusters) expect(gone.has(c.representative.id)).toBe(false);
      for (const p of a.singles) expect(gone.has(p.id)).toBe(false);
    }
  });

  it('picks the newest post of a cluster as its picture', () => {
    const all = points(200, 5, { west: -4.6, south: 36.6, east: -4.3, north: 36.8 });
    const r = MapIndex.build(all).query({ ...WORLD, zoom: 3 });
    expect(r.clusters).toHaveLength(1);
    const newest = all.reduce((a, b) => (b.createdAt > a.createdAt ? b : a));
    expect(r.clusters[0]!.representative.id).toBe(newest.id);
    expect(r.clusters[0]!.count).toBe(200);
  });

  it('gives the zoom at which a cluster splits', () => {
    const base = { userId: 'u', mediaKey: 'k', createdAt: 1 };
    const index = MapIndex.build([
      { ...base, id: 'a', latitude: 36.7, longitude: -4.42 },
      { ...base, id: 'b', latitude: 36.72, longitude: -4.4 },
    ]);
    const [cluster] = index.query({ ...WORLD, zoom: 5 }).clusters;
    expect(cluster!.count).toBe(2);
    const split = cluster!.expansionZoom;
    expect(split).toBeGreaterThan(5);
    expect(split).toBeLessThanOrEqual(MAP_MAX_ZOOM);
    const around = { west: -4.6, south: 36.5, east: -4.2, north: 36.9 };
    expect(index.query({ ...around, zoom: split }).clusters.length).toBeLessThanOrEqual(1);
    const after = index.query({ ...around, zoom: split + 2 });
    expect(after.singles.map((p) => p.id).sort()).toEqual(['a', 'b']);
  });

  it('lists the posts of a spot that no zoom can split, newest first', () => {
    const NONE = index0().exclusionsFor([]);
    const spot = { latitude: 36.72225, longitude: -4.42125, userId: 'u', mediaKey: 'k' };
    const index = MapIndex.build(
      Array.from({ length: MAP_STACK_MAX + 5 }, (_, i) => ({ ...spot, id: `s${i}`, createdAt: 1000 + i })),
    );
    for (const zoom of [8, MAP_MAX_ZOOM]) {
      const { clusters, singles } = index.query({
        west: -4.43,
        south: 36.72,
        east: -4.41,
        north: 36.725,
        zoom,
      });
      expect(singles).toHaveLength(0);
      expect(clusters).toHaveLength(1);
      expect(clusters[0]!.count).toBe(MAP_STACK_MAX + 5);
      expect(clusters[0]!.expansionZoom).toBe(MAP_MAX_ZOOM + 1);
      const members = index.clusterMembers(clusters[0]!.id, NONE, MAP_STACK_MAX)!;
      expect(members).toHaveLength(MAP_STACK_MAX);
      expect(members[0]!.id).toBe(`s${MAP_STACK_MAX + 4}`);
      expect(members.at(-1)!.id).toBe('s5');
      expect(clusters[0]!.latitude).toBeCloseTo(spot.latitude, 6);
      expect(clusters[0]!.longitude).toBeCloseTo(spot.longitude, 6);
    }
  });

  it('finds points across the antimeridian and keeps cluster ids stable while panning', () => {
    const base = { userId: 'u', mediaKey: 'k', createdAt: 1 };
    const index = MapIndex.build([
      { ...base, id: 'east', latitude: -17, longitude: 178.5 },
      { ...base, id: 'west', latitude: -17, longitude: -178.5 },
      ...points(50, 6).map((p) => ({ ...p, id: `x${p.id}` })),
    ]);
    const wrapped = index.query({ west: 170, south: -25, east: 190, north: -10, zoom: 6 });
    expect(wrapped.singles.map((p) => p.id).sort()).toEqual(['east', 'west']);
    const geojson = index.query({ west: 170, south: -25, east: -170, north: -10, zoom: 6 });
    expect(geojson.singles.map((p) => p.id).sort()).toEqual(['east', 'west']);
    const a = index.query({ west: -9, south: 34, east: 0, north: 40, zoom: 6 }).clusters.map((c) => c.id);
    const b = index
      .query({ west: -8.5, south: 34.2, east: 0.5, north: 40.2, zoom: 6 })
      .clusters.map((c) => c.id);
    expect(a.filter((id) => b.includes(id)).length).toBeGreaterThan(0);
  });

  it('finds a cluster\u2019s posts from its id, without the viewer\u2019s exclusions, and refuses made-up ids', () => {
    const all = points(300, 9, { west: -4.6, south: 36.6, east: -4.3, north: 36.8 });
    const index = MapIndex.build(all);
    const [cluster] = index.query({ ...WORLD, zoom: 3 }).clusters;
    expect(cluster!.id).toMatch(/^3-\d+-\d+$/);
    const none = index.exclusionsFor([]);
    const members = index.clusterMembers(cluster!.id, none, 1000)!;
    expect(members).toHaveLength(300);
    expect(members.map((p) => p.createdAt)).toEqual(
      [...members.map((p) => p.createdAt)].sort((a, b) => b - a),
    );
    const hidden = all.slice(0, 10).map(indexPoint);
    expect(index.clusterMembers(cluster!.id, index.exclusionsFor(hidden), 1000)).toHaveLength(290);
    for (const bad of ['', '3/1/2', '19-0-0', '3-99999-0', 'x-1-2', '3-1-2-4'])
      expect(index.clusterMembers(bad, none, 10)).toBeNull();
    expect(index.clusterMembers('3-0-0', none, 10)).toEqual([]);
  });

  it('refuses a viewport that needs too many cells', () => {
    const index = MapIndex.build(points(10, 7));
    expect(() => index.query({ ...WORLD, zoom: 14 })).toThrow(AreaTooLargeError);
  });

  // How fast it builds and answers is measured by `npm run bench:explore`, not here.
  it('accounts for 100,000 points in a regional view at every zoom', () => {
    const box = { west: -10, south: 35, east: 5, north: 44 };
    const index = MapIndex.build(points(100_000, 8, box));
    expect(index.size).toBe(100_000);
    for (const zoom of [3, 5, 8]) expect(total(index.query({ ...box, zoom }))).toBe(100_000);
  });
});

describe('longitudeRanges', () => {
  it('wraps Leaflet and GeoJSON boxes into -180..180', () => {
    expect(longitudeRanges(-10, 10)).toEqual([[-10, 10]]);
    expect(longitudeRanges(-200, 200)).toEqual([[-180, 180]]);
    expect(longitudeRanges(170, 190)).toEqual([
      [170, 180],
      [-180, -170],
    ]);
    expect(longitudeRanges(170, -170)).toEqual([
      [170, 180],
      [-180, -170],
    ]);
    expect(longitudeRanges(350, 360)).toEqual([[-10, 0]]);
  });
});
