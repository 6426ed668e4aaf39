import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    /**
     * usernameSkeleton(username) (lib/confusables.ts): one account per look-alike name (issue 23).
     * Null only for accounts older than the column whose name looked like an older account's: they
     * keep their name, and the older account's key still keeps new look-alikes out.
     */
    usernameSkeleton: text('username_skeleton'),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Storage key prefix of the profile picture's variants (avatars/<hash>), null when none. */
    profilePicKey: text('profile_pic_key'),
    /** Owner's choice to publish exact coordinates; default is the ~500 m grid cell. */
    exactPublicLocation: boolean('exact_public_location').notNull().default(false),
    /** Spot reminds the user to describe a photo shared without a description (Settings turns it off). */
    altTextReminder: boolean('alt_text_reminder').notNull().default(true),
    /**
     * The home area chosen in Settings (issue 26, missing cats): always the centre of a ~500 m cell
     * (location-grid.ts), never the point the user gave. Missing cats within 2 km of it are shown and told.
     */
    homeAreaLatitude: doublePrecision('home_area_latitude'),
    homeAreaLongitude: doublePrecision('home_area_longitude'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Issue 27: 'member', 'moderator' or 'admin' (`npm run admin -- grant ...`, or an admin in the web). */
    role: text('role').notNull().default('member'),
    /**
     * A suspension (issue 27): set while the account is suspended, with suspended_until null for good.
     * A suspended user cannot log in or refresh and their posts and comments are hidden (their
     * author_suspended flag) until the suspension ends or is lifted.
     */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    suspendedUntil: timestamp('suspended_until', { withTimezone: true }),
    /**
     * Issue 46: bumped with every password change or reset, in its transaction. Access tokens carry the
     * value they were signed with, and one that does not match is refused on the next request, on
     * every instance (migration 0039 announces the bump like a deletion). A counter, not a time: a
     * token minted in the same second as the change cannot survive it, nor one signed after it die.
     */
    sessionGeneration: integer('session_generation').notNull().default(0),
  },
  (t) => [
    check('users_role', sql`${t.role} in ('member', 'moderator', 'admin')`),
    check('users_suspension', sql`${t.suspendedUntil} is null or ${t.suspendedAt} is not null`),
    index('users_suspended_until_idx')
      .on(t.suspendedUntil)
      .where(sql`${t.suspendedUntil} is not null`),
    index('users_staff_idx')
      .on(t.role)
      .where(sql`${t.role} <> 'member'`),
    // Case-insensitive uniqueness lives in the database, not only in the service.
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_username_skeleton_idx').on(t.usernameSkeleton),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    check('users_username_length', sql`char_length(${t.username}) between 3 and 23`),
    // Who to tell of a cat missing nearby: a box of home areas around the last-seen cell (migration 0019).
    index('users_home_area_idx')
      .on(t.homeAreaLatitude, t.homeAreaLongitude)
      .where(sql`${t.homeAreaLatitude} is not null`),
    check(
      'users_home_area_range',
      sql`${t.homeAreaLatitude} is null or (${t.homeAreaLatitude} between -90 and 90 and ${t.homeAreaLongitude} between -180 and 180)`,
    ),
    check('users_home_area_pair', sql`(${t.homeAreaLatitude} is null) = (${t.homeAreaLongitude} is null)`),
  ],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** All tokens rotated from one login share a family; reuse of a rotated token revokes the family. */
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /**
     * When the password was last typed in this session (login, reset or password change), carried to
     * each rotated successor; access tokens carry it as auth_time, which deleting the account asks to
     * be recent (issue 46). Null for sessions older than the column: never recent.
     */
    signedInAt: timestamp('signed_in_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_idx').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
  ],
);

/**
 * Failed logins per account, for throttling (spec'd by the accounts issue: 5 in 15 minutes). A row is
 * written before the password is checked and removed if it was right, so attempts in flight count too.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    emailLower: text('email_lower').notNull(),
    /**
     * Null: the account's own count. Set: attempts from a browser with that account's device cookie,
     * counted apart so that an attacker's failures do not lock the owner's known browser (issue 23).
     */
    deviceId: uuid('device_id'),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull().defaultNow(),
    id: uuid('id').primaryKey().defaultRandom(),
  },
  (t) => [index('login_failures_email_idx').on(t.emailLower, t.failedAt)],
);

export const blocks = pgTable(
  'blocks',
  {
    blockerId: uuid('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: uuid('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    index('blocks_blocked_idx').on(t.blockedId),
    check('blocks_not_self', sql`${t.blockerId} <> ${t.blockedId}`),
  ],
);

export type UserRow = typeof users.$inferSelect;
