import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { MISSING_CONTACT_PREFERENCES, MISSING_NOTE_MAX } from '@cats/contracts';
import { cats } from './cats.ts';
import { users } from './users.ts';

const contactList = sql.raw(MISSING_CONTACT_PREFERENCES.map((c) => `'${c}'`).join(', '));
const noteMax = sql.raw(String(MISSING_NOTE_MAX));

/**
 * A missing-cat alert (issue 26, "Missing cats"). Open while ended_at is null; shown while it is open
 * and expires_at is in the future (expiry is a condition of the queries: no sweeper is needed for it to
 * hold). A cat has at most one open alert (missing_alerts_open_cat_idx). An alert that lapsed unrenewed
 * stays open until its cat is marked missing again, which ends it as 'lapsed' first.
 */
export const missingAlerts = pgTable(
  'missing_alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    catId: uuid('cat_id')
      .notNull()
      .references(() => cats.id, { onDelete: 'cascade' }),
    /** The caretaker who raised it: their account's alerts count against MISSING_ALERTS_PER_ACCOUNT. */
    raisedBy: uuid('raised_by').references(() => users.id, { onDelete: 'set null' }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    /** Where the cat was last seen, as the caretaker placed it: only ever shown to the cat's caretakers. */
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    /**
     * The centre of that place's ~500 m cell (location-grid.ts), written with it: what everyone else is
     * shown, and what the near list filters and orders by, so that no query can tell more than the cell.
     */
    areaLatitude: doublePrecision('area_latitude').notNull(),
    areaLongitude: doublePrecision('area_longitude').notNull(),
    note: text('note').notNull().default(''),
    contact: text('contact').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Who marked the cat found (the actor of the cat_found notifications). */
    endedBy: uuid('ended_by').references(() => users.id, { onDelete: 'set null' }),
    /** 'found': marked found; 'lapsed': expired unrenewed, ended when the cat was marked missing again. */
    endReason: text('end_reason'),
    /**
     * The raiser is suspended (issue 27): the alert is shown to nobody else until the suspension ends,
     * as their posts and comments are not (posts.author_suspended). Kept here, set and cleared with
     * theirs, so the near list's hot statement reads no users row per alert.
     */
    raiserSuspended: boolean('raiser_suspended').notNull().default(false),
    /**
     * Its cat is removed by a moderator (cats.removed_at, issue 27): the alert is shown to nobody, as the
     * cat is not. Kept by triggers (migration 0034) so that the near list's hot statement reads no cats
     * row per alert in its box.
     */
    catRemoved: boolean('cat_removed').notNull().default(false),
  },
  (t) => [
    uniqueIndex('missing_alerts_open_cat_idx')
      .on(t.catId)
      .where(sql`${t.endedAt} is null`),
    // The near list: a box of latitudes, then of longitudes, then the exact distance (migration 0019).
    index('missing_alerts_open_area_idx')
      .on(t.areaLatitude, t.areaLongitude)
      .where(sql`${t.endedAt} is null`),
    // A cat's alerts, newest first (its reports belong to the newest); ON DELETE of a cat uses it too.
    index('missing_alerts_cat_idx').on(t.catId, t.createdAt.desc()),
    // Counting an account's open alerts, and ON DELETE SET NULL of users.
    index('missing_alerts_raised_by_idx').on(t.raisedBy),
    index('missing_alerts_ended_by_idx')
      .on(t.endedBy)
      .where(sql`${t.endedBy} is not null`),
    check('missing_alerts_latitude_range', sql`${t.latitude} between -90 and 90`),
    check('missing_alerts_longitude_range', sql`${t.longitude} between -180 and 180`),
    check('missing_alerts_area_latitude_range', sql`${t.areaLatitude} between -90 and 90`),
    check('missing_alerts_area_longitude_range', sql`${t.areaLongitude} between -180 and 180`),
    check('missing_alerts_note_length', sql`char_length(${t.note}) <= ${noteMax}`),
    check('missing_alerts_contact', sql`${t.contact} in (${contactList})`),
    check('missing_alerts_expiry', sql`${t.expiresAt} > ${t.createdAt}`),
    check('missing_alerts_end_reason', sql`${t.endReason} is null or ${t.endReason} in ('found', 'lapsed')`),
    check('missing_alerts_end_pair', sql`(${t.endedAt} is null) = (${t.endReason} is null)`),
  ],
);

/**
 * 'I saw this cat' without a photo: a time, a place and a note, sent to the cat's caretakers alone (the
 * place exact to them: the reporter sent it to them). A report with a photo is a post linked to the cat.
 */
export const missingReports = pgTable(
  'missing_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => missingAlerts.id, { onDelete: 'cascade' }),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    note: text('note').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('missing_reports_alert_idx').on(t.alertId, t.createdAt.desc()),
    index('missing_reports_reporter_idx').on(t.reporterId),
    check('missing_reports_latitude_range', sql`${t.latitude} between -90 and 90`),
    check('missing_reports_longitude_range', sql`${t.longitude} between -180 and 180`),
    check('missing_reports_note_length', sql`char_length(${t.note}) <= ${noteMax}`),
  ],
);

/**
 * When each person was last told about a cat's alert, by kind ('cat_missing_nearby', 'cat_found'):
 * one notice of each per person and cat a day, however often the alert is raised and ended (issue 46:
 * ten cycles gave one neighbour twenty notifications and pushes). Claimed by the notification triggers
 * of migration 0038 (missing_notices_claim()) in the alert's transaction; the primary key settles two
 * claims at once, on any instance.
 */
export const missingNotices = pgTable(
  'missing_notices',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    catId: uuid('cat_id')
      .notNull()
      .references(() => cats.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.catId, t.type] }),
    // ON DELETE of a cat.
    index('missing_notices_cat_idx').on(t.catId),
    check('missing_notices_type', sql`${t.type} in ('cat_missing_nearby', 'cat_found')`),
  ],
);

export type MissingAlertRow = typeof missingAlerts.$inferSelect;
export type MissingReportRow = typeof missingReports.$inferSelect;
