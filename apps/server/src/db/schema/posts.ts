import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  doublePrecision,
  index,
  uniqueIndex,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { cats } from './cats.ts';
import { users } from './users.ts';

export const posts = pgTable(
  'posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    caption: text('caption').notNull().default(''),
    catName: text('cat_name'),
    /** The author's description of the photo for people who cannot see it; null when none. */
    altText: text('alt_text'),
    /** Exact coordinates; they leave the server only for the owner and group members (location privacy). */
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    showLocation: boolean('show_location').notNull().default(false),
    /**
     * Issue 27: a moderator hid the location (strip_location) and no restore has undone it. The owner
     * cannot switch it back on meanwhile; posts_location_locked keeps show_location off.
     */
    locationLocked: boolean('location_locked').notNull().default(false),
    /** Storage key prefix of the image variants (posts/<content hash>). */
    mediaKey: text('media_key').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    placeholder: text('placeholder').notNull(),
    exifData: text('exif_data'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Set when the owner deletes the post: it sits in their trash, seen by nobody else and listed
     * nowhere, until restored or purged 30 days later (trash.service.ts).
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * Issue 27: 'pending_review' (hidden from everyone but its author after AUTO_HIDE_REPORTERS trusted
     * reports) or 'removed' (by a moderator: hidden from everyone, its author included, until restored).
     */
    moderation: text('moderation'),
    /** Its author is suspended: hidden from everyone else until the suspension ends or is lifted. */
    authorSuspended: boolean('author_suspended').notNull().default(false),
    /** The last edit of caption, cat name or description; null until the first (post_versions holds the rest). */
    editedAt: timestamp('edited_at', { withTimezone: true }),
    /** The cat this picture shows (issue 26), set by its author; null when none or the cat is gone. */
    catId: uuid('cat_id').references((): AnyPgColumn => cats.id, { onDelete: 'set null' }),
  },
  (t) => [
    // Keyset pagination of the feed: (created_at, id) descending. user_id, after the unique pair, never
    // changes the order; it lets PostgreSQL check the feed's block filter from the index alone, so a
    // page deep into the feed reads ~60 buffers instead of ~230 (docs/performance.md, page 200).
    // Both feed indexes hold live posts only: every listing filters `deleted_at is null`, and a listing
    // that forgot to would lose these indexes (and show up in the plans) rather than trashed posts.
    index('posts_feed_idx')
      .on(t.createdAt.desc(), t.id.desc(), t.userId)
      .where(sql`${t.deletedAt} is null`),
    index('posts_user_feed_idx')
      .on(t.userId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
    index('posts_map_idx')
      .on(t.latitude, t.longitude)
      .where(
        sql`${t.showLocation} and ${t.latitude} is not null and ${t.longitude} is not null and ${t.deletedAt} is null`,
      ),
    // Issue 27: the few live posts moderation keeps from someone (pending review, removed, or by a
    // suspended author), in the feed's order: what a deep feed page counts as skipped for its viewer
    // (posts.repository.ts › deepFeedPage) without walking the feed.
    index('posts_moderated_idx')
      .on(t.createdAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null and (${t.moderation} is not null or ${t.authorSuspended})`),
    // The trash: one user's, newest deletion first, and the daily purge of the oldest.
    index('posts_user_trash_idx')
      .on(t.userId, t.deletedAt.desc())
      .where(sql`${t.deletedAt} is not null`),
    index('posts_trash_purge_idx')
      .on(t.deletedAt)
      .where(sql`${t.deletedAt} is not null`),
    index('posts_media_key_idx').on(t.mediaKey),
    // A cat's sightings, newest first (its timeline, last seen, counts); also what ON DELETE SET NULL
    // of a cat looks its posts up by.
    index('posts_cat_timeline_idx')
      .on(t.catId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.catId} is not null`),
    // 'Which cat is this?' (issue 26; cat-suggestions.repository.ts › recentSightingsInBox): live located sightings
    // by place. A box is a range of latitude with the longitude and the date checked in the index, so
    // the table is read only for the last 90 days' sightings in the box.
    index('posts_cat_sightings_place_idx')
      .on(t.latitude, t.longitude, t.createdAt, t.showLocation, t.userId, t.catId, t.id)
      .where(sql`${t.catId} is not null and ${t.deletedAt} is null and ${t.latitude} is not null`),
    // The cats someone took live pictures of (cats-nearest.repository.ts › catsSeenOtherwiseNear: the cats whose
    // newest sighting may differ for them from a stranger's).
    index('posts_user_cats_idx')
      .on(t.userId, t.catId)
      .where(sql`${t.catId} is not null and ${t.deletedAt} is null`),
    // What a group share points at (post_groups_post_author_fk): the post together with its author.
    uniqueIndex('posts_id_user_idx').on(t.id, t.userId),
    check('posts_latitude_range', sql`${t.latitude} is null or ${t.latitude} between -90 and 90`),
    check('posts_longitude_range', sql`${t.longitude} is null or ${t.longitude} between -180 and 180`),
    check('posts_coordinates_pair', sql`(${t.latitude} is null) = (${t.longitude} is null)`),
    check('posts_caption_length', sql`char_length(${t.caption}) <= 500`),
    check('posts_cat_name_length', sql`${t.catName} is null or char_length(${t.catName}) <= 40`),
    check('posts_alt_text_length', sql`${t.altText} is null or char_length(${t.altText}) <= 1500`),
    check(
      'posts_moderation',
      sql`${t.moderation} is null or ${t.moderation} in ('pending_review', 'removed')`,
    ),
    check('posts_location_locked', sql`not (${t.locationLocked} and ${t.showLocation})`),
    check('posts_dimensions', sql`${t.width} > 0 and ${t.height} > 0`),
  ],
);

/**
 * Earlier versions of a post's text, kept when the owner edits it (issue 24; as Mastodon keeps status
 * edits). Each edit stores the version it replaced, in the same transaction as the edit: version 1 is
 * the post as first shared, and the post row itself is always the newest version.
 */
export const postVersions = pgTable(
  'post_versions',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    caption: text('caption').notNull(),
    catName: text('cat_name'),
    altText: text('alt_text'),
    /** When this version was written: the post's created_at for version 1, else the edit's time. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // One row per version; also the history's order (newest first reads the index backwards).
    primaryKey({ columns: [t.postId, t.version] }),
    check('post_versions_version_positive', sql`${t.version} > 0`),
  ],
);

export const likes = pgTable(
  'likes',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // One like per user and post.
  (t) => [primaryKey({ columns: [t.postId, t.userId] }), index('likes_user_idx').on(t.userId)],
);

export const comments = pgTable(
  'comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** As posts.moderation: 'pending_review' or 'removed' (issue 27). */
    moderation: text('moderation'),
    /** As posts.author_suspended. */
    authorSuspended: boolean('author_suspended').notNull().default(false),
  },
  (t) => [
    check(
      'comments_moderation',
      sql`${t.moderation} is null or ${t.moderation} in ('pending_review', 'removed')`,
    ),
    // Pages of a post's comments walk this index backwards from the (created_at, id) cursor, newest first.
    index('comments_post_created_idx').on(t.postId, t.createdAt, t.id),
    index('comments_user_idx').on(t.userId),
    check('comments_body_length', sql`char_length(${t.body}) between 1 and 500`),
  ],
);

export const hiddenPosts = pgTable(
  'hidden_posts',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.postId] }), index('hidden_posts_post_idx').on(t.postId)],
);

export type PostRow = typeof posts.$inferSelect;

/**
 * Issue 28: the Idempotency-Key a user sent with createPost, and the post it made. A retry with the same
 * key (an offline queue's upload whose answer was lost) gets that post back instead of a second one.
 * The primary key is what settles two concurrent requests: the second insert waits for the first's
 * transaction and then finds the key taken. Keys count for IDEMPOTENCY_KEY_TTL_HOURS; the daily trash
 * sweep deletes older ones. Going with the user or the post (purged from the trash) is the cascade.
 */
export const postIdempotencyKeys = pgTable(
  'post_idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * SHA-256 of the request that used the key (the picture's bytes and its fields): the same key with
     * another request is refused (422, the IETF draft's rule), not answered with the first post. Null
     * on keys recorded before it was kept.
     */
    requestHash: text('request_hash'),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    // The cascade from a purged post, and the sweep of expired keys.
    index('post_idempotency_keys_post_idx').on(t.postId),
    index('post_idempotency_keys_created_idx').on(t.createdAt),
    check('post_idempotency_keys_key_length', sql`char_length(${t.key}) between 1 and 255`),
    check(
      'post_idempotency_keys_request_hash',
      sql`${t.requestHash} is null or ${t.requestHash} ~ '^[0-9a-f]{64}$'`,
    ),
  ],
);
