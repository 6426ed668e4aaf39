import { sql, type SQL } from 'drizzle-orm';
import { postShownTo, usersBlockedWith } from '../visibility/visibility.ts';

/**
 * A sighting (a posts row, `alias` in the statement) that the viewer may see: live, not hidden by them,
 * no block with its author, shown to them by moderation (issue 27), and not kept from them near a
 * household cat's home (sighting_kept_from, migrations 0018 and 0040: a caretaker's sighting decided on
 * ~500 m cells, never on exact distances; anyone else's kept wherever it lies, decision 022). One rule
 * for every statement that places or pictures a cat (its page, the lists and their covers, suggestions,
 * missing alerts), so that they all agree on what a viewer may see of a cat.
 *
 * `cat`: the alias of the sighting's own cat row, where the statement has one (with `living` and
 * `home_latitude`). sighting_kept_from() can only be true of a household cat with a home point and
 * costs a function call a row (most of the missing list's time on PGlite), so it is then asked of
 * those cats alone. The conditions keep the order the statements had when they were measured.
 */
export function sightingVisibleTo(viewerId: unknown, alias: string, cat?: string): SQL {
  const p = sql.raw(alias);
  const kept = sql`sighting_kept_from(${p}.cat_id, ${p}.user_id, ${p}.latitude, ${p}.longitude, ${p}.show_location, ${viewerId})`;
  const notKept = cat
    ? sql`not (${sql.raw(cat)}.living = 'household' and ${sql.raw(cat)}.home_latitude is not null and ${kept})`
    : sql`not ${kept}`;
  return sql`(${p}.deleted_at is null
    and ${p}.user_id not in (${usersBlockedWith(viewerId)})
    and ${p}.id not in (select h.post_id from hidden_posts h where h.user_id = ${viewerId})
    and ${postShownTo(viewerId, alias)}
    and ${notKept})`;
}
