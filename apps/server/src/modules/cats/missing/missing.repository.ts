import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { preparedSql } from '../../../db/prepared.ts';
import { rowsOf, toBoolean, toDate, type RawRow } from '../../../db/raw-results.ts';
import { missingAlerts, type MissingAlertRow } from '../../../db/schema/index.ts';
import { nearBox } from '../../location/near-box.ts';
import { alertShownTo } from '../../visibility/alert-visibility.ts';
import { coverFromColumns, type CoverRow } from '../cover-row.ts';
import { sightingVisibleTo } from '../sighting-visibility.ts';

/**
 * SQL of missing-cat alerts (issue 26; what neighbours report: missing-reports.repository.ts). Places
 * leave here raw, exact and as the cell (area_*): the service decides which one a viewer is shown. An alert is shown while it is open
 * (ended_at null) and not expired (expires_at in the future), and to nobody who shares a block with the
 * caretaker who raised it.
 */

export type NewAlert = typeof missingAlerts.$inferInsert;

/**
 * Serialises the alert changes of one account (raising, renewing a lapsed one): the count of its open
 * alerts and the insert that follows it happen as one, so two requests at once cannot make a fourth.
 */
export async function lockAccountAlerts(tx: Executor, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`missing-alerts:${userId}`}, 0))`);
}

/** The cat's open alert (shown or lapsed), or null. `lock`: FOR UPDATE. */
export async function openAlertOfCat(
  db: Executor,
  catId: string,
  lock = false,
): Promise<MissingAlertRow | null> {
  const query = db
    .select()
    .from(missingAlerts)
    .where(and(eq(missingAlerts.catId, catId), isNull(missingAlerts.endedAt)));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/** The cat's newest alert, open or ended (its reports are the ones its caretakers see). */
export async function latestAlertOfCat(db: Executor, catId: string): Promise<MissingAlertRow | null> {
  const [row] = await db
    .select()
    .from(missingAlerts)
    .where(eq(missingAlerts.catId, catId))
    .orderBy(desc(missingAlerts.createdAt))
    .limit(1);
  return row ?? null;
}

/** Open, unexpired alerts raised by the account, but `except`. */
export async function countActiveAlertsRaisedBy(
  db: Executor,
  userId: string,
  except: string | null = null,
): Promise<number> {
  const [row] = rowsOf(
    await db.execute(sql`select count(*)::int as n from ${missingAlerts}
      where raised_by = ${userId} and ended_at is null and expires_at > now()
        ${except ? sql`and id <> ${except}` : sql``}`),
  );
  return Number(row?.n ?? 0);
}

/**
 * Alerts the account raised in the last 24 hours, ended ones included (missing_alerts_raised_by_idx),
 * and the seconds until the oldest of them leaves that day.
 */
export async function alertsRaisedToday(
  db: Executor,
  userId: string,
): Promise<{ count: number; secondsToWait: number }> {
  const [row] = rowsOf(
    await db.execute(sql`select count(*)::int as n,
        coalesce(ceil(extract(epoch from (min(created_at) + interval '1 day' - now()))), 0)::int as wait
      from ${missingAlerts}
      where raised_by = ${userId} and created_at > now() - interval '1 day'`),
  );
  return { count: Number(row?.n ?? 0), secondsToWait: Number(row?.wait ?? 0) };
}

export async function insertAlert(db: Executor, values: NewAlert): Promise<MissingAlertRow> {
  const [row] = await db.insert(missingAlerts).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Ends an open alert: 'found' (by a caretaker: the found trigger tells people) or 'lapsed'. */
export async function endAlert(
  db: Executor,
  alertId: string,
  reason: 'found' | 'lapsed',
  by: string | null,
): Promise<void> {
  await db
    .update(missingAlerts)
    .set({ endedAt: sql`now()`, endReason: reason, endedBy: by })
    .where(and(eq(missingAlerts.id, alertId), isNull(missingAlerts.endedAt)));
}

/** The alert runs `days` from now (never shorter than it already runs). */
export async function renewAlert(db: Executor, alertId: string, days: number): Promise<MissingAlertRow> {
  const [row] = await db
    .update(missingAlerts)
    .set({
      expiresAt: sql`greatest(${missingAlerts.expiresAt}, now() + make_interval(days => ${days}))`,
    })
    .where(eq(missingAlerts.id, alertId))
    .returning();
  if (!row) throw new Error('update returned no row');
  return row;
}

/**
 * An alert as shown, with its cat's name and whether the viewer cares for it (never one whose raiser
 * is suspended or whose cat is removed: alertShownTo leaves those out).
 */
export interface AlertRow extends Omit<MissingAlertRow, 'raiserSuspended' | 'catRemoved'> {
  catName: string;
  viewerIsCaretaker: boolean;
}

/** What every shown alert is read with (AlertRow): `viewerId` a value, or a prepared statement's placeholder. */
const alertColumns = (viewerId: string | ReturnType<typeof sql.placeholder>) => sql`
  a.id, a.cat_id, a.raised_by, a.last_seen_at, a.latitude, a.longitude, a.area_latitude,
  a.area_longitude, a.note, a.contact, a.created_at, a.expires_at, a.ended_at, a.ended_by, a.end_reason,
  c.name as cat_name,
  exists (select 1 from cat_caretakers cc where cc.cat_id = a.cat_id and cc.user_id = ${viewerId}) as viewer_is_caretaker`;

function toAlertRow(r: RawRow): AlertRow {
  return {
    id: String(r.id),
    catId: String(r.cat_id),
    raisedBy: r.raised_by === null ? null : String(r.raised_by),
    lastSeenAt: toDate(r.last_seen_at),
    latitude: Number(r.latitude),
    longitude: Number(r.longitude),
    areaLatitude: Number(r.area_latitude),
    areaLongitude: Number(r.area_longitude),
    note: String(r.note),
    contact: String(r.contact),
    createdAt: toDate(r.created_at),
    expiresAt: toDate(r.expires_at),
    endedAt: r.ended_at === null ? null : toDate(r.ended_at),
    endedBy: r.ended_by === null ? null : String(r.ended_by),
    endReason: r.end_reason === null ? null : String(r.end_reason),
    catName: String(r.cat_name),
    viewerIsCaretaker: toBoolean(r.viewer_is_caretaker),
  };
}

/** The cat's alert as the viewer may see it, or null. */
export async function shownAlertOfCat(
  db: Executor,
  catId: string,
  viewerId: string,
): Promise<AlertRow | null> {
  const [row] = rowsOf(
    await db.execute(sql`select ${alertColumns(viewerId)}
      from missing_alerts a join cats c on c.id = a.cat_id
      where a.cat_id = ${catId} and ${alertShownTo(viewerId)}`),
  );
  return row ? toAlertRow(row) : null;
}

/**
 * The cat's picture for the viewer, on a row with `c` (cats): its chosen cover where they may see it,
 * else their newest sighting of it (posts_cat_timeline_idx); the second is only looked for without the
 * first (coalesce evaluates lazily). A post id, or null.
 */
const coverIdOf = (viewerId: unknown) => sql`coalesce(
  (select v.id from posts v where v.id = c.cover_post_id and v.cat_id = c.id and ${sightingVisibleTo(viewerId, 'v', 'c')}),
  (select v.id from posts v where v.cat_id = c.id and ${sightingVisibleTo(viewerId, 'v', 'c')}
    order by v.created_at desc nulls last, v.id desc nulls last limit 1))`;

/** An alert with all its list shows: its cat's picture and the raiser (a block leaves out the alert). */
export interface AlertViewRow extends AlertRow {
  cover: CoverRow | null;
  raiser: UserRowLike | null;
}

const viewer = sql.placeholder('viewerId');
const distanceFrom = sql`metres_between(a.area_latitude, a.area_longitude, ${sql.placeholder('lat')}::float8, ${sql.placeholder('lng')}::float8)`;

/**
 * What both lists read of each alert they found (CTE `found`, with its `distance`): the alert, its
 * cat's name, whether the viewer cares for it, the cat's picture and the raiser; by distance, then id.
 * `extra` puts more columns first (each followed by a comma). `found` holds whole alerts, or (`ids`)
 * only their ids and distances, the alerts then read again by primary key: the near list's box holds
 * every alert within 2 km (counted, sorted) for the few it shows; the map's shows most of what it reads,
 * and a join of up to 51 ids back to the table would be a scan of it where alerts are few.
 */
const FOUND = {
  alerts: { from: sql`found a`, order: sql`a.distance, a.id` },
  ids: { from: sql`found f join missing_alerts a on a.id = f.id`, order: sql`f.distance, f.id` },
} as const;

const viewOfFound = (
  found: keyof typeof FOUND,
  extra: SQL = sql``,
) => sql`select ${extra} ${alertColumns(viewer)},
      p.id as cover_id, p.media_key as cover_media_key, p.width as cover_width, p.height as cover_height,
      p.placeholder as cover_placeholder, p.alt_text as cover_alt_text,
      u.username as raiser_username, u.profile_pic_key as raiser_pic
    from ${FOUND[found].from}
    join cats c on c.id = a.cat_id
    left join posts p on p.id = ${coverIdOf(viewer)}
    left join users u on u.id = a.raised_by
    order by ${FOUND[found].order}`;

/**
 * The near list in one statement, prepared (it runs on every feed visit): shown alerts whose
 * last-seen CELL lies within `metres` of the point, nearest first, the first `limit` with each cat's
 * picture and the raiser, and how many there are in all (`total` on every row). Counting costs little;
 * the pictures are what cost (two visibility checks per cat), so the feed's banner asks for the three
 * it shows. The cell, not the exact place: which alerts a point finds, and in which order, must tell
 * no more than the cells the answer shows (moving `near` about would otherwise trace the exact place).
 * The box (one or two ranges of longitude) reads missing_alerts_open_area_idx; the distance is
 * checked exactly after it (bench/missing-near.ts).
 */
const alertsNearStatement = preparedSql(
  'missing_alerts_near',
  sql`with near as (
      select a.id, ${distanceFrom} as distance from missing_alerts a
      where a.ended_at is null
        and a.area_latitude between ${sql.placeholder('south')}::float8 and ${sql.placeholder('north')}::float8
        and (a.area_longitude between ${sql.placeholder('west1')}::float8 and ${sql.placeholder('east1')}::float8
          or a.area_longitude between ${sql.placeholder('west2')}::float8 and ${sql.placeholder('east2')}::float8)
        and ${distanceFrom} <= ${sql.placeholder('metres')}::float8
        and ${alertShownTo(viewer)}
    ),
    found as (select * from near order by distance, id limit ${sql.placeholder('limit')})
    ${viewOfFound('ids', sql`(select count(*) from near)::int as total,`)}`,
);

/**
 * Explore's pins for one viewport (issue 26), prepared as the near list is: shown alerts (alertShownTo)
 * whose last-seen CELL lies in the box, those whose cell is nearest the viewport's centre first. Box,
 * order and limit all go by the cell, never the exact place: moving the viewport's edges or centre
 * about must tell a probe no more than the cells the answer shows. The box reads
 * missing_alerts_open_area_idx as the near list's does.
 */
const alertsInBoxStatement = preparedSql(
  'missing_alerts_in_box',
  sql`with found as (
      select a.*, ${distanceFrom} as distance from missing_alerts a
      where a.area_latitude between ${sql.placeholder('south')}::float8 and ${sql.placeholder('north')}::float8
        and (a.area_longitude between ${sql.placeholder('west1')}::float8 and ${sql.placeholder('east1')}::float8
          or a.area_longitude between ${sql.placeholder('west2')}::float8 and ${sql.placeholder('east2')}::float8)
        and ${alertShownTo(viewer)}
      order by distance, a.id
      limit ${sql.placeholder('limit')}
    )
    ${viewOfFound('alerts')}`,
);

function toAlertViewRow(r: RawRow): AlertViewRow {
  return {
    ...toAlertRow(r),
    cover: coverFromColumns(r),
    raiser:
      r.raised_by === null
        ? null
        : {
            id: String(r.raised_by),
            username: String(r.raiser_username),
            profilePicKey: r.raiser_pic === null ? null : String(r.raiser_pic),
          },
  };
}

export async function shownAlertsNear(
  db: Executor,
  viewerId: string,
  point: { latitude: number; longitude: number },
  metres: number,
  limit: number,
): Promise<{ rows: AlertViewRow[]; total: number }> {
  const box = nearBox(point.latitude, point.longitude, metres);
  // A second range that matches nothing when the box needs only one.
  const [first, second = [1, 0]] = box.longitudes;
  const rows = rowsOf(
    await alertsNearStatement(db).execute({
      viewerId,
      lat: point.latitude,
      lng: point.longitude,
      south: box.south,
      north: box.north,
      west1: first![0],
      east1: first![1],
      west2: second[0],
      east2: second[1],
      metres,
      limit,
    }),
  );
  return { rows: rows.map(toAlertViewRow), total: rows.length === 0 ? 0 : Number(rows[0]!.total) };
}

/**
 * Shown alerts whose last-seen cell lies in the box (`longitudes`: one range within -180..180, or two
 * across the antimeridian), nearest `centre` first (by the cell), at most `limit`.
 */
export async function shownAlertsInBox(
  db: Executor,
  viewerId: string,
  box: { south: number; north: number; longitudes: readonly (readonly [number, number])[] },
  centre: { latitude: number; longitude: number },
  limit: number,
): Promise<AlertViewRow[]> {
  // A second range that matches nothing when the box needs only one.
  const [first, second = [1, 0]] = box.longitudes;
  const rows = rowsOf(
    await alertsInBoxStatement(db).execute({
      viewerId,
      lat: centre.latitude,
      lng: centre.longitude,
      south: box.south,
      north: box.north,
      west1: first![0],
      east1: first![1],
      west2: second[0],
      east2: second[1],
      limit,
    }),
  );
  return rows.map(toAlertViewRow);
}

/**
 * The viewer's area, raw: the home area chosen in Settings (a cell centre), else where their newest
 * live located post was taken (their own: exact; the caller takes its cell). One prepared statement;
 * the posts are read only without a home area (posts_user_feed_idx).
 */
const areaStatement = preparedSql(
  'missing_viewer_area',
  sql`select u.home_area_latitude as home_lat, u.home_area_longitude as home_lng,
      p.latitude as post_lat, p.longitude as post_lng
    from users u
    left join lateral (
      select x.latitude, x.longitude from posts x
      where u.home_area_latitude is null and x.user_id = u.id and x.deleted_at is null and x.latitude is not null
      order by x.created_at desc, x.id desc limit 1
    ) p on true
    where u.id = ${viewer}`,
);

export async function viewerArea(
  db: Executor,
  viewerId: string,
): Promise<{
  home: { latitude: number; longitude: number } | null;
  post: { latitude: number; longitude: number } | null;
}> {
  const [row] = rowsOf(await areaStatement(db).execute({ viewerId }));
  const pair = (lat: unknown, lng: unknown) =>
    lat === null || lat === undefined || lng === null || lng === undefined
      ? null
      : { latitude: Number(lat), longitude: Number(lng) };
  return { home: pair(row?.home_lat, row?.home_lng), post: pair(row?.post_lat, row?.post_lng) };
}

/** Each cat's picture for the viewer (coverIdOf); cats with none are absent. */
export async function coversFor(
  db: Executor,
  catIds: readonly string[],
  viewerId: string,
): Promise<Map<string, CoverRow>> {
  if (catIds.length === 0) return new Map();
  const rows = rowsOf(
    await db.execute(sql`select c.id as cat_id, p.id, p.media_key, p.width, p.height, p.placeholder, p.alt_text
      from cats c join posts p on p.id = ${coverIdOf(viewerId)}
      where c.id = any(${sql.param([...catIds])}::uuid[])`),
  );
  return new Map(
    rows.map((r) => [
      String(r.cat_id),
      {
        postId: String(r.id),
        mediaKey: String(r.media_key),
        width: Number(r.width),
        height: Number(r.height),
        placeholder: String(r.placeholder),
        altText: r.alt_text === null || r.alt_text === undefined ? null : String(r.alt_text),
      },
    ]),
  );
}

export interface UserRowLike {
  id: string;
  username: string;
  profilePicKey: string | null;
}
