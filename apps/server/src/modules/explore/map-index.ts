/* eslint-disable max-lines -- One structure: the projection, the Morton codes, the exclusions and the
   queries all work on the same cell arithmetic and the index's private arrays; apart, each would export
   what only the others may touch. */
import { LRUCache } from 'lru-cache';
import { MAP_MAX_ZOOM, type MapViewport } from '@cats/contracts';

/**
 * The explore map's clustering: a grid quadtree over Web Mercator, kept in memory.
 *
 * Why not supercluster: its clusters are built for one fixed set of points, and every viewer's set
 * differs (posts they hid, users they blocked or who blocked them). Grid cells are additive instead,
 * so one shared index of the public layer serves everyone and a viewer's exclusions are subtracted
 * per cell in O(log n). Points are sorted by their Morton (Z-order) code at the deepest zoom, so
 * every grid cell at every zoom is one contiguous range of that array: a cell's count is two binary
 * searches, its centre of mass comes from prefix sums.
 *
 * The index only ever holds public positions (the ~500 m cell centre unless the owner chose exact):
 * clusters are computed from what everyone may see, so they cannot leak a private position.
 */

export interface MapPoint {
  id: string;
  userId: string;
  /** Public position: approximate unless the owner chose exact public locations. */
  latitude: number;
  longitude: number;
  mediaKey: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

/** A point with its Web Mercator position (0..1) and Morton code, computed once. */
export interface IndexedPoint extends MapPoint {
  readonly x: number;
  readonly y: number;
  readonly code: number;
}

/**
 * Markers of neighbouring cells closer than this (in pixels) are merged so they do not overlap: a 64 px
 * picture with its frame and ring is about 76 px across.
 */
export const MERGE_DISTANCE_PX = 76;
/** Grid cell size in screen pixels (256 px tiles); above the merge distance, so cells two apart never overlap. */
export const CLUSTER_CELL_PX = 88;
/** Refuse viewports that would need more cells than a very large screen does. */
export const MAX_VIEWPORT_CELLS = 20_000;

const TILE_PX = 256;
const ZMAX = MAP_MAX_ZOOM;
const MAX_LATITUDE = 85.05112878;
/** Cells per axis at the deepest zoom (fits 20 bits, so a Morton code fits 40 bits of a double). */
const CELLS_AT_ZMAX = Math.ceil((TILE_PX * 2 ** ZMAX) / CLUSTER_CELL_PX);

export class AreaTooLargeError extends Error {
  override name = 'AreaTooLargeError';
}

// ---------------------------------------------------------------------------------------------------
// Projection and Morton codes
// ---------------------------------------------------------------------------------------------------

export const lngToX = (lng: number): number => (lng + 180) / 360;
export function latToY(lat: number): number {
  const sin = Math.sin((Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat)) * Math.PI) / 180);
  return 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
}
export const xToLng = (x: number): number => x * 360 - 180;
export const yToLat = (y: number): number => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;

/** World units (0..1) per grid cell at a zoom. */
const cellSize = (zoom: number) => CLUSTER_CELL_PX / (TILE_PX * 2 ** zoom);
const cellsPerAxis = (zoom: number) => Math.ceil(CELLS_AT_ZMAX / 2 ** (ZMAX - zoom));

/** 10 bits spread to the even bits of 20. */
const SPREAD = new Uint32Array(1024);
for (let v = 0; v < 1024; v += 1) {
  let s = 0;
  for (let b = 0; b < 10; b += 1) s |= ((v >> b) & 1) << (2 * b);
  SPREAD[v] = s;
}

/** Z-order code of a deepest-zoom cell; cells of zoom z are the ranges [m * 4^k, (m + 1) * 4^k). */
function morton(cx: number, cy: number): number {
  const low = SPREAD[cx & 1023]! | (SPREAD[cy & 1023]! << 1);
  const high = SPREAD[(cx >> 10) & 1023]! | (SPREAD[(cy >> 10) & 1023]! << 1);
  return (high >>> 0) * 2 ** 20 + (low >>> 0);
}

function deepestCell(x: number, y: number): [number, number] {
  const size = cellSize(ZMAX);
  const cx = Math.min(CELLS_AT_ZMAX - 1, Math.max(0, Math.floor(x / size)));
  const cy = Math.min(CELLS_AT_ZMAX - 1, Math.max(0, Math.floor(y / size)));
  return [cx, cy];
}

/** First index whose value is >= target in an ascending array. */
function lowerBound(values: ArrayLike<number>, target: number, from = 0, to = values.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// ---------------------------------------------------------------------------------------------------
// Viewer exclusions
// ---------------------------------------------------------------------------------------------------

/** Positions (in the index's order) a viewer must not see, with prefix sums to subtract per cell. */
export interface Exclusions {
  readonly size: number;
  readonly positions: Int32Array;
  readonly has: (position: number) => boolean;
  readonly sumX: Float64Array;
  readonly sumY: Float64Array;
}

const NO_EXCLUSIONS: Exclusions = {
  size: 0,
  positions: new Int32Array(0),
  has: () => false,
  sumX: new Float64Array(1),
  sumY: new Float64Array(1),
};

// ---------------------------------------------------------------------------------------------------
// Query results
// ---------------------------------------------------------------------------------------------------

export interface ClusterResult {
  id: string;
  latitude: number;
  longitude: number;
  count: number;
  representative: MapPoint;
  /** Above MAP_MAX_ZOOM when zooming in cannot split it (its posts share one spot). */
  expansionZoom: number;
}

/** Shared between callers asking the same question of the same index: read it, never change it. */
export interface ViewportResult {
  readonly singles: readonly MapPoint[];
  readonly clusters: readonly ClusterResult[];
}

/**
 * Answers kept per index. An index never changes (a changed map is a new index), so an answer stays
 * right for as long as its index serves. Most map views are asked again and again: every visitor opens
 * /explore on the same default view, and panning back returns to rounded viewports already asked. An
 * answer is ~10 KB at most (the clusters; lone points are the index's own objects).
 */
const QUERY_CACHE_SIZE = 500;

interface Cell {
  cx: number;
  cy: number;
  /** Range of positions in the index. */
  from: number;
  to: number;
  count: number;
  sumX: number;
  sumY: number;
  group: number;
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

// ---------------------------------------------------------------------------------------------------
// The index
// ---------------------------------------------------------------------------------------------------

export function indexPoint(point: MapPoint): IndexedPoint {
  const x = lngToX(point.longitude);
  const y = latToY(point.latitude);
  const [cx, cy] = deepestCell(x, y);
  return {
    id: point.id,
    userId: point.userId,
    latitude: point.latitude,
    longitude: point.longitude,
    mediaKey: point.mediaKey,
    createdAt: point.createdAt,
    x,
    y,
    code: morton(cx, cy),
  };
}

/** The index's order: Z-order, then newest first, then id. */
export function comparePoints(a: IndexedPoint, b: IndexedPoint): number {
  return a.code - b.code || b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Where a point is, or would be inserted, in an array sorted by comparePoints. */
export function sortedPosition(sorted: readonly IndexedPoint[], point: IndexedPoint): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comparePoints(sorted[mid]!, point) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * An immutable snapshot over points sorted by comparePoints. Building it is linear (a few typed arrays:
 * milliseconds for 100,000 points), so the store can patch its sorted array and rebuild after every
 * change.
 */
export class MapIndex {
  readonly size: number;
  private readonly points: readonly IndexedPoint[];
  private readonly codes: Float64Array;
  private readonly times: Float64Array;
  private readonly prefixX: Float64Array;
  private readonly prefixY: Float64Array;
  private readonly answers = new LRUCache<string, ViewportResult>({ max: QUERY_CACHE_SIZE });
  /** Exclusions are kept per viewer by the store; a number names each one in the answers' keys. */
  private readonly exclusionIds = new WeakMap<Exclusions, number>();
  private nextExclusionId = 0;

  /** An index of any points (sorts them). */
  static build(points: Iterable<MapPoint>): MapIndex {
    return new MapIndex([...points].map(indexPoint).sort(comparePoints));
  }

  /** `sorted` must be in comparePoints order and is not copied: never change it afterwards. */
  constructor(sorted: readonly IndexedPoint[]) {
    const n = sorted.length;
    this.size = n;
    this.points = sorted;
    this.codes = new Float64Array(n);
    this.times = new Float64Array(n);
    this.prefixX = new Float64Array(n + 1);
    this.prefixY = new Float64Array(n + 1);
    for (let i = 0; i < n; i += 1) {
      const p = sorted[i]!;
      this.codes[i] = p.code;
      this.times[i] = p.createdAt;
      this.prefixX[i + 1] = this.prefixX[i]! + p.x;
      this.prefixY[i + 1] = this.prefixY[i]! + p.y;
    }
  }

  private newer(a: number, b: number): number {
    return this.times[b]! > this.times[a]! ? b : a;
  }

  /** Position of this very point in the index, or -1 when the snapshot does not hold it. */
  positionOf(point: IndexedPoint): number {
    const p = sortedPosition(this.points, point);
    return p < this.size && this.points[p]!.id === point.id ? p : -1;
  }

  /** Positions of the points a viewer must not see (points this snapshot does not hold are skipped). */
  exclusionsFor(points: Iterable<IndexedPoint>): Exclusions {
    const set = new Set<number>();
    for (const point of points) {
      const p = this.positionOf(point);
      if (p >= 0) set.add(p);
    }
    if (set.size === 0) return NO_EXCLUSIONS;
    const positions = Int32Array.from(set).sort();
    const sumX = new Float64Array(positions.length + 1);
    const sumY = new Float64Array(positions.length + 1);
    positions.forEach((p, i) => {
      sumX[i + 1] = sumX[i]! + (this.prefixX[p + 1]! - this.prefixX[p]!);
      sumY[i + 1] = sumY[i]! + (this.prefixY[p + 1]! - this.prefixY[p]!);
    });
    return { size: positions.length, positions, has: (p) => set.has(p), sumX, sumY };
  }

  /** Clusters and lone points in a viewport at an integer zoom, less the viewer's exclusions. */
  query(viewport: MapViewport, exclusions: Exclusions = NO_EXCLUSIONS): ViewportResult {
    const zoom = Math.max(0, Math.min(ZMAX, Math.floor(viewport.zoom)));
    let exclusionId = this.exclusionIds.get(exclusions);
    if (exclusionId === undefined) {
      exclusionId = this.nextExclusionId++;
      this.exclusionIds.set(exclusions, exclusionId);
    }
    const key = `${exclusionId}|${viewport.west}|${viewport.south}|${viewport.east}|${viewport.north}|${zoom}`;
    const known = this.answers.get(key);
    if (known) return known;
    const answer = this.compute(viewport, zoom, exclusions);
    this.answers.set(key, answer);
    return answer;
  }

  private compute(viewport: MapViewport, zoom: number, exclusions: Exclusions): ViewportResult {
    const cells = this.cellsInViewport(viewport, zoom, exclusions);
    const groups = this.mergeNeighbours(cells, zoom);
    const singles: MapPoint[] = [];
    const clusters: ClusterResult[] = [];
    for (const group of groups) {
      const count = group.reduce((sum, c) => sum + c.count, 0);
      if (count === 1) {
        const cell = group[0]!;
        singles.push(this.points[this.firstVisible(cell.from, cell.to, exclusions)]!);
        continue;
      }
      const sumX = group.reduce((sum, c) => sum + c.sumX, 0);
      const sumY = group.reduce((sum, c) => sum + c.sumY, 0);
      const seed = group[0]!;
      let representative = -1;
      for (const cell of group) {
        const newest = this.newestVisible(cell.from, cell.to, exclusions);
        representative = representative < 0 ? newest : this.newer(representative, newest);
      }
      const expansionZoom =
        group.length === 1 ? this.splitZoom(seed, zoom, exclusions) : zoom < ZMAX ? zoom + 1 : ZMAX + 1;
      const cluster: ClusterResult = {
        id: clusterId(zoom, seed.cx, seed.cy),
        latitude: round6(yToLat(sumY / count)),
        longitude: round6(xToLng(sumX / count)),
        count,
        representative: this.points[representative]!,
        expansionZoom,
      };
      clusters.push(cluster);
    }
    return { singles, clusters };
  }

  /** Non-empty cells of the viewport (deduplicated when a wrapped range meets itself). */
  private cellsInViewport(viewport: MapViewport, zoom: number, exclusions: Exclusions): Cell[] {
    const perAxis = cellsPerAxis(zoom);
    const { xRanges, cyFrom, cyTo } = viewportGrid(viewport, zoom);

    const shift = 4 ** (ZMAX - zoom);
    const scale = 2 ** (ZMAX - zoom);
    const seen = new Set<number>();
    const cells: Cell[] = [];
    for (const [cxFrom, cxTo] of xRanges) {
      for (let cx = cxFrom; cx <= cxTo; cx += 1) {
        for (let cy = cyFrom; cy <= cyTo; cy += 1) {
          const key = cx * perAxis + cy;
          if (seen.has(key)) continue;
          seen.add(key);
          // The zoom-z cell's code prefix: Morton of its first deepest cell, divided by 4^k.
          const prefix = morton(cx * scale, cy * scale) / shift;
          const from = lowerBound(this.codes, prefix * shift);
          const to = lowerBound(this.codes, (prefix + 1) * shift, from);
          if (from === to) continue;
          const exFrom = lowerBound(exclusions.positions, from);
          const exTo = lowerBound(exclusions.positions, to, exFrom);
          const count = to - from - (exTo - exFrom);
          if (count === 0) continue;
          cells.push({
            cx,
            cy,
            from,
            to,
            count,
            sumX:
              this.prefixX[to]! - this.prefixX[from]! - (exclusions.sumX[exTo]! - exclusions.sumX[exFrom]!),
            sumY:
              this.prefixY[to]! - this.prefixY[from]! - (exclusions.sumY[exTo]! - exclusions.sumY[exFrom]!),
            group: -1,
          });
        }
      }
    }
    return cells;
  }

  /**
   * Grid cells can put two markers side by side across a cell border. Largest cells first, each takes
   * its direct neighbours whose marker would overlap its own.
   */
  private mergeNeighbours(cells: Cell[], zoom: number): Cell[][] {
    const worldPx = TILE_PX * 2 ** zoom;
    const perAxis = cellsPerAxis(zoom);
    const byKey = new Map<number, Cell>();
    for (const c of cells) byKey.set(c.cx * perAxis + c.cy, c);
    const order = [...cells].sort((a, b) => b.count - a.count || a.cx - b.cx || a.cy - b.cy);
    const groups: Cell[][] = [];
    for (const seed of order) {
      if (seed.group >= 0) continue;
      seed.group = groups.length;
      const group = [seed];
      const sx = seed.sumX / seed.count;
      const sy = seed.sumY / seed.count;
      for (let dx = -1; dx <= 1; dx += 1) {
        for (let dy = -1; dy <= 1; dy += 1) {
          if (dx === 0 && dy === 0) continue;
          const cx = (seed.cx + dx + perAxis) % perAxis;
          const other = byKey.get(cx * perAxis + seed.cy + dy);
          if (!other || other.group >= 0 || seed.cy + dy < 0 || seed.cy + dy >= perAxis) continue;
          let ddx = Math.abs(other.sumX / other.count - sx);
          ddx = Math.min(ddx, 1 - ddx); // across the antimeridian
          const ddy = other.sumY / other.count - sy;
          if (Math.hypot(ddx, ddy) * worldPx < MERGE_DISTANCE_PX) {
            other.group = seed.group;
            group.push(other);
          }
        }
      }
      groups.push(group);
    }
    return groups;
  }

  private firstVisible(from: number, to: number, exclusions: Exclusions): number {
    for (let p = from; p < to; p += 1) if (!exclusions.has(p)) return p;
    return -1;
  }

  private lastVisible(from: number, to: number, exclusions: Exclusions): number {
    for (let p = to - 1; p >= from; p -= 1) if (!exclusions.has(p)) return p;
    return -1;
  }

  /**
   * A scan of the range's creation times: the viewport's cells together hold at most every point once,
   * so a request scans at most n numbers (well under a millisecond for 100,000), and the index needs no
   * per-range structure to rebuild after each change.
   */
  private newestVisible(from: number, to: number, exclusions: Exclusions): number {
    let best = from;
    for (let p = from + 1; p < to; p += 1) if (this.times[p]! > this.times[best]!) best = p;
    if (!exclusions.has(best)) return best;
    let newest = -1;
    for (let p = from; p < to; p += 1)
      if (!exclusions.has(p) && (newest < 0 || this.times[p]! > this.times[newest]!)) newest = p;
    return newest;
  }

  /**
   * The first zoom at which a cell's visible points fall into different cells: since the points are in
   * Z-order, that is when the first and the last one stop sharing a cell. ZMAX + 1 when they never do.
   */
  private splitZoom(cell: Cell, zoom: number, exclusions: Exclusions): number {
    const first = this.codes[this.firstVisible(cell.from, cell.to, exclusions)]!;
    const last = this.codes[this.lastVisible(cell.from, cell.to, exclusions)]!;
    for (let z = zoom + 1; z <= ZMAX; z += 1) {
      const shift = 4 ** (ZMAX - z);
      if (Math.floor(first / shift) !== Math.floor(last / shift)) return z;
    }
    return ZMAX + 1;
  }

  /**
   * The posts of a cluster, newest first: those of the grid cell its id names (a merged cluster's id
   * names its largest cell). null for an id this index could not have produced.
   */
  clusterMembers(id: string, exclusions: Exclusions, limit: number): MapPoint[] | null {
    const cell = parseClusterId(id);
    if (!cell) return null;
    const scale = 2 ** (ZMAX - cell.zoom);
    const shift = 4 ** (ZMAX - cell.zoom);
    const prefix = morton(cell.cx * scale, cell.cy * scale) / shift;
    const from = lowerBound(this.codes, prefix * shift);
    const to = lowerBound(this.codes, (prefix + 1) * shift, from);
    const members: IndexedPoint[] = [];
    for (let p = from; p < to; p += 1) if (!exclusions.has(p)) members.push(this.points[p]!);
    members.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
    return members.slice(0, limit);
  }
}

/**
 * The grid cells a viewport spans at an integer zoom: column ranges (two where it crosses the
 * antimeridian) and rows. More than MAX_VIEWPORT_CELLS is an AreaTooLargeError: a far larger area than
 * any screen shows at that zoom.
 */
function viewportGrid(viewport: MapViewport, zoom: number) {
  const size = cellSize(zoom);
  const perAxis = cellsPerAxis(zoom);
  const cellOf = (v: number) => Math.min(perAxis - 1, Math.max(0, Math.floor(v / size)));
  const xRanges = longitudeRanges(viewport.west, viewport.east).map(
    ([w, e]) => [cellOf(lngToX(w)), cellOf(lngToX(e))] as const,
  );
  const cyFrom = cellOf(latToY(viewport.north));
  const cyTo = cellOf(latToY(viewport.south));
  const total = xRanges.reduce((sum, [a, b]) => sum + (b - a + 1), 0) * (cyTo - cyFrom + 1);
  if (total > MAX_VIEWPORT_CELLS) throw new AreaTooLargeError();
  return { xRanges, cyFrom, cyTo };
}

/**
 * Explore's size limit on its own, for other layers of the same map (issue 26: the missing-cat pins):
 * throws AreaTooLargeError where `query` would.
 */
export function checkViewportSize(viewport: MapViewport): void {
  viewportGrid(viewport, Math.max(0, Math.min(ZMAX, Math.floor(viewport.zoom))));
}

/** Cluster ids name a grid cell: zoom-column-row. Stable while panning at one zoom. */
const clusterId = (zoom: number, cx: number, cy: number) => `${zoom}-${cx}-${cy}`;
const CLUSTER_ID = /^(\d{1,2})-(\d{1,7})-(\d{1,7})$/;

export function parseClusterId(id: string): { zoom: number; cx: number; cy: number } | null {
  const match = CLUSTER_ID.exec(id);
  if (!match) return null;
  const [zoom, cx, cy] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (zoom > ZMAX || cx >= cellsPerAxis(zoom) || cy >= cellsPerAxis(zoom)) return null;
  return { zoom, cx, cy };
}

/**
 * Longitude ranges within -180..180 covering west..east. Leaflet's bounds run past +-180 when the world
 * wraps; a GeoJSON-style box may have west > east when it crosses the antimeridian.
 */
export function longitudeRanges(west: number, east: number): [number, number][] {
  const span = east >= west ? east - west : east + 360 - west;
  if (span >= 360) return [[-180, 180]];
  const from = ((((west + 180) % 360) + 360) % 360) - 180;
  const to = from + span;
  if (to <= 180) return [[from, to]];
  return [
    [from, 180],
    [-180, to - 360],
  ];
}
