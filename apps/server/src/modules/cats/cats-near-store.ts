import { LRUCache } from 'lru-cache';
import type { Database } from '../../db/client.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { sightingPlace } from '../visibility/cat-place.ts';
import type { CatListRow } from './cats-list.repository.ts';
import {
  NOBODY,
  exceptionRows,
  loadStrangerPlaces,
  pruneCatListChanges,
  readCatListChanges,
  readCatListWatermark,
  strangerListRows,
  type ChangeWatermark,
  type StrangerPlaceRow,
  type TimedListRow,
} from './cats-near.repository.ts';
import { StrangerPlaces } from './stranger-places.ts';

/** Change-log rows are pruned after a day; a process that has not read the log for half of that reloads. */
const CHANGE_LOG_KEEP_SECONDS = 24 * 60 * 60;
const STALE_AFTER_MS = 12 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Beyond this many changes one full reload is cheaper than patching. */
const MAX_PATCH = 5000;
/**
 * Viewers whose exceptions are kept (a few hundred rows each, ~100-200 KB), and cats whose page row
 * as a stranger sees it is kept (every cat of cat_places fits).
 */
const VIEWERS_KEPT = 256;
const STRANGER_ROWS_KEPT = 50_000;
const PRELOAD_BATCH = 500;

/** Whom a stranger's place is computed for: nobody's own, shared with nobody, caring for nothing. */
const STRANGER: AuthContext = { userId: NOBODY, isDemo: false };

/** One viewer's exceptions: the cats they see otherwise than a stranger, with their rows for them. */
export interface ViewerExceptions {
  ids: ReadonlySet<string>;
  /** Those the viewer may place, each where they see it (placedAt, computed once: it depends on no point). */
  placed: readonly { row: CatListRow; latitude: number; longitude: number }[];
}

interface Kept<T> {
  value: T;
  /** When a 'Missing' in it ends by itself (an alert's expiry), in ms; Infinity when none. */
  until: number;
}

/**
 * One process's caches for the near list's first page (cats-list.service.ts › nearestCats): the places
 * strangers see of the cats of cat_places (StrangerPlaces), each cat's page row as a stranger sees it,
 * and per viewer the cats they see otherwise (their exceptions) with their rows. As the explore map's
 * store (map-store.ts), each request first reads the change log (migration 0041's triggers, one short
 * query shared by the requests that arrive meanwhile) and patches what changed: a change committed
 * through any instance is seen by the next request on every instance. A change naming a cat drops that
 * cat's place and row; every change drops every viewer's exceptions (rebuilt on their next request:
 * one statement).
 */
export class CatsNearStore {
  private readonly places = new StrangerPlaces();
  private readonly strangerRows = new LRUCache<string, Kept<CatListRow>>({ max: STRANGER_ROWS_KEPT });
  private readonly viewers = new LRUCache<string, Kept<ViewerExceptions>>({ max: VIEWERS_KEPT });
  private readonly building = new Map<string, { generation: number; pending: Promise<ViewerExceptions> }>();
  private watermark: ChangeWatermark = { seq: 0, openXids: [] };
  private loaded = false;
  private readAt = 0;
  private prunedAt = 0;
  /** Counts the changes applied: what was read before one is not kept after it. */
  private generation = 0;
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  /** Brings the caches up to date with every change committed before this call. */
  current(): Promise<void> {
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

  /** The cats of cat_places not skipped nearest `near` as strangers see them (StrangerPlaces.nearest). */
  nearest(near: { latitude: number; longitude: number }, wanted: number, skip: (id: string) => boolean) {
    return this.places.nearest(near, wanted, skip);
  }

  /**
   * The viewer's exceptions, read once per change of anything they depend on. `placedAt` places one of
   * the viewer's rows where they may see it (null: nowhere).
   */
  async exceptionsOf(
    viewerId: string,
    placedAt: (row: CatListRow) => { latitude: number; longitude: number } | null,
  ): Promise<ViewerExceptions> {
    const kept = this.viewers.get(viewerId);
    if (kept && kept.until > this.now()) return kept.value;
    // A read begun before the last change is not shared: it may have missed it.
    const generation = this.generation;
    const building = this.building.get(viewerId);
    let pending = building?.generation === generation ? building.pending : undefined;
    if (!pending) {
      pending = exceptionRows(this.db, viewerId)
        .then((timed) => {
          const value: ViewerExceptions = {
            ids: new Set(timed.map((t) => t.row.id)),
            placed: timed.flatMap(({ row }) => {
              const place = placedAt(row);
              return place ? [{ row, ...place }] : [];
            }),
          };
          if (generation === this.generation) this.viewers.set(viewerId, { value, until: untilOf(timed) });
          return value;
        })
        .finally(() => {
          if (this.building.get(viewerId)?.pending === pending) this.building.delete(viewerId);
        });
      this.building.set(viewerId, { generation, pending });
    }
    return pending;
  }

  /** These cats' page rows as a stranger sees them (absent: merged, removed or gone meanwhile). */
  async strangerRowsOf(catIds: readonly string[]): Promise<Map<string, CatListRow>> {
    const found = new Map<string, CatListRow>();
    const missing: string[] = [];
    const now = this.now();
    for (const id of catIds) {
      const kept = this.strangerRows.get(id);
      if (kept && kept.until > now) found.set(id, kept.value);
      else missing.push(id);
    }
    if (missing.length > 0) {
      const generation = this.generation;
      const read = await strangerListRows(this.db, missing);
      for (const timed of read) {
        found.set(timed.row.id, timed.row);
        if (generation === this.generation) {
          this.strangerRows.set(timed.row.id, { value: timed.row, until: untilOf([timed]) });
        }
      }
    }
    return found;
  }

  private async refresh(): Promise<void> {
    if (!this.loaded || this.now() - this.readAt > STALE_AFTER_MS) return this.reload();
    const { openXids, changes } = await readCatListChanges(this.db, this.watermark, MAX_PATCH + 1);
    this.readAt = this.now();
    if (changes.length > MAX_PATCH) return this.reload();
    if (changes.length > 0) {
      this.generation++;
      this.viewers.clear();
      const catIds = [...new Set(changes.flatMap((c) => (c.catId ? [c.catId] : [])))];
      for (const id of catIds) this.strangerRows.delete(id);
      if (catIds.length > 0) {
        // Read after the log: at least as fresh as the changes it named.
        const rows = new Map((await loadStrangerPlaces(this.db, catIds)).map((r) => [r.catId, r]));
        for (const id of catIds) {
          const row = rows.get(id);
          this.places.set(id, row ? strangerPlace(row) : null);
        }
      }
    }
    this.watermark = { seq: Math.max(this.watermark.seq, ...changes.map((c) => c.seq)), openXids };
    await this.maybePrune();
  }

  private async reload(): Promise<void> {
    const watermark = await readCatListWatermark(this.db);
    const rows = await loadStrangerPlaces(this.db);
    this.generation++;
    this.places.clear();
    for (const row of rows) this.places.set(row.catId, strangerPlace(row));
    this.strangerRows.clear();
    this.viewers.clear();
    this.watermark = watermark;
    this.loaded = true;
    this.readAt = this.now();
    await this.maybePrune();
    // Every cat's page row, in the background: without them a page's cats are read on its request.
    void this.preloadRows(rows.map((r) => r.catId)).catch(() => undefined);
  }

  /** Reads these cats' page rows in batches (an embedded database answers others in between). */
  private async preloadRows(catIds: readonly string[]): Promise<void> {
    for (let i = 0; i < catIds.length; i += PRELOAD_BATCH) {
      await this.strangerRowsOf(catIds.slice(i, i + PRELOAD_BATCH));
    }
  }

  private async maybePrune(): Promise<void> {
    if (this.now() - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = this.now();
    await pruneCatListChanges(this.db, CHANGE_LOG_KEEP_SECONDS);
  }
}

/** Where a stranger sees a cat of cat_places (cat-place.ts), or null where they see it nowhere. */
function strangerPlace(row: StrangerPlaceRow): { latitude: number; longitude: number } | null {
  const place = sightingPlace(STRANGER, row, false, {
    userId: row.userId,
    latitude: row.latitude,
    longitude: row.longitude,
    showLocation: true,
    exactPublicLocation: row.exactPublicLocation,
    sharedWithViewer: false,
    // cat_places holds only sightings kept from nobody (its triggers weigh the author).
    authorCaresForCat: null,
  });
  return place.latitude === null || place.longitude === null
    ? null
    : { latitude: place.latitude, longitude: place.longitude };
}

/** When the first 'Missing' among these rows ends by itself; Infinity when none will. */
function untilOf(timed: readonly TimedListRow[]): number {
  let until = Number.POSITIVE_INFINITY;
  for (const t of timed) {
    if (t.row.missing && t.missingUntil) until = Math.min(until, t.missingUntil.getTime());
  }
  return until;
}
