import {
  COMMENTS_PAGE_SIZE,
  isUuid,
  LIKERS_PAGE_SIZE,
  type CommentsResponse,
  type LikersResponse,
  type PagedPostsResponse,
  type UserSummary,
} from '@cats/contracts';
import type { Database } from '../../db/client.ts';
import { badRequest, forbidden, notFound } from '../../lib/http-errors.ts';
import { toUserSummary } from '../visibility/user-summary.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { decodeCursor, encodeCursor, toPostView } from '../posts/post-view.ts';
import { selectVisiblePosts } from '../posts/posts.repository.ts';
import { findPostAccess, type PostAccess } from '../visibility/post-access.ts';
import * as repo from './social.repository.ts';

export interface SocialDeps {
  db: Database;
  /** S3_PUBLIC_URL or undefined: where media URLs point. */
  publicBase: string | undefined;
}

export const SOCIAL_MESSAGES = {
  postNotFound: 'Post not found',
  commentNotFound: 'Comment not found',
  userNotFound: 'User not found',
  cannotDeleteComment: 'You can only delete your own comments or comments on your posts',
  cannotHideOwnPost: 'You cannot hide your own post',
  postHidden: 'Post hidden',
  postUnhidden: 'Post unhidden',
  cannotBlockSelf: 'You cannot block yourself',
  userBlocked: 'User blocked',
  notPostOwner: 'You can only change the location of your own posts',
  noGpsData: 'No GPS data available',
  locationLocked:
    'A moderator hid the location of this picture. You can read why and appeal in Settings, under Moderation.',
  invalidCharacters: 'Comment contains invalid characters',
} as const;

/** Malformed ids are answered exactly like unknown ones (issue 5 point 6). */
function requireId(id: string, message: string): string {
  if (!isUuid(id)) throw notFound(message);
  return id.toLowerCase();
}

async function visiblePost(deps: SocialDeps, viewer: AuthContext, rawPostId: string): Promise<PostAccess> {
  const postId = requireId(rawPostId, SOCIAL_MESSAGES.postNotFound);
  const post = await findPostAccess(deps.db, postId, viewer.userId);
  // A post hidden by the viewer, or by someone they share a block with, does not exist for them.
  if (!post?.visible) throw notFound(SOCIAL_MESSAGES.postNotFound);
  return post;
}

export async function toggleLike(
  deps: SocialDeps,
  viewer: AuthContext,
  rawPostId: string,
): Promise<{ _id: string; greatCat: string[] }> {
  const postId = requireId(rawPostId, SOCIAL_MESSAGES.postNotFound);
  let likers: string[] | null;
  try {
    likers = await repo.toggleVisibleLike(deps.db, postId, viewer.userId);
  } catch (err) {
    // The post was deleted between the check and the insert.
    if (repo.isForeignKeyViolation(err)) throw notFound(SOCIAL_MESSAGES.postNotFound);
    throw err;
  }
  // A post hidden by the viewer, or by someone they share a block with, does not exist for them.
  if (!likers) throw notFound(SOCIAL_MESSAGES.postNotFound);
  return { _id: postId, greatCat: likers };
}

/**
 * A page of the post's comments as the viewer sees them: the newest, or those before an opaque cursor
 * (issue 24). Every write answers the newest page, which replaces the panel's list (spec section 4).
 */
async function commentsOf(
  deps: SocialDeps,
  viewer: AuthContext,
  post: { id: string; userId: string },
  before: repo.KeysetPosition | null = null,
): Promise<CommentsResponse> {
  const page = await repo.listCommentPage(deps.db, post.id, viewer.userId, COMMENTS_PAGE_SIZE, before);
  const first = page.rows[0];
  return {
    postId: post.id,
    comments: page.rows.map((row) => ({
      _id: row.id,
      comment: row.body,
      user: toUserSummary(viewer, row.author, deps.publicBase),
      createdAt: row.createdAt.toISOString(),
      canDelete: row.author.id === viewer.userId || post.userId === viewer.userId,
    })),
    commentCount: page.total,
    info: {
      before: page.hasEarlier && first ? encodeCursor({ createdKey: first.createdKey, id: first.id }) : null,
    },
  };
}

export async function getComments(
  deps: SocialDeps,
  viewer: AuthContext,
  rawPostId: string,
  rawBefore?: string,
): Promise<CommentsResponse> {
  // A bad cursor is refused before anything is read, whatever the post.
  const before = rawBefore ? decodeCursor(rawBefore) : null;
  return commentsOf(deps, viewer, await visiblePost(deps, viewer, rawPostId), before);
}

/**
 * Who liked a post the viewer may see, newest like first, paged by an opaque cursor (issue 24, 'Liked
 * by'). Users the viewer shares a block with are left out, as from greatCat.
 */
export async function likers(
  deps: SocialDeps,
  viewer: AuthContext,
  rawPostId: string,
  rawCursor?: string,
): Promise<LikersResponse> {
  const after = rawCursor ? decodeCursor(rawCursor) : null;
  const post = await visiblePost(deps, viewer, rawPostId);
  const rows = await repo.listLikers(deps.db, post.id, viewer.userId, LIKERS_PAGE_SIZE, after);
  const page = rows.slice(0, LIKERS_PAGE_SIZE);
  const last = page.at(-1);
  return {
    postId: post.id,
    users: page.map((row) => toUserSummary(viewer, row, deps.publicBase)),
    info: {
      nextCursor:
        rows.length > LIKERS_PAGE_SIZE && last
          ? encodeCursor({ createdKey: last.likedKey, id: last.id })
          : null,
    },
  };
}

/** `text` is already trimmed and 1 to 500 characters (contracts' createCommentRequestSchema). */
export async function createComment(
  deps: SocialDeps,
  viewer: AuthContext,
  rawPostId: string,
  text: string,
): Promise<CommentsResponse> {
  // PostgreSQL text cannot hold NUL: refuse it here rather than fail in the database.
  if (text.includes('\u0000')) throw badRequest(SOCIAL_MESSAGES.invalidCharacters);
  const postId = requireId(rawPostId, SOCIAL_MESSAGES.postNotFound);
  let added: { postOwnerId: string } | null;
  try {
    added = await repo.insertVisibleComment(deps.db, postId, viewer.userId, text);
  } catch (err) {
    if (repo.isForeignKeyViolation(err)) throw notFound(SOCIAL_MESSAGES.postNotFound);
    throw err;
  }
  if (!added) throw notFound(SOCIAL_MESSAGES.postNotFound);
  return commentsOf(deps, viewer, { id: postId, userId: added.postOwnerId });
}

/** The author may delete their comment, the post's owner any comment on the post. */
export async function deleteComment(
  deps: SocialDeps,
  viewer: AuthContext,
  rawCommentId: string,
): Promise<CommentsResponse> {
  const commentId = requireId(rawCommentId, SOCIAL_MESSAGES.commentNotFound);
  const comment = await repo.findCommentAccess(deps.db, commentId, viewer.userId);
  if (!comment) throw notFound(SOCIAL_MESSAGES.commentNotFound);
  const allowed = comment.authorId === viewer.userId || comment.postOwnerId === viewer.userId;
  if (!allowed) {
    if (!comment.visible) throw notFound(SOCIAL_MESSAGES.commentNotFound);
    throw forbidden(SOCIAL_MESSAGES.cannotDeleteComment);
  }
  await repo.deleteComment(deps.db, commentId);
  return commentsOf(deps, viewer, { id: comment.postId, userId: comment.postOwnerId });
}

export async function hidePost(deps: SocialDeps, viewer: AuthContext, rawPostId: string): Promise<void> {
  const postId = requireId(rawPostId, SOCIAL_MESSAGES.postNotFound);
  const post = await findPostAccess(deps.db, postId, viewer.userId);
  if (!post) throw notFound(SOCIAL_MESSAGES.postNotFound);
  if (post.userId === viewer.userId) throw badRequest(SOCIAL_MESSAGES.cannotHideOwnPost);
  // Hiding again is a no-op (idempotent); a post behind a block does not exist for the viewer.
  if (post.blocked) throw notFound(SOCIAL_MESSAGES.postNotFound);
  try {
    await repo.hidePost(deps.db, viewer.userId, postId);
  } catch (err) {
    if (repo.isForeignKeyViolation(err)) throw notFound(SOCIAL_MESSAGES.postNotFound);
    throw err;
  }
}

/**
 * Undoes a hide. Idempotent: a post that is not hidden stays as it is. A post behind a block does not
 * exist for the viewer (404 like an unknown one), whether or not they had hidden it.
 */
export async function unhidePost(deps: SocialDeps, viewer: AuthContext, rawPostId: string): Promise<void> {
  const postId = requireId(rawPostId, SOCIAL_MESSAGES.postNotFound);
  const post = await findPostAccess(deps.db, postId, viewer.userId);
  if (!post || post.blocked) throw notFound(SOCIAL_MESSAGES.postNotFound);
  await repo.unhidePost(deps.db, viewer.userId, postId);
}

/**
 * The posts the viewer hid, newest hide first, in the feed's shape (toPostView: the location rule holds),
 * paged like the feed: by page number, or by the opaque cursor of the previous page.
 */
export async function hiddenPosts(
  deps: SocialDeps,
  viewer: AuthContext,
  paging: { page: number; pageSize: number; cursor?: string | undefined },
): Promise<PagedPostsResponse> {
  const cursor = paging.cursor ? decodeCursor(paging.cursor) : null;
  const refs = await repo.listHiddenPostIds(deps.db, viewer.userId, {
    limit: paging.pageSize,
    offset: (paging.page - 1) * paging.pageSize,
    cursor,
  });
  const hasMore = refs.length > paging.pageSize;
  const pageRefs = refs.slice(0, paging.pageSize);
  const rows =
    pageRefs.length === 0
      ? []
      : await selectVisiblePosts(
          deps.db,
          viewer.userId,
          { postIds: pageRefs.map((r) => r.postId), includeHidden: true },
          { limit: pageRefs.length },
        );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const last = pageRefs.at(-1);
  return {
    // In the order they were hidden; a post deleted meanwhile is simply missing.
    posts: pageRefs.flatMap((ref) => {
      const row = byId.get(ref.postId);
      return row ? [toPostView(viewer, row, { publicBase: deps.publicBase })] : [];
    }),
    info: {
      next: hasMore ? paging.page + 1 : null,
      nextCursor: hasMore && last ? encodeCursor({ createdKey: last.hiddenKey, id: last.postId }) : null,
    },
  };
}

export async function blockUser(deps: SocialDeps, viewer: AuthContext, rawUserId: string): Promise<void> {
  const userId = requireId(rawUserId, SOCIAL_MESSAGES.userNotFound);
  if (userId === viewer.userId) throw badRequest(SOCIAL_MESSAGES.cannotBlockSelf);
  if (!(await repo.userExists(deps.db, userId))) throw notFound(SOCIAL_MESSAGES.userNotFound);
  try {
    await repo.blockUser(deps.db, viewer.userId, userId);
  } catch (err) {
    if (repo.isForeignKeyViolation(err)) throw notFound(SOCIAL_MESSAGES.userNotFound);
    throw err;
  }
}

export async function blockedUsers(deps: SocialDeps, viewer: AuthContext): Promise<UserSummary[]> {
  const rows = await repo.listBlockedUsers(deps.db, viewer.userId);
  return rows.map((row) => toUserSummary(viewer, row, deps.publicBase));
}

export async function unblockUser(
  deps: SocialDeps,
  viewer: AuthContext,
  rawUserId: string,
): Promise<UserSummary[]> {
  const userId = requireId(rawUserId, SOCIAL_MESSAGES.userNotFound);
  if (!(await repo.userExists(deps.db, userId))) throw notFound(SOCIAL_MESSAGES.userNotFound);
  await repo.unblockUser(deps.db, viewer.userId, userId);
  return blockedUsers(deps, viewer);
}

export async function toggleLocation(
  deps: SocialDeps,
  viewer: AuthContext,
  rawPostId: string,
): Promise<{ _id: string; showLocation: boolean }> {
  const postId = requireId(rawPostId, SOCIAL_MESSAGES.postNotFound);
  const updated = await repo.toggleShowLocation(deps.db, postId, viewer.userId);
  if (updated) return { _id: updated.id, showLocation: updated.showLocation };
  // Nothing changed: say why, without revealing posts the viewer cannot see.
  const post = await findPostAccess(deps.db, postId, viewer.userId);
  if (!post || (post.userId !== viewer.userId && !post.visible)) throw notFound(SOCIAL_MESSAGES.postNotFound);
  if (post.userId !== viewer.userId) throw forbidden(SOCIAL_MESSAGES.notPostOwner);
  if (post.locationLocked) throw forbidden(SOCIAL_MESSAGES.locationLocked);
  throw badRequest(SOCIAL_MESSAGES.noGpsData);
}
