import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Change log of the explore map: triggers (migration 'explore_map_triggers') add a row whenever a post
 * enters, leaves or moves on the map, so each server process patches its in-memory map index instead of
 * reloading every located post. Rows are pruned after a day; no foreign key: deleted posts are logged too.
 */
export const mapChanges = pgTable(
  'map_changes',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    postId: uuid('post_id').notNull(),
    /**
     * The writing transaction. A sequence number is taken before commit, so rows can become visible out
     * of order: readers re-read the rows of transactions that were still open when they last looked.
     */
    xid: bigint('xid', { mode: 'number' })
      .notNull()
      .default(sql`(pg_current_xact_id()::text)::bigint`),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('map_changes_xid_idx').on(t.xid), index('map_changes_changed_at_idx').on(t.changedAt)],
);
