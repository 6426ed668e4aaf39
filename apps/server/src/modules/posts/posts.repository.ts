/**
 * The listings' selection of visible posts (feed, profiles, explore, groups, a cat's sightings, single
 * posts), and the visible-user check a profile's listing starts with.
 */
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { isUuid } from '@cats/contracts';
import type { Executor } from '../../db/client.ts';
import { preparedPerDatabase } from '../../db/prepared.ts';
import { splitIds } from '../../db/raw-results.ts';
import { catCaretakers, cats, hiddenPosts, posts, users } from '../../db/schema/index.ts';
import { catMissingFor } from '../visibility/alert-visibility.ts';
import {
  commentShownTo,
  commentsReportedBy,
  notBlockedWith,
  postShownTo,
  sharedWithMember,
  usersBlockedWith,
} from '../visibility/visibility.ts';

/** Which posts a listing is about; visibility rules (hidden, blocked) always apply on top. */
export interface PostFilter {
  /** One author's posts (profiles). */
  authorId?: string;
  /**
   * Posts shared with this group. Returns nothing unless the viewer is a member of the group (checked
   * in the same query), so a listing by group is safe to call with any id.
   */
  groupId?: string;
  /** Only posts on a map: coordinates and the location switched on (in a group's listing too). */
  located?: boolean;
  /** Only these posts (single-post lookups). */
  postIds?: readonly string[];
  /** Keep the posts the viewer hid (their 'Hidden pictures' list); blocks still apply. */
  includeHidden?: boolean;
  /** The viewer's own trashed posts instead of live ones (the trash; with postIds). */
  trashed?: boolean;
  /** One cat's sightings (issue 26): posts linked to it, on posts_cat_timeline_idx. */
  catId?: string;
}

/** Keyset position: the last row of the previous page. createdAt keeps PostgreSQL's microseconds. */
export interface FeedCursor {
  createdAt: string;
  id: string;
}

export interface PostPaging {
  limit: number;
  /** Page-number paging (the spec's /feed/{page}). Ignored when a cursor is given. */
  offset?: number;
  cursor?: FeedCursor | null;
}

/** One post with everything its view needs, as seen by one viewer. */
export interface PostViewRow {
  id: string;
  userId: string;
  caption: string;
  catName: string | null;
  altText: string | null;
  editedAt: Date | null;
  latitude: number | null;
  longitude: number | null;
  showLocation: boolean;
  mediaKey: string;
  width: number;
  height: number;
  placeholder: string;
  createdAt: Date;
  /** created_at in UTC with microseconds, for cursors (a JS Date would drop them). */
  createdKey: string;
  username: string;
  profilePicKey: string | null;
  exactPublicLocation: boolean;
  likerIds: string[];
  commentCount: number;
  /** Groups the post is shared with; only filled for the post's owner. */
  groupIds: string[] | null;
  /** The viewer belongs to a group the post is shared with (location-rule.ts: they may see it exactly). */
  sharedWithViewer: boolean;
  /** The cat the post is linked to (issue 26), or null. */
  linkedCatId: string | null;
  linkedCatName: string | null;
  /** That cat's living and home point (cat-place.ts: a household cat's home stays unknown). */
  linkedCatLiving: string | null;
  linkedCatHomeLatitude: number | null;
  linkedCatHomeLongitude: number | null;
  /** The viewer cares for that cat. */
  viewerCaresForCat: boolean;
  /** The author cares for the linked household cat (cat-place.ts › hiddenByHome); false for others. */
  authorCaresForCat: boolean;
  /** That cat has an open alert the viewer may see (visibility/alert-visibility.ts, catMissingFor). */
  linkedCatMissing: boolean;
  /** Issue 27: 'pending_review' reaches only its author (the query leaves it out for anyone else). */
  moderation: string | null;
  /** Issue 27: a moderator hid its location; told to its owner alone (post-view.ts). */
  locationLocked: boolean;
}

/**
 * The single query behind the feed, profiles, explore and group listings: newest first, without posts
 * the viewer hid or by users the viewer blocked or who blocked the viewer. Fetches limit + 1 rows so
 * callers know whether another page exists. Ordered by (created_at, id) desc on posts_feed_idx /
 * posts_user_feed_idx, so cursor pages cost the same at any depth.
 *
 * Listings run as prepared statements, one per shape of filter and paging (a dozen in use): drizzle
 * builds the SQL text once instead of on every request, and PostgreSQL can keep the plan per
 * connection. Lookups by post ids pass them as one array parameter, so they too have one shape.
 */
export async function selectVisiblePosts(
  db: Executor,
  viewerId: string,
  filter: PostFilter,
  paging: PostPaging,
): Promise<PostViewRow[]> {
  // A malformed id matches nothing (and must not reach PostgreSQL's uuid parser as a 500).
  const ids = [viewerId, filter.authorId, filter.groupId, filter.catId, ...(filter.postIds ?? [])];
  if (ids.some((id) => id !== undefined && !isUuid(id))) return [];
  const rows = await preparedVisiblePosts(db, filter, paging).execute(
    placeholderValues(viewerId, filter, paging),
  );
  // A lookup by ids has no LIMIT in the SQL (the ids bound it); the contract holds all the same.
  return rows.slice(0, paging.limit + 1).map((row) => ({
    ...row,
    likerIds: splitIds(row.likerIds),
    groupIds: row.groupIds === null || row.groupIds === undefined ? null : splitIds(row.groupIds),
  }));
}

/** The query itself with its values bound, unexecuted (tests EXPLAIN it). Ids must be valid UUIDs. */
export function visiblePostsQuery(db: Executor, viewerId: string, filter: PostFilter, paging: PostPaging) {
  const values = placeholderValues(viewerId, filter, paging);
  // An array inside drizzle's sql`` becomes a list of parameters; sql.param keeps it one (an array).
  return composeVisiblePosts(db, filter, paging, (name) => {
    const value = values[name];
    return Array.isArray(value) ? sql.param(value) : value;
  });
}

/** The values a listing's placeholders take. */
type VisiblePostsValues = {
  viewerId: string;
  authorId?: string | undefined;
  groupId?: string | undefined;
  catId?: string | undefined;
  postIds?: readonly string[] | undefined;
  cursorCreatedAt?: string | undefined;
  cursorId?: string | undefined;
  offset?: number | undefined;
};
type Bind = (name: keyof VisiblePostsValues) => unknown;

function placeholderValues(viewerId: string, filter: PostFilter, paging: PostPaging): VisiblePostsValues {
  return {
    viewerId,
    authorId: filter.authorId,
    groupId: filter.groupId,
    catId: filter.catId,
    postIds: filter.postIds,
    cursorCreatedAt: paging.cursor?.createdAt,
    cursorId: paging.cursor?.id,
    offset: paging.offset,
  };
}

/** Whether the query has an OFFSET clause (page-number paging past page 1). */
const usesOffset = (paging: PostPaging) => !paging.cursor && Boolean(paging.offset);

type PreparedVisiblePosts = ReturnType<ReturnType<typeof composeVisiblePosts>['prepare']>;
/** Each database's listings by shape, prepared on first use. */
const preparedByShape = preparedPerDatabase((_db: Executor) => new Map<string, PreparedVisiblePosts>());

function preparedVisiblePosts(db: Executor, filter: PostFilter, paging: PostPaging): PreparedVisiblePosts {
  // The shape decides the SQL text; the values all go in as parameters.
  const shape = [
    filter.authorId ? 'a' : '',
    filter.groupId ? 'g' : '',
    filter.located ? 'l' : '',
    filter.postIds ? 'i' : '',
    filter.includeHidden ? 'h' : '',
    filter.trashed ? 't' : '',
    filter.catId ? 'k' : '',
    paging.cursor ? 'c' : '',
    usesOffset(paging) ? 'o' : '',
    filter.postIds ? '' : `_${paging.limit}`,
  ].join('');
  const byShape = preparedByShape(db);
  let prepared = byShape.get(shape);
  if (!prepared) {
    prepared = composeVisiblePosts(db, filter, paging, (name) => sql.placeholder(name)).prepare(
      `visible_posts_${shape}`,
    );
    byShape.set(shape, prepared);
  }
  return prepared;
}

/**
 * The LIMIT as a constant in the SQL text, not a parameter. With LIMIT $n PostgreSQL's generic plan for
 * a prepared statement has to guess the row count (10 % of the table) and picks hash joins over all
 * posts: 92 ms for a page that takes 1 ms. With the constant the generic plan is the custom one, and it
 * is planned once per connection instead of on every request (1.1 ms of PostgreSQL's CPU; plans in
 * docs/performance.md). drizzle's typing only allows a number or a placeholder here; its dialect
 * renders an SQL chunk as written.
 */
function literalLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`invalid limit ${limit}`);
  return sql.raw(String(limit)) as unknown as number;
}

/**
 * Builds the listing with every value supplied by `bind`: the values themselves (a one-off query) or
 * placeholders (a prepared statement). Both give the same SQL text.
 */
function composeVisiblePosts(db: Executor, filter: PostFilter, paging: PostPaging, bind: Bind) {
  const viewer = bind('viewerId');
  // NOT IN over the viewer's few hidden posts and blocks: each list is read once into a hash table, so
  // skipping rows (OFFSET) costs a hash probe per row instead of two index lookups (docs/performance.md).
  // Both columns are NOT NULL, so NOT IN means the same as NOT EXISTS.
  const conditions: SQL[] = [
    // Trashed posts are in no listing, their owner's included (and outside both feed indexes); only
    // the trash shows them, to their owner alone.
    filter.trashed
      ? sql`${posts.deletedAt} is not null and ${posts.userId} = ${viewer}`
      : sql`${posts.deletedAt} is null`,
    ...(filter.includeHidden ? [] : [sql`${posts.id} not in (${hiddenPostIdsOf(viewer)})`]),
    sql`${posts.userId} not in (${usersBlockedWith(viewer)})`,
    // Moderated posts and those of suspended authors (issue 27): rare, so a filter after the index scan.
    postShownTo(viewer),
  ];
  if (filter.authorId) conditions.push(sql`${posts.userId} = ${bind('authorId')}`);
  if (filter.postIds) conditions.push(sql`${posts.id} = any(${bind('postIds')}::uuid[])`);
  if (filter.catId) {
    // A household cat's sightings near its home are linked to it for its caretakers and each
    // sighting's author only (migration 0018).
    conditions.push(sql`${posts.catId} = ${bind('catId')}`);
    conditions.push(
      sql`not sighting_kept_from(${posts.catId}, ${posts.userId}, ${posts.latitude}, ${posts.longitude}, ${posts.showLocation}, ${viewer})`,
    );
  }
  if (filter.groupId) {
    const group = bind('groupId');
    conditions.push(
      sql`exists (select 1 from post_groups pg where pg.post_id = ${posts.id} and pg.group_id = ${group})`,
      sql`exists (select 1 from group_members gm where gm.group_id = ${group} and gm.user_id = ${viewer})`,
    );
  }
  // A switched-off location is on no map, the group's included (location-rule.ts).
  if (filter.located) {
    conditions.push(
      sql`${posts.showLocation} and ${posts.latitude} is not null and ${posts.longitude} is not null`,
    );
  }
  if (paging.cursor) {
    conditions.push(
      sql`(${posts.createdAt}, ${posts.id}) < (${bind('cursorCreatedAt')}::timestamptz, ${bind('cursorId')}::uuid)`,
    );
  }
  const deepFeed =
    usesOffset(paging) && isWholeFeed(filter) ? deepFeedPage(db, viewer, bind('offset')) : null;
  if (deepFeed) conditions.push(deepFeed.fromBoundary);

  // The page's rows first, in index order; the per-post subqueries below (likers, comment count,
  // groups) then run for those rows only, not for every row an OFFSET skips (page 200 skips 3,980).
  let pageQuery = db
    .select({ id: posts.id, createdAt: posts.createdAt })
    .from(posts)
    .where(and(...conditions))
    // NULLS LAST as in posts_feed_idx / posts_user_feed_idx (drizzle's desc() index): with the default
    // NULLS FIRST the planner would not use the index's order and would sort every candidate row.
    .orderBy(sql`${posts.createdAt} desc nulls last`, sql`${posts.id} desc nulls last`)
    .$dynamic();
  if (!filter.postIds) pageQuery = pageQuery.limit(literalLimit(paging.limit + 1));
  // drizzle's typing only allows a number or a placeholder as OFFSET; its dialect renders SQL as written.
  if (deepFeed) pageQuery = pageQuery.offset(deepFeed.offset as unknown as number);
  else if (usesOffset(paging)) pageQuery = pageQuery.offset(bind('offset') as number);
  const page = pageQuery.as('page');

  return (
    (deepFeed ? db.with(...deepFeed.ctes) : db)
      .select({
        id: posts.id,
        userId: posts.userId,
        caption: posts.caption,
        catName: posts.catName,
        altText: posts.altText,
        editedAt: posts.editedAt,
        latitude: posts.latitude,
        longitude: posts.longitude,
        showLocation: posts.showLocation,
        mediaKey: posts.mediaKey,
        width: posts.width,
        height: posts.height,
        placeholder: posts.placeholder,
        createdAt: posts.createdAt,
        createdKey: sql<string>`to_char(${posts.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
        username: users.username,
        profilePicKey: users.profilePicKey,
        exactPublicLocation: users.exactPublicLocation,
        // A block leaves no trace (issue 23): no liker the viewer shares a block with, and a count of the
        // comments getComments shows the viewer (it leaves out the same authors, and comments they reported).
        likerIds: sql<string>`(select coalesce(string_agg(l.user_id::text, ',' order by l.created_at, l.user_id), '')
        from likes l where l.post_id = ${posts.id} and l.user_id not in (${usersBlockedWith(viewer)}))`,
        commentCount: sql<number>`(select count(*) from comments c
        where c.post_id = ${posts.id} and c.user_id not in (${usersBlockedWith(viewer)})
          and c.id not in (${commentsReportedBy(viewer)})
          and ${commentShownTo(viewer, 'c')})`.mapWith(Number),
        groupIds: sql<string | null>`case when ${posts.userId} = ${viewer} then
        (select coalesce(string_agg(pg.group_id::text, ',' order by pg.shared_at, pg.group_id), '')
          from post_groups pg where pg.post_id = ${posts.id}) end`,
        sharedWithViewer: sql<boolean>`${sharedWithMember(viewer, posts.id)}`.mapWith(Boolean),
        linkedCatId: cats.id,
        linkedCatName: cats.name,
        linkedCatLiving: cats.living,
        linkedCatHomeLatitude: cats.homeLatitude,
        linkedCatHomeLongitude: cats.homeLongitude,
        // Asked only of posts linked to a household cat with a home point (a primary-key lookup).
        viewerCaresForCat:
          sql<boolean>`case when ${cats.homeLatitude} is not null and ${cats.living} = 'household'
          then exists (select 1 from ${catCaretakers} vcc where vcc.cat_id = ${cats.id} and vcc.user_id = ${viewer})
          else false end`.mapWith(Boolean),
        // A probe of cat_caretakers_user_idx (user_id, cat_id), for the same posts only.
        authorCaresForCat:
          sql<boolean>`case when ${cats.homeLatitude} is not null and ${cats.living} = 'household'
          then exists (select 1 from ${catCaretakers} acc where acc.user_id = ${posts.userId} and acc.cat_id = ${cats.id})
          else false end`.mapWith(Boolean),
        // The card says so when the cat is missing: an alert the viewer may see (the cats lists' rule),
        // one probe of missing_alerts_open_cat_idx for a linked post.
        linkedCatMissing: sql<boolean>`case when ${cats.id} is null then false
          else ${catMissingFor(viewer, sql`${cats.id}`)} end`.mapWith(Boolean),
        moderation: posts.moderation,
        locationLocked: posts.locationLocked,
      })
      .from(page)
      .innerJoin(posts, eq(posts.id, page.id))
      .innerJoin(users, eq(users.id, posts.userId))
      // A cat a moderator removed (issue 27) is linked to no card, like a deleted one.
      .leftJoin(cats, and(eq(cats.id, posts.catId), isNull(cats.removedAt)))
      // Sorts the page's rows only (at most limit + 1).
      .orderBy(sql`${page.createdAt} desc nulls last`, sql`${page.id} desc nulls last`)
  );
}

/** The posts the viewer hid, as a sub-select of their ids. */
const hiddenPostIdsOf = (viewer: unknown) =>
  sql`select h.post_id from ${hiddenPosts} h where h.user_id = ${viewer}`;

/** The feed itself: every post, less the viewer's hidden ones and those behind a block. */
const isWholeFeed = (filter: PostFilter) =>
  !filter.authorId &&
  !filter.groupId &&
  !filter.located &&
  !filter.postIds &&
  !filter.includeHidden &&
  !filter.trashed &&
  !filter.catId;

/**
 * A deep page of the whole feed by page number (`/feed/200` skips 3,980 posts) without testing every
 * skipped post against the viewer's hidden posts and blocks. Those tests were most of the skip: on the
 * bench's PostgreSQL dataset the filtered OFFSET walk of page 200 took 0.83-0.92 ms, the same walk
 * without them 0.33 ms (pgbench, one client). So:
 *
 * 1. `feed_boundary`: the post at the offset in the unfiltered feed of live posts (index-only on
 *    posts_feed_idx, which holds only those; trashed posts count nowhere below either);
 * 2. `feed_skipped`: how many of the posts before it the viewer does not see: their hidden posts, the
 *    posts of users they share a block with and the moderated posts not shown to them (issue 27;
 *    posts_moderated_idx holds only those few) that are newer than the boundary (a few index lookups);
 * 3. the page: from the boundary on, filtered as usual, skipping that many more visible posts.
 *
 * Posts before the boundary that the viewer sees are offset - skipped, so skipping `skipped` more from
 * the boundary lands on the same post as the filtered OFFSET, in the same snapshot (one statement).
 * 0.41 ms for page 200; `feed.test.ts` compares both ways over hides and blocks in either direction.
 *
 * The offset is a sub-select, not a bare parameter: PostgreSQL's generic plan guesses that a parameter
 * OFFSET skips a tenth of the table, so it kept planning this statement anew for every request (~1 ms
 * each; `pg_prepared_statements`: 0 generic, 9 custom). Guessed alike in both plans, the generic plan is
 * kept: 0.7 ms a run in psql against 1.1 ms for the filtered OFFSET.
 */
function deepFeedPage(db: Executor, viewer: unknown, offset: unknown) {
  const boundary = db.$with('feed_boundary', { createdAt: sql`created_at`, id: sql`id` }).as(
    sql`select p.created_at, p.id from ${posts} p where p.deleted_at is null
      order by p.created_at desc nulls last, p.id desc nulls last offset (select ${offset}::int) limit 1`,
  );
  // The boundary's (created_at, id), in the feed's order: newer posts compare greater.
  const boundaryKey = sql.raw('((select created_at from feed_boundary), (select id from feed_boundary))');
  const skipped = db.$with('feed_skipped', { n: sql`n` }).as(
    sql`select count(*) as n from (
      select p.id from ${posts} p
        where p.id in (${hiddenPostIdsOf(viewer)}) and p.deleted_at is null
          and (p.created_at, p.id) > ${boundaryKey}
      union
      select p.id from ${posts} p
        where p.user_id in (${usersBlockedWith(viewer)}) and p.deleted_at is null
          and (p.created_at, p.id) > ${boundaryKey}
      union
      select p.id from ${posts} p
        where (p.moderation is not null or p.author_suspended) and p.deleted_at is null
          and (p.created_at, p.id) > ${boundaryKey} and not ${postShownTo(viewer, 'p')}
    ) excluded`,
  );
  return {
    ctes: [boundary, skipped] as const,
    fromBoundary: sql`(${posts.createdAt}, ${posts.id}) <= ${boundaryKey}`,
    offset: sql`(select n from feed_skipped)`,
  };
}

/** A user as the viewer may see them: null when unknown or when either blocked the other. */
export async function findVisibleUser(db: Executor, userId: string, viewerId: string) {
  const [row] = await db
    .select({ id: users.id, exactPublicLocation: users.exactPublicLocation })
    .from(users)
    .where(and(eq(users.id, userId), notBlockedWith(viewerId, users.id)));
  return row ?? null;
}
