import { sql, type SQL } from 'drizzle-orm';
import { usersBlockedWith } from './visibility.ts';

/**
 * Shown to the viewer: open, unexpired, raised by nobody they share a block with nor by a suspended
 * account, its cat not removed by a moderator (issue 27: the alert goes with the cat, as it would with a
 * deleted one). Both are columns of the alert, kept with the account and the cat (migrations 0029, 0034).
 */
export const alertShownTo = (viewerId: unknown) => sql`a.ended_at is null and a.expires_at > now()
  and (a.raised_by is null or a.raised_by not in (${usersBlockedWith(viewerId)}))
  and not a.raiser_suspended
  and not a.cat_removed`;

/**
 * Whether the cat in `catColumn` (a column of the caller's statement, such as `l.id`) has an alert the
 * viewer may see: the yes/no the cats lists, Spot's suggestions and the post views (cards, a post's page)
 * show as 'Missing'. One probe of missing_alerts_open_cat_idx a row.
 */
export const catMissingFor = (viewerId: unknown, catColumn: SQL) =>
  sql`exists (select 1 from missing_alerts a where a.cat_id = ${catColumn} and ${alertShownTo(viewerId)})`;
