import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedSql } from '../../db/prepared.ts';
import { rowsOf, toBoolean, toDate, type RawRow } from '../../db/raw-results.ts';
import { usersBlockedWith } from '../visibility/visibility.ts';
import {
  catsWithNewestSighting,
  toListRow,
  withCoverAndMissing,
  type CatListRow,
} from './cats-list.repository.ts';
import { catsSeenOtherwiseBy } from './cats-nearest.repository.ts';
import { alertShownTo } from '../visibility/alert-visibility.ts';

/**
 * SQL of the near list's per-process caches (cats-near-store.ts): the change log that keeps them fresh
 * in every process, cat_places as strangers see it, the page rows of cats as a stranger sees them, and
 * one viewer's exceptions with their rows as that viewer sees them.
 */

/** Nobody's id: the stranger every statement below reads for, where the viewer is not the point. */
export const NOBODY = '00000000-0000-0000-0000-000000000000';

/** A position in cat_list_changes: its highest sequence number read, and the transactions then open. */
export interface ChangeWatermark {
  seq: number;
  openXids: number[];
}

const OPEN_XIDS = sql`array(select x::text::bigint from pg_snapshot_xip(pg_current_snapshot()) x)`;
const toNumbers = (value: unknown): number[] => (Array.isArray(value) ? value.map(Number) : []);

/** The log's current position: read it before loading, so that every later change is read after. */
export async function readCatListWatermark(db: Executor): Promise<ChangeWatermark> {
  const [row] = rowsOf(
    await db.execute(
      sql`select coalesce((select max(seq) from cat_list_changes), 0) as seq, ${OPEN_XIDS} as open`,
    ),
  );
  return { seq: Number(row!.seq), openXids: toNumbers(row!.open) };
}

/**
 * The changes after the watermark (and those of transactions open when it was read, which may have
 * committed since with lower numbers), at most `limit`, with the transactions open now. Asked before
 * every near list's first page: on the log's index, one short read (no rows, mostly).
 */
export async function readCatListChanges(
  db: Executor,
  since: ChangeWatermark,
  limit: number,
): Promise<{ openXids: number[]; changes: { seq: number; catId: string | null }[] }> {
  const [row] = rowsOf(
    await changesStatement(db).execute({
      seq: since.seq,
      open: `{${since.openXids.join(',')}}`,
      limit,
    }),
  );
  const raw = (typeof row!.changes === 'string' ? JSON.parse(row!.changes) : row!.changes) as [
    number,
    string | null,
  ][];
  return {
    openXids: toNumbers(row!.open),
    changes: raw.map(([seq, catId]) => ({ seq: Number(seq), catId })),
  };
}
const changesStatement = preparedSql(
  'cat_list_changes_since',
  sql`select ${OPEN_XIDS} as open,
    coalesce((select json_agg(json_build_array(c.seq, c.cat_id) order by c.seq)
      from (select seq, cat_id from cat_list_changes
        where seq > ${sql.placeholder('seq')}::bigint or xid = any(${sql.placeholder('open')}::bigint[])
        order by seq limit ${sql.placeholder('limit')}::int) c), '[]') as changes`,
);

export async function pruneCatListChanges(db: Executor, olderThanSeconds: number): Promise<void> {
  await db.execute(
    sql`delete from cat_list_changes where changed_at < now() - make_interval(secs => ${olderThanSeconds})`,
  );
}

/** A cat of cat_places, listed (not merged, not removed), with what places it for a stranger. */
export interface StrangerPlaceRow {
  catId: string;
  userId: string;
  latitude: number;
  longitude: number;
  exactPublicLocation: boolean;
  living: string;
  homeLatitude: number | null;
  homeLongitude: number | null;
}

/** Every listed cat of cat_places, or those of `catIds` (absent: no longer placed or listed). */
export async function loadStrangerPlaces(
  db: Executor,
  catIds?: readonly string[],
): Promise<StrangerPlaceRow[]> {
  const only = catIds ? sql`and cp.cat_id = any(${`{${catIds.join(',')}}`}::uuid[])` : sql``;
  const rows = rowsOf(
    await db.execute(sql`select cp.cat_id, cp.user_id, cp.latitude, cp.longitude, u.exact_public_location,
        c.living, c.home_latitude, c.home_longitude
      from cat_places cp join cats c on c.id = cp.cat_id join users u on u.id = cp.user_id
      where c.merged_into is null and c.removed_at is null ${only}`),
  );
  const numberOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return rows.map((r) => ({
    catId: String(r.cat_id),
    userId: String(r.user_id),
    latitude: Number(r.latitude),
    longitude: Number(r.longitude),
    exactPublicLocation: toBoolean(r.exact_public_location),
    living: String(r.living),
    homeLatitude: numberOrNull(r.home_latitude),
    homeLongitude: numberOrNull(r.home_longitude),
  }));
}

/** A list row with when its 'Missing' ends by itself (the last shown alert's expiry), or null. */
export interface TimedListRow {
  row: CatListRow;
  missingUntil: Date | null;
}

function toTimedRow(r: RawRow): TimedListRow {
  return {
    row: toListRow(r),
    missingUntil: r.missing_until === null || r.missing_until === undefined ? null : toDate(r.missing_until),
  };
}

const missingUntil = (viewerId: unknown) =>
  sql`(select max(a.expires_at) from missing_alerts a where a.cat_id = w.id and ${alertShownTo(viewerId)})`;

/**
 * These cats as a stranger sees them in the lists (rank 0): their newest sighting anyone may see, the
 * chosen cover where anyone may see it, and whether anyone is shown an alert. Merged and removed cats
 * are absent.
 */
export async function strangerListRows(db: Executor, catIds: readonly string[]): Promise<TimedListRow[]> {
  if (catIds.length === 0) return [];
  return rowsOf(await strangerRowsStatement(db).execute({ ids: `{${catIds.join(',')}}` })).map(toTimedRow);
}
const nobody = sql`${NOBODY}::uuid`;
const strangerRowsStatement = preparedSql(
  'cats_stranger_rows',
  sql`select w.*, ${missingUntil(nobody)} as missing_until from (${withCoverAndMissing(
    sql`${catsWithNewestSighting(nobody, sql`0`)}
      where c.id = any(${sql.placeholder('ids')}::uuid[]) and c.merged_into is null and c.removed_at is null`,
    nobody,
  )}) w`,
);

/**
 * The cats this viewer may see otherwise than a stranger, each as every list reads it for them (rank 0):
 * the near list's exceptions, which it places the long way (cats-list.service.ts › nearestCats). Besides
 * catsSeenOtherwiseBy's four kinds, the cats whose place in cat_places is shared with one of the
 * viewer's groups (they see its spot exactly) and those with an alert raised by someone the viewer
 * shares a block with (not 'Missing' for them): everything else of a cat the viewer sees as a stranger
 * does. Merged and removed cats are absent (never listed).
 */
export async function exceptionRows(db: Executor, viewerId: string): Promise<TimedListRow[]> {
  return rowsOf(await exceptionRowsStatement(db).execute({ viewerId })).map(toTimedRow);
}
const viewer = sql`${sql.placeholder('viewerId')}::uuid`;
const exceptionRowsStatement = preparedSql(
  'cats_near_exception_rows',
  sql`select w.*, ${missingUntil(viewer)} as missing_until from (${withCoverAndMissing(
    sql`${catsWithNewestSighting(viewer, sql`0`)}
      where c.id in (${catsSeenOtherwiseBy(viewer)}
          union select gcp.cat_id from cat_places gcp
            join post_groups gpg on gpg.post_id = gcp.post_id
            join group_members ggm on ggm.group_id = gpg.group_id and ggm.user_id = ${viewer}
          union select ba.cat_id from missing_alerts ba
            where ba.ended_at is null and ba.raised_by in (${usersBlockedWith(viewer)}))
        and c.merged_into is null and c.removed_at is null`,
    viewer,
  )}) w`,
);
