import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * A user's 'Download my data' export (issue 24): one row per user, so one export at a time. The state
 * lives here and the zip in the media storage under a random key, so whichever instance answers can
 * report it and stream it. Rows and files are removed a day after the export finished (export-sweep.ts).
 */
export const dataExports = pgTable(
  'data_exports',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['running', 'ready', 'failed'] }).notNull(),
    /** exports/<random hex>.zip once written; never shown to anyone, the download route reads it. */
    fileKey: text('file_key'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('data_exports_finished_idx').on(t.finishedAt),
    check('data_exports_status', sql`${t.status} in ('running', 'ready', 'failed')`),
    check(
      'data_exports_ready_has_file',
      sql`${t.status} <> 'ready' or (${t.fileKey} is not null and ${t.sizeBytes} is not null and ${t.finishedAt} is not null)`,
    ),
  ],
);
