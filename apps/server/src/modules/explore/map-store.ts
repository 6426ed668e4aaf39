import { LRUCache } from 'lru-cache';
import type { Database } from '../../db/client.ts';
import { approximateLocation } from '../location/location-grid.ts';
import {
  exactLocationUserIds,
  loadMapLayerPage,
  loadMapPoints,
  pruneMapChanges,
  readMapChanges,
  readWatermark,
  type ChangeWatermark,
  type MapPointRow,
} from './explore.repository.ts';
import {
  MapIndex,
  comparePoints,
  indexPoint,
  sortedPosition,
  type Exclusions,
  type IndexedPoint,
  type MapPoint,
} from './map-index.ts';

/** Change-log rows are pruned after a day... */
const CHANGE_LOG_KEEP_SECONDS = 24 * 60 * 60;
/** ...so a process that has not read the log for half of that reloads everything instead. */
const STALE_AFTER_MS = 12 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Beyond this many changed posts one full reload is cheaper than patching. */
const MAX_PATCH = 5000;
const LOAD_PAGE = 25_000;
/**
 * Viewers whose exclusions are kept for the current index. Computing them is a tenth of an explore
 * request's CPU (a blocked user brings every post of theirs), and a viewer panning the map asks for the
 * same ones again and again. Entries are a few KB; the cache empties whenever the index changes.
 */
const EXCLUSIONS_CACHE_SIZE = 500;

/** The position everyone but the owner sees: all the shared index ever holds. */
export function publicPoint(row: MapPointRow): MapPoint {
  const position = row.exactPublicLocation
    ? { latitude: row.latitude, longitude: row.longitude }
    : approximateLocation(row.latitude, row.longitude);
  return { id: row.id, userId: row.userId, mediaKey: row.mediaKey, createdAt: row.createdAt, ...position };
}

/**
 * One process's copy of the public map layer. Each request first reads the change log (one small
 * query) and patches the posts that changed, so posts appear and disappear at once, in every process,
 * without reloading 100,000 rows; the index is rebuilt from the patched sorted array (no sorting).
 * Concurrent requests share one refresh.
 */
export class MapStore {
  private byId = new Map<string, IndexedPoint>();
  private byUser = new Map<string, Set<IndexedPoint>>();
  private sorted: IndexedPoint[] = [];
  private index: MapIndex | null = null;
  private watermark: ChangeWatermark = { seq: 0, openXids: [] };
  private readAt = 0;
  private prunedAt = 0;
  private running: Promise<MapIndex> | null = null;
  private queued: Promise<MapIndex> | null = null;
  private exclusionsIndex: MapIndex | null = null;
  private readonly exclusionsCache = new LRUCache<string, Exclusions>({ max: EXCLUSIONS_CACHE_SIZE });

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  /** The index, up to date with every change committed before this call. */
  current(): Promise<MapIndex> {
    if (!this.running) {
      this.running = this.refresh().finally(() => {
        this.running = null;
      });
      return this.running;
    }
    // The running refresh may have read the log before the caller's own change: everyone who arrives
    // meanwhile shares the next one.
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.current();
      });
    return this.queued;
  }

  /**
   * A viewer's hidden posts and blocked users as positions in `index`. Call it in the same synchronous
   * step as the query; points the snapshot does not hold are skipped.
   */
  exclusions(
    index: MapIndex,
    hiddenPostIds: readonly string[],
    blockedUserIds: readonly string[],
  ): Exclusions {
    if (hiddenPostIds.length === 0 && blockedUserIds.length === 0) return index.exclusionsFor([]);
    if (this.exclusionsIndex !== index) {
      this.exclusionsCache.clear();
      this.exclusionsIndex = index;
    }
    const key = `${hiddenPostIds.join(',')}|${blockedUserIds.join(',')}`;
    const cached = this.exclusionsCache.get(key);
    if (cached) return cached;
    const computed = this.computeExclusions(index, hiddenPostIds, blockedUserIds);
    this.exclusionsCache.set(key, computed);
    return computed;
  }

  private computeExclusions(
    index: MapIndex,
    hiddenPostIds: readonly string[],
    blockedUserIds: readonly string[],
  ): Exclusions {
    const points: IndexedPoint[] = [];
    for (const id of hiddenPostIds) {
      const point = this.byId.get(id);
      if (point) points.push(point);
    }
    for (const userId of blockedUserIds) points.push(...(this.byUser.get(userId) ?? []));
    return index.exclusionsFor(points);
  }

  private async refresh(): Promise<MapIndex> {
    if (!this.index || this.now() - this.readAt > STALE_AFTER_MS) return this.reload();
    const { openXids, changes } = await readMapChanges(this.db, this.watermark, MAX_PATCH + 1);
    this.readAt = this.now();
    if (changes.length > MAX_PATCH) return this.reload();
    if (changes.length > 0) {
      const ids = [...new Set(changes.map((c) => c.postId))];
      this.patch(ids, await loadMapPoints(this.db, ids));
    }
    this.watermark = {
      seq: Math.max(this.watermark.seq, ...changes.map((c) => c.seq)),
      openXids,
    };
    await this.maybePrune();
    return this.index!;
  }

  /** Replaces the given posts by their current rows (absent: no longer on the map). */
  private patch(ids: readonly string[], rows: readonly MapPointRow[]): void {
    const current = new Map(rows.map((r) => [r.id, indexPoint(publicPoint(r))]));
    // Copy on write: the previous index keeps its array.
    const sorted = this.sorted.slice();
    for (const id of ids) {
      const old = this.byId.get(id);
      if (old) {
        const at = sortedPosition(sorted, old);
        if (sorted[at] === old) sorted.splice(at, 1);
        this.forget(old);
      }
      const point = current.get(id);
      if (point) {
        sorted.splice(sortedPosition(sorted, point), 0, point);
        this.remember(point);
      }
    }
    this.sorted = sorted;
    this.index = new MapIndex(sorted);
  }

  private async reload(): Promise<MapIndex> {
    const watermark = await readWatermark(this.db);
    const exact = await exactLocationUserIds(this.db);
    const points: IndexedPoint[] = [];
    for (let after: string | null = null; ;) {
      const page = await loadMapLayerPage(this.db, after, LOAD_PAGE);
      for (const row of page) {
        points.push(indexPoint(publicPoint({ ...row, exactPublicLocation: exact.has(row.userId) })));
      }
      if (page.length < LOAD_PAGE) break;
      after = page.at(-1)!.id;
    }
    this.byId = new Map();
    this.byUser = new Map();
    const sorted = points.sort(comparePoints);
    for (const point of sorted) this.remember(point);
    this.sorted = sorted;
    this.index = new MapIndex(sorted);
    this.watermark = watermark;
    this.readAt = this.now();
    await this.maybePrune();
    return this.index;
  }

  private remember(point: IndexedPoint): void {
    this.byId.set(point.id, point);
    const own = this.byUser.get(point.userId);
    if (own) own.add(point);
    else this.byUser.set(point.userId, new Set([point]));
  }

  private forget(point: IndexedPoint): void {
    this.byId.delete(point.id);
    const own = this.byUser.get(point.userId);
    own?.delete(point);
    if (own?.size === 0) this.byUser.delete(point.userId);
  }

  private async maybePrune(): Promise<void> {
    if (this.now() - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = this.now();
    await pruneMapChanges(this.db, CHANGE_LOG_KEEP_SECONDS);
  }
}
