import { sql, type SQL } from 'drizzle-orm';
import { isUuid } from '@cats/contracts';
import type { Executor } from '../../../db/client.ts';
import { rowsOf, toBoolean, toDate } from '../../../db/raw-results.ts';
import { missingReports, type MissingAlertRow } from '../../../db/schema/index.ts';
import { sharedWithMember, usersBlockedWith } from '../../visibility/visibility.ts';
import { sightingVisibleTo } from '../sighting-visibility.ts';
import type { UserRowLike } from './missing.repository.ts';

/**
 * SQL of what neighbours send about a missing cat (issue 26): their reports, the photos linked to the cat
 * while its alert is up, and the people behind them as the reading caretaker may see them.
 */

/** These users, less anyone the viewer shares a block with. */
export async function usersVisibleTo(
  db: Executor,
  ids: readonly string[],
  viewerId: string,
): Promise<Map<string, UserRowLike>> {
  const wanted = [...new Set(ids)].filter(isUuid);
  if (wanted.length === 0) return new Map();
  const rows = rowsOf(
    await db.execute(sql`select u.id, u.username, u.profile_pic_key from users u
      where u.id = any(${sql.param(wanted)}::uuid[]) and u.id not in (${usersBlockedWith(viewerId)})`),
  );
  return new Map(
    rows.map((r) => [
      String(r.id),
      {
        id: String(r.id),
        username: String(r.username),
        profilePicKey: r.profile_pic_key === null ? null : String(r.profile_pic_key),
      },
    ]),
  );
}

export async function insertReport(
  db: Executor,
  values: typeof missingReports.$inferInsert,
): Promise<typeof missingReports.$inferSelect> {
  const [row] = await db.insert(missingReports).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** A report as its caretakers read it: sent to them, or a photo posted of the cat during the alert. */
export interface ReportRow {
  id: string;
  kind: 'sighting' | 'photo';
  reporterId: string;
  seenAt: Date;
  createdAt: Date;
  latitude: number | null;
  longitude: number | null;
  note: string;
  /** Photo reports: the post and what the location rule needs to place it for the viewer. */
  post: {
    mediaKey: string;
    width: number;
    height: number;
    placeholder: string;
    altText: string | null;
    showLocation: boolean;
    exactPublicLocation: boolean;
    sharedWithViewer: boolean;
  } | null;
}

/**
 * The alert's reports the viewer (a caretaker) may see, newest sighting first, at most `limit`: the
 * reports sent to them by anyone they share no block with, and the photos linked to the cat while the
 * alert was up by anyone but its caretakers, as the feed would show them the posts.
 */
export async function reportsOfAlert(
  db: Executor,
  alert: MissingAlertRow,
  viewerId: string,
  limit: number,
): Promise<ReportRow[]> {
  const until: SQL = alert.endedAt ? sql`and p.created_at <= ${alert.endedAt}` : sql``;
  const rows = rowsOf(
    await db.execute(sql`select * from (
        (select r.id, 'sighting' as kind, r.reporter_id, r.seen_at, r.created_at, r.latitude, r.longitude,
           r.note, null as media_key, null::int as width, null::int as height, null as placeholder,
           null as alt_text, false as show_location, false as exact_public_location,
           false as shared_with_viewer
         from missing_reports r
         where r.alert_id = ${alert.id} and r.reporter_id not in (${usersBlockedWith(viewerId)})
         order by r.seen_at desc, r.id desc limit ${limit})
        union all
        (select p.id, 'photo', p.user_id, p.created_at, p.created_at, p.latitude, p.longitude, p.caption,
           p.media_key, p.width, p.height, p.placeholder, p.alt_text, p.show_location, u.exact_public_location,
           ${sharedWithMember(viewerId, sql`p.id`)}
         from posts p join users u on u.id = p.user_id
         where p.cat_id = ${alert.catId} and p.created_at >= ${alert.createdAt} ${until}
           and not exists (select 1 from cat_caretakers cc where cc.cat_id = p.cat_id and cc.user_id = p.user_id)
           and ${sightingVisibleTo(viewerId, 'p')}
         order by p.created_at desc, p.id desc limit ${limit})
      ) x order by x.seen_at desc, x.id desc limit ${limit}`),
  );
  return rows.map((r) => ({
    id: String(r.id),
    kind: r.kind === 'photo' ? 'photo' : 'sighting',
    reporterId: String(r.reporter_id),
    seenAt: toDate(r.seen_at),
    createdAt: toDate(r.created_at),
    latitude: r.latitude === null ? null : Number(r.latitude),
    longitude: r.longitude === null ? null : Number(r.longitude),
    note: String(r.note ?? ''),
    post:
      r.kind === 'photo'
        ? {
            mediaKey: String(r.media_key),
            width: Number(r.width),
            height: Number(r.height),
            placeholder: String(r.placeholder),
            altText: r.alt_text === null ? null : String(r.alt_text),
            showLocation: toBoolean(r.show_location),
            exactPublicLocation: toBoolean(r.exact_public_location),
            sharedWithViewer: toBoolean(r.shared_with_viewer),
          }
        : null,
  }));
}
