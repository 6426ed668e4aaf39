import { eq, sql } from 'drizzle-orm';
import { isUuid } from '@cats/contracts';
import type { Executor } from '../../db/client.ts';
import { preparedPerDatabase, preparedSql } from '../../db/prepared.ts';
import { rowsOf, type RawRow } from '../../db/raw-results.ts';
import { posts, users } from '../../db/schema/index.ts';
import { postShownToAll, sharedWithMember } from '../visibility/visibility.ts';

/** A post on the public map, with its exact position and the owner's precision choice. */
export interface MapPointRow {
  id: string;
  userId: string;
  latitude: number;
  longitude: number;
  exactPublicLocation: boolean;
  mediaKey: string;
  createdAt: number;
}

/**
 * A reader's position in the change log: every row with a higher sequence number is new, and so are
 * the rows of the transactions that were still open when it looked (they took their numbers earlier
 * but were not visible yet). Typically a handful of open writers.
 */
export interface ChangeWatermark {
  seq: number;
  openXids: number[];
}

export interface MapChange {
  seq: number;
  postId: string;
}

const toPoint = (r: RawRow): MapPointRow => ({
  id: String(r.id),
  userId: String(r.user_id),
  latitude: Number(r.latitude),
  longitude: Number(r.longitude),
  exactPublicLocation: r.exact_public_location === true,
  mediaKey: String(r.media_key),
  createdAt: Number(r.created_ms),
});

const POINT_COLUMNS = sql`p.id, p.user_id, p.latitude, p.longitude, u.exact_public_location, p.media_key,
  extract(epoch from p.created_at) * 1000 as created_ms`;
/**
 * The explore layer: live posts with the location switch on and valid coordinates (posts_map_idx),
 * shown to everyone by moderation (issue 27). The layer is one public index shared by every viewer, so a
 * post pending review or by a suspended author is off it for its author too (their profile and the
 * post's page still show it to them); migration 0025 logs the change when either is set or cleared.
 */
const ON_MAP = sql`p.show_location and p.latitude is not null and p.longitude is not null and p.deleted_at is null
  and ${postShownToAll('p')}`;

/** Writers open at this statement's snapshot (pg_snapshot_xip), as numbers comparable with map_changes.xid. */
const OPEN_XIDS = sql`array(select x::text::bigint from pg_snapshot_xip(pg_current_snapshot()) x)`;

const toNumbers = (value: unknown): number[] => (Array.isArray(value) ? value.map(Number) : []);

/**
 * The change log's current position. Read it before loading the layer: every change committed after
 * it is read again later and re-applied (applying twice is harmless).
 */
export async function readWatermark(db: Executor): Promise<ChangeWatermark> {
  const [row] = rowsOf(
    await db.execute(
      sql`select coalesce((select max(seq) from map_changes), 0) as seq, ${OPEN_XIDS} as open`,
    ),
  );
  return { seq: Number(row!.seq), openXids: toNumbers(row!.open) };
}

/**
 * One page of the map layer in id order. Loading in pages keeps an embedded (single-connection)
 * database answering other requests in between; each page comes as one tab-separated text value,
 * which an embedded database returns several times faster than rows of columns.
 */
export async function loadMapLayerPage(
  db: Executor,
  afterId: string | null,
  limit: number,
): Promise<Omit<MapPointRow, 'exactPublicLocation'>[]> {
  const after = afterId ? sql`and id > ${afterId}` : sql``;
  const [row] = rowsOf(
    await db.execute(sql`select string_agg(concat_ws(E'\t', id, user_id, latitude, longitude, media_key,
        extract(epoch from created_at) * 1000), E'\n' order by id) as page
      from (select id, user_id, latitude, longitude, media_key, created_at from posts p
        where ${ON_MAP} ${after} order by id limit ${limit}) p`),
  );
  const page = typeof row?.page === 'string' ? row.page : '';
  if (!page) return [];
  return parseLayerPage(page);
}

const TAB = 9;
const NEWLINE = 10;

/**
 * Splits a page into points whose strings are copies, not slices. `split` would return slices of the
 * ~5 MB page text, and the map index keeps them for as long as it serves, so every page's whole text
 * would stay on the heap with them. Owner ids repeat (a few per thousand posts), so each is kept once.
 */
export function parseLayerPage(page: string): Omit<MapPointRow, 'exactPublicLocation'>[] {
  const bytes = Buffer.from(page, 'utf8');
  const owners = new Map<string, string>();
  const points: Omit<MapPointRow, 'exactPublicLocation'>[] = [];
  const fields: string[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i += 1) {
    const byte = i < bytes.length ? bytes[i] : NEWLINE;
    if (byte !== TAB && byte !== NEWLINE) continue;
    fields.push(bytes.toString('utf8', start, i));
    start = i + 1;
    if (byte === TAB) continue;
    const [id, userId, latitude, longitude, mediaKey, created] = fields;
    let owner = owners.get(userId!);
    if (owner === undefined) owners.set(userId!, (owner = userId!));
    points.push({
      id: id!,
      userId: owner,
      latitude: Number(latitude),
      longitude: Number(longitude),
      mediaKey: mediaKey!,
      createdAt: Number(created),
    });
    fields.length = 0;
  }
  return points;
}

/** Users who publish exact locations (few): the layer's pages carry no user columns. */
export async function exactLocationUserIds(db: Executor): Promise<Set<string>> {
  const rows = rowsOf(await db.execute(sql`select id from users where exact_public_location`));
  return new Set(rows.map((r) => String(r.id)));
}

/** Change-log rows after the watermark (in one snapshot with the new list of open writers). */
export async function readMapChanges(
  db: Executor,
  since: ChangeWatermark,
  limit: number,
): Promise<{ openXids: number[]; changes: MapChange[] }> {
  const open = since.openXids.length
    ? sql`or xid in (${sql.join(
        since.openXids.map((x) => sql`${x}`),
        sql`, `,
      )})`
    : sql``;
  const [row] = rowsOf(
    await db.execute(sql`select ${OPEN_XIDS} as open,
      coalesce((select json_agg(json_build_array(c.seq, c.post_id) order by c.seq)
        from (select seq, post_id from map_changes where seq > ${since.seq} ${open}
          order by seq limit ${limit}) c), '[]') as changes`),
  );
  const raw = (typeof row!.changes === 'string' ? JSON.parse(row!.changes) : row!.changes) as [
    number,
    string,
  ][];
  return {
    openXids: toNumbers(row!.open),
    changes: raw.map(([seq, postId]) => ({ seq: Number(seq), postId })),
  };
}

/** The current map state of some posts: absent from the result when they are no longer on the map. */
export async function loadMapPoints(db: Executor, postIds: readonly string[]): Promise<MapPointRow[]> {
  if (postIds.length === 0) return [];
  const ids = sql.join(
    postIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = rowsOf(
    await db.execute(
      sql`select ${POINT_COLUMNS} from posts p join users u on u.id = p.user_id
        where p.id in (${ids}) and ${ON_MAP}`,
    ),
  );
  return rows.map(toPoint);
}

export async function pruneMapChanges(db: Executor, olderThanSeconds: number): Promise<void> {
  await db.execute(
    sql`delete from map_changes where changed_at < now() - make_interval(secs => ${olderThanSeconds})`,
  );
}

const exclusionsViewerId = sql.placeholder('viewerId');
/** Asked on every explore request: prepared, so PostgreSQL plans it once per connection. */
const viewerExclusionsStatement = preparedSql(
  'viewer_exclusions',
  sql`select
    array(select post_id::text from hidden_posts where user_id = ${exclusionsViewerId}) as hidden,
    array(select case when blocker_id = ${exclusionsViewerId} then blocked_id else blocker_id end::text
      from blocks where blocker_id = ${exclusionsViewerId} or blocked_id = ${exclusionsViewerId}) as blocked`,
);

/** What one viewer must not see: posts they hid, and users blocked either way. */
export async function viewerExclusions(
  db: Executor,
  viewerId: string,
): Promise<{ hiddenPostIds: string[]; blockedUserIds: string[] }> {
  if (!isUuid(viewerId)) return { hiddenPostIds: [], blockedUserIds: [] };
  const [row] = rowsOf(await viewerExclusionsStatement(db).execute({ viewerId }));
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  return { hiddenPostIds: list(row?.hidden), blockedUserIds: list(row?.blocked) };
}

/** What a lone marker shows besides the index's public position. */
export interface MarkerDetailRow {
  id: string;
  userId: string;
  catName: string | null;
  username: string;
  /** Exact: sent only to whom location-rule.ts allows. */
  latitude: number | null;
  longitude: number | null;
  showLocation: boolean;
  exactPublicLocation: boolean;
  /** The viewer belongs to a group the post is shared with. */
  sharedWithViewer: boolean;
}

/** A viewport asks this on every request. */
const markerDetailsQuery = preparedPerDatabase((db: Executor) =>
  db
    .select({
      id: posts.id,
      userId: posts.userId,
      catName: posts.catName,
      username: users.username,
      latitude: posts.latitude,
      longitude: posts.longitude,
      showLocation: posts.showLocation,
      exactPublicLocation: users.exactPublicLocation,
      sharedWithViewer: sql<boolean>`${sharedWithMember(sql.placeholder('viewerId'), posts.id)}`.mapWith(
        Boolean,
      ),
    })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.userId))
    .where(
      sql`${posts.id} = any(${sql.placeholder('ids')}::uuid[]) and ${posts.deletedAt} is null and ${postShownToAll()}`,
    )
    .prepare('map_marker_details'),
);

/**
 * The cat's name, author and exact position of some posts, by id (a viewport's lone markers). Ids of
 * posts deleted or trashed since the map index last looked are simply absent.
 */
export async function markerDetails(
  db: Executor,
  viewerId: string,
  postIds: readonly string[],
): Promise<MarkerDetailRow[]> {
  if (postIds.length === 0) return [];
  return markerDetailsQuery(db).execute({ ids: postIds, viewerId });
}
