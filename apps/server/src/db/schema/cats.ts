import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
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
import { CAT_LIVING, COAT_COLOURS, YES_NO_UNKNOWN } from '@cats/contracts';
import { posts } from './posts.ts';
import { users } from './users.ts';

/** `'a', 'b'` for a CHECK's IN list or ARRAY[...], from the contracts' fixed lists (constants, never input). */
const sqlList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/**
 * A neighbourhood cat's profile (issue 26). Its sightings are posts with posts.cat_id set. Cats are
 * community things: they outlive the account that created them (created_by goes null) as long as
 * someone still cares for them (account.service.ts deletes the cats whose last caretaker leaves).
 */
export const cats = pgTable(
  'cats',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    coatColours: text('coat_colours')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    earTipped: text('ear_tipped').notNull().default('unknown'),
    neutered: text('neutered').notNull().default('unknown'),
    /** 'household' (lives with someone), 'community' or 'unknown'. */
    living: text('living').notNull().default('unknown'),
    /** One of its sightings; null until chosen (or once that post is gone or unlinked). */
    coverPostId: uuid('cover_post_id').references((): AnyPgColumn => posts.id, { onDelete: 'set null' }),
    /** Null once the creator's account is deleted: the cat stays with its other caretakers. */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * The caretakers' home point: a household cat's sightings in its ~500 m cell or the 8 around it
     * (so all within CAT_HOME_PRIVACY_METRES; decision 022) show no place to anyone but its caretakers
     * and each sighting's author; a sighting by anyone but a caretaker names the cat to nobody else,
     * wherever it lies. Never in an answer to anyone else.
     */
    homeLatitude: doublePrecision('home_latitude'),
    homeLongitude: doublePrecision('home_longitude'),
    /**
     * Set when this profile was merged into another (cat_merges): the row stays so that its id leads to
     * the surviving cat, and so that the merge can be undone. No post links a merged cat (a trigger
     * sends a link to the survivor: migration 0020).
     */
    mergedInto: uuid('merged_into').references((): AnyPgColumn => cats.id, { onDelete: 'cascade' }),
    /** Issue 27: set when a moderator removed this cat's page (it answers 404 to everyone until restored). */
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Name search: prefix matches walk this index (lower(name) like 'lu%'); text_pattern_ops makes LIKE
    // usable whatever the database's collation.
    index('cats_name_lower_idx').on(sql`lower(${t.name}) text_pattern_ops`),
    // ON DELETE SET NULL of posts and users looks cats up by these.
    index('cats_cover_post_idx')
      .on(t.coverPostId)
      .where(sql`${t.coverPostId} is not null`),
    index('cats_created_by_idx')
      .on(t.createdBy)
      .where(sql`${t.createdBy} is not null`),
    check('cats_name_length', sql`char_length(${t.name}) between 1 and 40`),
    check('cats_description_length', sql`char_length(${t.description}) <= 500`),
    // Each colour from the fixed list, each at most once is the service's job; at most all of them here.
    check(
      'cats_coat_colours',
      sql`${t.coatColours} <@ array[${sqlList(COAT_COLOURS)}]::text[] and cardinality(${t.coatColours}) <= ${sql.raw(String(COAT_COLOURS.length))}`,
    ),
    check('cats_ear_tipped', sql`${t.earTipped} in (${sqlList(YES_NO_UNKNOWN)})`),
    check('cats_neutered', sql`${t.neutered} in (${sqlList(YES_NO_UNKNOWN)})`),
    check('cats_living', sql`${t.living} in (${sqlList(CAT_LIVING)})`),
    check('cats_home_latitude_range', sql`${t.homeLatitude} is null or ${t.homeLatitude} between -90 and 90`),
    check(
      'cats_home_longitude_range',
      sql`${t.homeLongitude} is null or ${t.homeLongitude} between -180 and 180`,
    ),
    check('cats_home_pair', sql`(${t.homeLatitude} is null) = (${t.homeLongitude} is null)`),
    check('cats_not_merged_into_itself', sql`${t.mergedInto} <> ${t.id}`),
    // The survivor's ON DELETE CASCADE finds the profiles merged into it by this.
    index('cats_merged_into_idx')
      .on(t.mergedInto)
      .where(sql`${t.mergedInto} is not null`),
  ],
);

/**
 * Where a stranger would place each cat (issue 26, the list nearest first): the cat's newest sighting
 * that anyone may see, when that sighting shows a place to people other than its author. "Anyone":
 * live, neither moderated nor by a suspended author, and not kept near a household cat's home
 * (sighting_kept_from with no viewer). Kept by triggers on posts and cats (migration 0032), so the near
 * list reads the cats nearest a point from this table's index instead of every cat's sightings.
 * A viewer whose own newest sighting of a cat may differ from this one (they took a picture of it, care
 * for it, hid its sighting, or share a block with a sighting's author) has that cat read the long way
 * (cats-nearest.repository.ts › catsSeenOtherwiseNear). No foreign key to the post: a deleted post is replaced by
 * the statement trigger that sees it go.
 */
export const catPlaces = pgTable(
  'cat_places',
  {
    catId: uuid('cat_id')
      .primaryKey()
      .references(() => cats.id, { onDelete: 'cascade' }),
    postId: uuid('post_id').notNull(),
    /** The sighting's author: whether they show their spots exactly is read from users at each ask. */
    userId: uuid('user_id').notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
  },
  // The near list reads the cats nearest a point first (cats-nearest.repository.ts › catsPlacedNearest): a GiST
  // index on the spot as a point hands rows out by distance (`<->`) without sorting the rest.
  (t) => [index('cat_places_point_idx').using('gist', sql`point(${t.longitude}, ${t.latitude})`)],
);

/**
 * Change log of what the near list's per-process caches hold (cats-near-store.ts): triggers (migration
 * 0041) add a row whenever something a cat's place, listing or page row, or a viewer's exceptions, may
 * depend on changes. `cat_id` names the cat whose stranger-visible data may have changed; a row without
 * one changed only some viewers' exceptions (a block, a hide, a group). Every row empties the
 * per-viewer cache. Pruned after a day, as map_changes; no foreign key: deleted cats are logged too.
 */
export const catListChanges = pgTable(
  'cat_list_changes',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    catId: uuid('cat_id'),
    /** The writing transaction: rows become visible out of order (see map_changes.xid). */
    xid: bigint('xid', { mode: 'number' })
      .notNull()
      .default(sql`(pg_current_xact_id()::text)::bigint`),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('cat_list_changes_xid_idx').on(t.xid),
    index('cat_list_changes_changed_at_idx').on(t.changedAt),
  ],
);

/** Who may edit a cat: its creator first, then whoever a caretaker adds. A cat keeps at least one. */
export const catCaretakers = pgTable(
  'cat_caretakers',
  {
    catId: uuid('cat_id')
      .notNull()
      .references(() => cats.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.catId, t.userId] }),
    // A person's cats, read from the index alone: the cats lists ask for them on every request (the cats
    // a viewer sees otherwise than a stranger, cats-nearest.repository.ts), and ON DELETE of users uses it too.
    index('cat_caretakers_user_idx').on(t.userId, t.catId),
  ],
);

/** Followers of a cat: its new sightings will notify them (the notification itself is a later slice). */
export const catFollows = pgTable(
  'cat_follows',
  {
    catId: uuid('cat_id')
      .notNull()
      .references(() => cats.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.catId, t.userId] }), index('cat_follows_user_idx').on(t.userId)],
);

export type CatRow = typeof cats.$inferSelect;

/**
 * 'This is Luna' (issue 26, "Linking sightings"): someone suggests which cat another person's picture
 * shows; its author accepts (the post is linked to the cat) or declines. One open suggestion per
 * picture and suggester.
 */
export const catSuggestions = pgTable(
  'cat_suggestions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    /** As suggested; a cat merged since is read as its survivor. */
    catId: uuid('cat_id')
      .notNull()
      .references(() => cats.id, { onDelete: 'cascade' }),
    suggestedBy: uuid('suggested_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'open', then 'accepted' or 'declined' by the post's author. */
    status: text('status').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('cat_suggestions_open_idx')
      .on(t.postId, t.suggestedBy)
      .where(sql`${t.status} = 'open'`),
    index('cat_suggestions_post_idx').on(t.postId, t.createdAt),
    index('cat_suggestions_cat_idx').on(t.catId),
    index('cat_suggestions_suggested_by_idx').on(t.suggestedBy),
    check('cat_suggestions_status', sql`${t.status} in ('open', 'accepted', 'declined')`),
    check('cat_suggestions_answered', sql`(${t.status} = 'open') = (${t.answeredAt} is null)`),
  ],
);

/**
 * A duplicate profile merged into the surviving one (issue 26): what moved is recorded in the three
 * tables below, so that an undo (within CAT_MERGE_UNDO_DAYS) moves exactly that back. At most one
 * merge of a duplicate is in force (not undone) at a time.
 */
export const catMerges = pgTable(
  'cat_merges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The surviving cat. */
    catId: uuid('cat_id')
      .notNull()
      .references(() => cats.id, { onDelete: 'cascade' }),
    duplicateCatId: uuid('duplicate_cat_id')
      .notNull()
      .references(() => cats.id, { onDelete: 'cascade' }),
    mergedBy: uuid('merged_by').references(() => users.id, { onDelete: 'set null' }),
    mergedAt: timestamp('merged_at', { withTimezone: true }).notNull().defaultNow(),
    undoneBy: uuid('undone_by').references(() => users.id, { onDelete: 'set null' }),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
    /**
     * The survivor had no home point and took the duplicate's (a household cat's sightings near its
     * home stay its caretakers' business after the merge); `livingBefore` is what an undo restores.
     */
    homeAdopted: boolean('home_adopted').notNull().default(false),
    livingBefore: text('living_before'),
  },
  (t) => [
    index('cat_merges_cat_idx').on(t.catId, t.mergedAt.desc()),
    index('cat_merges_duplicate_idx').on(t.duplicateCatId, t.mergedAt.desc()),
    uniqueIndex('cat_merges_in_force_idx')
      .on(t.duplicateCatId)
      .where(sql`${t.undoneAt} is null`),
    index('cat_merges_merged_by_idx')
      .on(t.mergedBy)
      .where(sql`${t.mergedBy} is not null`),
    index('cat_merges_undone_by_idx')
      .on(t.undoneBy)
      .where(sql`${t.undoneBy} is not null`),
    check('cat_merges_two_cats', sql`${t.catId} <> ${t.duplicateCatId}`),
    check('cat_merges_undone', sql`${t.undoneAt} is null or ${t.undoneAt} >= ${t.mergedAt}`),
    check('cat_merges_home', sql`${t.homeAdopted} = (${t.livingBefore} is not null)`),
  ],
);

/** The duplicate's sightings a merge moved to the survivor. */
export const catMergeSightings = pgTable(
  'cat_merge_sightings',
  {
    mergeId: uuid('merge_id')
      .notNull()
      .references(() => catMerges.id, { onDelete: 'cascade' }),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.mergeId, t.postId] }), index('cat_merge_sightings_post_idx').on(t.postId)],
);

/**
 * The duplicate's followers and caretakers a merge moved: `since` is when they began (an undo gives it
 * back), `added` whether the merge made them the survivor's (an undo takes only those away again).
 */
const mergedPeople = (name: string) =>
  pgTable(
    name,
    {
      mergeId: uuid('merge_id')
        .notNull()
        .references(() => catMerges.id, { onDelete: 'cascade' }),
      userId: uuid('user_id')
        .notNull()
        .references(() => users.id, { onDelete: 'cascade' }),
      since: timestamp('since', { withTimezone: true }).notNull(),
      added: boolean('added').notNull(),
    },
    (t) => [primaryKey({ columns: [t.mergeId, t.userId] }), index(`${name}_user_idx`).on(t.userId)],
  );
export const catMergeFollows = mergedPeople('cat_merge_follows');
export const catMergeCaretakers = mergedPeople('cat_merge_caretakers');

export type CatSuggestionRow = typeof catSuggestions.$inferSelect;
export type CatMergeRow = typeof catMerges.$inferSelect;
