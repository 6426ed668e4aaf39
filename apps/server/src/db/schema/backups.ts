import { check, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/**
 * A backup in progress (issue 29, docs/decisions/020-backups.md). While a lease has not expired, media
 * deletions are recorded in deferred_media_deletions instead of being carried out, so every file the
 * backup's database snapshot points at is still there when the backup copies it. A backup renews its
 * lease while it runs; one that dies lets it expire.
 */
export const backupLeases = pgTable('backup_leases', {
  id: uuid('id').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Media deletions put off by a backup lease: a whole prefix (post, avatar) or one key (data export). */
export const deferredMediaDeletions = pgTable(
  'deferred_media_deletions',
  {
    target: text('target').primaryKey(),
    kind: text('kind', { enum: ['prefix', 'key'] }).notNull(),
    deferredAt: timestamp('deferred_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('deferred_media_deletions_kind', sql`${t.kind} in ('prefix', 'key')`)],
);
