import {
  EDIT_MESSAGES,
  editPostRequestSchema,
  isUuid,
  type EditPostRequest,
  type EditPostResponse,
  type PostHistoryResponse,
} from '@cats/contracts';
import type { Database } from '../../db/client.ts';
import { badRequest, forbidden, notFound } from '../../lib/http-errors.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { findPostAccess } from '../visibility/post-access.ts';
import { getPostView, type PostViewOptions } from './post-view.ts';
import { earlierVersions, editOwnPost, type PostEdit } from './post-edits.repository.ts';

export interface EditDeps extends PostViewOptions {
  db: Database;
}

/** Malformed ids are answered like unknown ones (issue 5 point 6). */
const postIdOf = (rawPostId: string) => (isUuid(rawPostId) ? rawPostId.toLowerCase() : null);

/**
 * The owner changes caption, cat name or description (issue 24), or where the picture was taken
 * (issue 26). The text it replaces is kept for the history; an edit that changes nothing stores no
 * version and leaves the post unmarked. Others who
 * can see the post are told it is not theirs; for those who cannot (blocked, hidden, unknown, trashed)
 * it does not exist.
 */
export async function editPost(
  deps: EditDeps,
  viewer: AuthContext,
  rawPostId: string,
  body: EditPostRequest,
  now = new Date(),
): Promise<EditPostResponse> {
  const postId = postIdOf(rawPostId);
  if (!postId) throw notFound(EDIT_MESSAGES.postNotFound);
  // The route validated the body already; parsing again keeps the service safe for other callers.
  const fields = editPostRequestSchema.parse(body);
  if (
    fields.caption === undefined &&
    fields.catName === undefined &&
    fields.altText === undefined &&
    fields.latitude === undefined
  ) {
    throw badRequest(EDIT_MESSAGES.nothingToChange);
  }
  const changes: PostEdit = {
    ...(fields.caption !== undefined ? { caption: fields.caption } : {}),
    // Empty clears: the card then shows no name, and the image its generated alt text.
    ...(fields.catName !== undefined ? { catName: fields.catName || null } : {}),
    ...(fields.altText !== undefined ? { altText: fields.altText || null } : {}),
    // The schema let through both coordinates or neither: numbers move the post, nulls remove its place.
    ...(fields.latitude !== undefined && fields.longitude !== undefined
      ? {
          location:
            fields.latitude === null || fields.longitude === null
              ? null
              : { latitude: fields.latitude, longitude: fields.longitude },
        }
      : {}),
  };
  const outcome = await editOwnPost(deps.db, postId, viewer.userId, changes, now);
  if (!outcome) {
    const access = await findPostAccess(deps.db, postId, viewer.userId);
    if (!access?.visible) throw notFound(EDIT_MESSAGES.postNotFound);
    throw forbidden(EDIT_MESSAGES.notOwner);
  }
  const post = await getPostView(deps.db, viewer, postId, deps);
  // Trashed by a concurrent request of the same owner.
  if (!post) throw notFound(EDIT_MESSAGES.postNotFound);
  return { message: EDIT_MESSAGES.edited, post };
}

/**
 * Every version of the post's text, newest first, the current one included: for the owner and for
 * anyone who can see the post (the same 404 as GET /api/posts/{postId} for everyone else).
 */
export async function getPostHistory(
  deps: EditDeps,
  viewer: AuthContext,
  rawPostId: string,
): Promise<PostHistoryResponse> {
  const postId = postIdOf(rawPostId);
  const post = postId ? await getPostView(deps.db, viewer, postId, deps) : null;
  if (!postId || !post) throw notFound(EDIT_MESSAGES.postNotFound);
  const earlier = await earlierVersions(deps.db, postId);
  return {
    postId,
    versions: [
      {
        version: earlier.length + 1,
        caption: post.caption,
        catName: post.catName,
        altText: post.altText,
        createdAt: post.editedAt ?? post.createdAt,
        current: true,
      },
      ...earlier.map((v) => ({ ...v, createdAt: v.createdAt.toISOString(), current: false })),
    ],
  };
}
