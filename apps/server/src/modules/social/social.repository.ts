import { and, asc, desc, eq, isNull, sql, type AnyColumn } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedPerDatabase, preparedSql } from '../../db/prepared.ts';
import { rowsOf, splitIds, toBoolean } from '../../db/raw-results.ts';
import { blocks, comments, hiddenPosts, likes, posts, users } from '../../db/schema/index.ts';
import {
  commentShownTo,
  commentsReportedBy,
  notBlockedWith,
  postShownTo,
  postVisibleTo,
  usersBlockedWith,
} from '../visibility/visibility.ts';

const togglePostId = sql.placeholder('postId');
const toggleViewerId = sql.placeholder('viewerId');
const toggleLikeStatement = preparedSql(
  'toggle_like',
  sql`with target as (
      select ${posts.id} as id from ${posts} where ${posts.id} = ${togglePostId} and ${postVisibleTo(toggleViewerId)}
    ), added as (
      insert into ${likes} (post_id, user_id) select id, ${toggleViewerId} from target
      on conflict do nothing returning user_id, created_at
    ), removed as (
      delete from ${likes} l using target
      where l.post_id = target.id and l.user_id = ${toggleViewerId} and not exists (select 1 from added)
      returning l.user_id
    )
    select exists (select 1 from target) as visible,
      (select count(*) from added) + (select count(*) from removed) as changed,
      (select coalesce(string_agg(x.user_id::text, ',' order by x.created_at, x.user_id), '') from (
        select l.user_id, l.created_at from ${likes} l
          where l.post_id = ${togglePostId} and l.user_id not in (select user_id from removed)
            and l.user_id not in (${usersBlockedWith(toggleViewerId)})
        union all select user_id, created_at from added) x) as likers`,
);

/**
 * Toggles the viewer's like on a post they may see, and returns who likes it now (oldest first, less
 * the users the viewer shares a block with, as every listing shows it), in
 * one statement: adds the like when absent, removes it when present (the (post, user) primary key
 * keeps one). Null when the post does not exist or is hidden or blocked for the viewer.
 *
 * One round trip instead of a transaction of five (begin, access check, insert or delete, likers,
 * commit): under 50 connections each round trip costs a context switch on both sides, and the like
 * p99 followed their number (docs/performance.md). All CTEs see one snapshot, so the final list is the
 * likes before the statement, less the one removed, plus the one added.
 */
export async function toggleVisibleLike(
  ex: Executor,
  postId: string,
  viewerId: string,
): Promise<string[] | null> {
  const [row] = rowsOf(await toggleLikeStatement(ex).execute({ postId, viewerId }));
  if (!row || !toBoolean(row.visible)) return null;
  if (Number(row.changed) === 0) {
    // A concurrent toggle by the same viewer committed its like after this statement's snapshot: the
    // insert met it (conflict) but the delete, reading the snapshot, could not. The like exists now,
    // so the toggle removes it, in statements that see it.
    await ex.delete(likes).where(and(eq(likes.postId, postId), eq(likes.userId, viewerId)));
    return likerIds(ex, postId, viewerId);
  }
  return splitIds(typeof row.likers === 'string' ? row.likers : '');
}

/** The post's greatCat as the viewer sees it: who liked it, oldest like first, less blocked users. */
async function likerIds(ex: Executor, postId: string, viewerId: string): Promise<string[]> {
  const rows = await ex
    .select({ userId: likes.userId })
    .from(likes)
    .where(and(eq(likes.postId, postId), notBlockedWith(viewerId, likes.userId)))
    .orderBy(asc(likes.createdAt), asc(likes.userId));
  return rows.map((r) => r.userId);
}

export interface CommentRow {
  id: string;
  body: string;
  createdAt: Date;
  /** created_at in UTC with microseconds: the page's keyset (a JS Date would drop them). */
  createdKey: string;
  author: { id: string; username: string; profilePicKey: string | null };
}

export interface CommentPage {
  /** Oldest first, as the panel shows them. */
  rows: CommentRow[];
  /** Whether earlier comments exist before the page's first. */
  hasEarlier: boolean;
  /** Every comment on the post the viewer sees (the card's count). */
  total: number;
}

/** A (created_at, id) position in a post's comments or likes, from an opaque cursor. */
export interface KeysetPosition {
  createdAt: string;
  id: string;
}

const createdKeyOf = (column: AnyColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const pagePostId = sql.placeholder('postId');
const pageViewerId = sql.placeholder('viewerId');

/**
 * The newest `limit` comments of a post (before a position, for earlier pages), newest first, without
 * those of users the viewer shares a block with; each row also carries the post's visible total,
 * computed once per statement (an uncorrelated sub-select). comments_post_created_idx walks backwards
 * from the position, so a page costs the same on a post of 5 comments as on one of 5,000.
 */
function commentPageQuery(ex: Executor, name: string, withPosition: boolean) {
  const conditions = [
    eq(comments.postId, pagePostId),
    sql`${comments.userId} not in (${usersBlockedWith(pageViewerId)})`,
    // The reporter stops seeing a comment they reported (issue 27).
    sql`${comments.id} not in (${commentsReportedBy(pageViewerId)})`,
    commentShownTo(pageViewerId),
  ];
  if (withPosition) {
    conditions.push(
      sql`(${comments.createdAt}, ${comments.id}) < (${sql.placeholder('beforeAt')}::timestamptz, ${sql.placeholder('beforeId')}::uuid)`,
    );
  }
  return ex
    .select({
      id: comments.id,
      body: comments.body,
      createdAt: comments.createdAt,
      createdKey: createdKeyOf(comments.createdAt),
      author: { id: users.id, username: users.username, profilePicKey: users.profilePicKey },
      total: sql<number>`(select count(*) from comments c
        where c.post_id = ${pagePostId} and c.user_id not in (${usersBlockedWith(pageViewerId)})
          and c.id not in (${commentsReportedBy(pageViewerId)})
          and ${commentShownTo(pageViewerId, 'c')})`.mapWith(Number),
    })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.userId))
    .where(and(...conditions))
    .orderBy(desc(comments.createdAt), desc(comments.id))
    .limit(sql.placeholder('limit'))
    .prepare(name);
}

const newestCommentsQuery = preparedPerDatabase((ex: Executor) =>
  commentPageQuery(ex, 'newest_comments', false),
);
const earlierCommentsQuery = preparedPerDatabase((ex: Executor) =>
  commentPageQuery(ex, 'earlier_comments', true),
);

const countCommentsQuery = preparedPerDatabase((ex: Executor) =>
  ex
    .select({ total: sql<number>`count(*)`.mapWith(Number) })
    .from(comments)
    .where(
      and(
        eq(comments.postId, pagePostId),
        sql`${comments.userId} not in (${usersBlockedWith(pageViewerId)})`,
        sql`${comments.id} not in (${commentsReportedBy(pageViewerId)})`,
        commentShownTo(pageViewerId),
      ),
    )
    .prepare('count_comments'),
);

/**
 * One page of a post's comments as the viewer sees them: the newest `pageSize`, or the `pageSize`
 * before `before`; fetches one more to tell whether earlier ones exist.
 */
export async function listCommentPage(
  ex: Executor,
  postId: string,
  viewerId: string,
  pageSize: number,
  before: KeysetPosition | null,
): Promise<CommentPage> {
  const limit = pageSize + 1;
  const found = before
    ? await earlierCommentsQuery(ex).execute({
        postId,
        viewerId,
        limit,
        beforeAt: before.createdAt,
        beforeId: before.id,
      })
    : await newestCommentsQuery(ex).execute({ postId, viewerId, limit });
  let total = found[0]?.total;
  if (total === undefined) {
    // An empty page carries no row to read the total from: none at all, or none before the cursor.
    total = before ? ((await countCommentsQuery(ex).execute({ postId, viewerId }))[0]?.total ?? 0) : 0;
  }
  const rows = found.slice(0, pageSize).map(({ total: _total, ...row }) => row);
  return { rows: rows.reverse(), hasEarlier: found.length > pageSize, total };
}

/** One user who liked a post, with the like's keyset. */
export interface LikerRow {
  id: string;
  username: string;
  profilePicKey: string | null;
  likedKey: string;
}

/**
 * Who liked a post, newest like first, without the users the viewer shares a block with; `limit` + 1
 * rows so the caller knows whether another page follows. The (post_id, user_id) primary key finds the
 * post's likes; their number is already bounded by what every post view carries (greatCat).
 */
export async function listLikers(
  ex: Executor,
  postId: string,
  viewerId: string,
  limit: number,
  after: KeysetPosition | null,
): Promise<LikerRow[]> {
  const conditions = [eq(likes.postId, postId), sql`${likes.userId} not in (${usersBlockedWith(viewerId)})`];
  if (after) {
    conditions.push(
      sql`(${likes.createdAt}, ${likes.userId}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`,
    );
  }
  return ex
    .select({
      id: users.id,
      username: users.username,
      profilePicKey: users.profilePicKey,
      likedKey: createdKeyOf(likes.createdAt),
    })
    .from(likes)
    .innerJoin(users, eq(users.id, likes.userId))
    .where(and(...conditions))
    .orderBy(desc(likes.createdAt), desc(likes.userId))
    .limit(limit + 1);
}

const commentPostId = sql.placeholder('postId');
const commentViewerId = sql.placeholder('viewerId');
const insertCommentStatement = preparedSql(
  'insert_visible_comment',
  sql`with target as (
      select ${posts.id} as id, ${posts.userId} as owner_id from ${posts}
      where ${posts.id} = ${commentPostId} and ${postVisibleTo(commentViewerId)}
    ), added as (
      insert into ${comments} (post_id, user_id, body) select id, ${commentViewerId}, ${sql.placeholder('body')} from target
      returning post_id
    )
    select target.owner_id from target join added on added.post_id = target.id`,
);

/**
 * Adds the viewer's comment to a post they may see, checking visibility in the same statement. The
 * post's owner, or null when the post does not exist or is hidden or blocked for the viewer.
 */
export async function insertVisibleComment(
  ex: Executor,
  postId: string,
  viewerId: string,
  body: string,
): Promise<{ postOwnerId: string } | null> {
  const [row] = rowsOf(await insertCommentStatement(ex).execute({ postId, viewerId, body }));
  return row ? { postOwnerId: String(row.owner_id) } : null;
}

export interface CommentAccess {
  id: string;
  postId: string;
  authorId: string;
  postOwnerId: string;
  /** Whether the viewer sees the comment: post visible and no block with its author. */
  visible: boolean;
}

export async function findCommentAccess(
  ex: Executor,
  commentId: string,
  viewerId: string,
): Promise<CommentAccess | null> {
  const [row] = await ex
    .select({
      id: comments.id,
      postId: comments.postId,
      authorId: comments.userId,
      postOwnerId: posts.userId,
      visible: sql<boolean>`(${postVisibleTo(viewerId)} and ${notBlockedWith(viewerId, comments.userId)} and ${commentShownTo(viewerId)})`,
    })
    .from(comments)
    // A comment on a trashed post waits there with it (not even its author deletes it meanwhile).
    .innerJoin(posts, and(eq(posts.id, comments.postId), isNull(posts.deletedAt)))
    .where(eq(comments.id, commentId));
  return row ?? null;
}

export async function deleteComment(ex: Executor, commentId: string): Promise<void> {
  await ex.delete(comments).where(eq(comments.id, commentId));
}

export async function hidePost(ex: Executor, userId: string, postId: string): Promise<void> {
  await ex.insert(hiddenPosts).values({ userId, postId }).onConflictDoNothing();
}

export async function unhidePost(ex: Executor, userId: string, postId: string): Promise<void> {
  await ex.delete(hiddenPosts).where(and(eq(hiddenPosts.userId, userId), eq(hiddenPosts.postId, postId)));
}

export interface HiddenPostRef {
  postId: string;
  /** When it was hidden, UTC with microseconds: the keyset of the list (a JS Date would drop them). */
  hiddenKey: string;
}

/**
 * One page of the posts the viewer hid, newest hide first, fetching limit + 1 to tell whether another
 * page exists. Posts by users the viewer shares a block with are left out (a block leaves no trace).
 * The (user_id, post_id) primary key finds the viewer's rows; a person hides few posts, so sorting
 * them is cheap.
 */
export async function listHiddenPostIds(
  ex: Executor,
  viewerId: string,
  paging: { limit: number; offset: number; cursor: { createdAt: string; id: string } | null },
): Promise<HiddenPostRef[]> {
  const conditions = [
    eq(hiddenPosts.userId, viewerId),
    sql`${posts.userId} not in (${usersBlockedWith(viewerId)})`,
    postShownTo(viewerId),
  ];
  if (paging.cursor) {
    conditions.push(
      sql`(${hiddenPosts.createdAt}, ${hiddenPosts.postId}) < (${paging.cursor.createdAt}::timestamptz, ${paging.cursor.id}::uuid)`,
    );
  }
  return ex
    .select({
      postId: hiddenPosts.postId,
      hiddenKey: sql<string>`to_char(${hiddenPosts.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(hiddenPosts)
    .innerJoin(posts, eq(posts.id, hiddenPosts.postId))
    .where(and(...conditions))
    .orderBy(desc(hiddenPosts.createdAt), desc(hiddenPosts.postId))
    .limit(paging.limit + 1)
    .offset(paging.cursor ? 0 : paging.offset);
}

export async function userExists(ex: Executor, userId: string): Promise<boolean> {
  const [row] = await ex.select({ id: users.id }).from(users).where(eq(users.id, userId));
  return row !== undefined;
}

export async function blockUser(ex: Executor, blockerId: string, blockedId: string): Promise<void> {
  await ex.insert(blocks).values({ blockerId, blockedId }).onConflictDoNothing();
}

export async function unblockUser(ex: Executor, blockerId: string, blockedId: string): Promise<void> {
  await ex.delete(blocks).where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)));
}

/** Users the blocker blocked, most recent block first. */
export async function listBlockedUsers(
  ex: Executor,
  blockerId: string,
): Promise<{ id: string; username: string; profilePicKey: string | null }[]> {
  return ex
    .select({ id: users.id, username: users.username, profilePicKey: users.profilePicKey })
    .from(blocks)
    .innerJoin(users, eq(users.id, blocks.blockedId))
    .where(eq(blocks.blockerId, blockerId))
    .orderBy(sql`${blocks.createdAt} desc`, asc(users.id));
}

/**
 * Flips showLocation on the owner's post when it has coordinates (the check constraints keep stored
 * ones in range and paired). null when no row matched: unknown post, another owner, no coordinates, or
 * a location a moderator hid.
 */
export async function toggleShowLocation(
  ex: Executor,
  postId: string,
  ownerId: string,
): Promise<{ id: string; showLocation: boolean } | null> {
  const [row] = await ex
    .update(posts)
    .set({ showLocation: sql`not ${posts.showLocation}` })
    .where(
      and(
        eq(posts.id, postId),
        eq(posts.userId, ownerId),
        isNull(posts.deletedAt),
        // A location a moderator hid stays hidden until the action is restored (issue 27).
        eq(posts.locationLocked, false),
        sql`${posts.latitude} is not null and ${posts.longitude} is not null`,
      ),
    )
    .returning({ id: posts.id, showLocation: posts.showLocation });
  return row ?? null;
}

/** PostgreSQL's foreign key violation, e.g. a like or comment on a post deleted a moment before. */
export function isForeignKeyViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23503') return true;
  }
  return false;
}
