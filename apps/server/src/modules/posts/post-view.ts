import { IMAGE_WIDTHS, type PagedPostsResponse, type Post } from '@cats/contracts';
import type { Executor } from '../../db/client.ts';
import { badRequest } from '../../lib/http-errors.ts';
import { toUserSummary } from '../visibility/user-summary.ts';
import { mediaUrl, variantKey } from '../../media/urls.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { hiddenByHome } from '../visibility/cat-place.ts';
import { locationFor } from '../location/location-rule.ts';
import {
  selectVisiblePosts,
  type FeedCursor,
  type PostFilter,
  type PostViewRow,
} from './posts.repository.ts';

// ---------------------------------------------------------------------------------------------------
// Serialisation to the contracts' Post
// ---------------------------------------------------------------------------------------------------

export interface PostViewOptions {
  /** config.S3_PUBLIC_URL: media URLs point there instead of /media when set. */
  publicBase: string | undefined;
}

/**
 * Widest first. The keys are array indexes to V8 ("64" … "1600"): added smallest first, each one grew a
 * plain elements array up to index 1600, ~13 KB for six URLs, and the serializer's Object.keys walked
 * all of it. That was most of what a feed request allocated (1.4 MB, and garbage collection took a
 * quarter to a third of the server's thread: docs/performance.md, "Feed, 2026-11-24: what a request allocated").
 * Starting at 1600 makes V8 keep the six as a small dictionary. JSON lists them in the same order.
 */
const WIDEST_FIRST = [...IMAGE_WIDTHS].sort((a, b) => b - a);

export function imageVariantUrls(publicBase: string | undefined, prefix: string): Record<string, string> {
  const variants: Record<string, string> = {};
  for (const width of WIDEST_FIRST) variants[width] = mediaUrl(publicBase, variantKey(prefix, width));
  return variants;
}

export function toPostView(viewer: AuthContext, row: PostViewRow, opts: PostViewOptions): Post {
  const variants = imageVariantUrls(opts.publicBase, row.mediaKey);
  const isOwner = row.userId === viewer.userId;
  return {
    _id: row.id,
    user: toUserSummary(
      viewer,
      { id: row.userId, username: row.username, profilePicKey: row.profilePicKey },
      opts.publicBase,
    ),
    imageUrl: variants['800']!,
    image: { width: row.width, height: row.height, placeholder: row.placeholder, variants },
    caption: row.caption,
    catName: row.catName,
    cat: linkedCat(viewer, row),
    altText: row.altText,
    greatCat: row.likerIds,
    ...locationFor(viewer, row),
    // Others learn only that a location is shown; the owner sees the switch as set.
    showLocation: isOwner ? row.showLocation : row.showLocation && row.latitude !== null,
    commentCount: row.commentCount,
    createdAt: row.createdAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
    ...(isOwner ? { groupIds: row.groupIds ?? [] } : {}),
    // Only its author is ever given a post pending review (posts.repository.ts), so only they learn it.
    ...(isOwner && row.moderation === 'pending_review' ? { moderation: 'pending_review' as const } : {}),
    ...(isOwner && row.locationLocked ? { locationLocked: true as const } : {}),
  };
}

/**
 * The cat the post shows (issue 26). A sighting near a household cat's home keeps its usual place in the
 * post's own views, but there it does not say which cat it is (except to the cat's caretakers and the
 * author): the cat and the area of its home are never put together for anyone else (cat-place.ts). A
 * sighting by someone who does not care for a household cat names it to nobody else, wherever it lies.
 */
function linkedCat(viewer: AuthContext, row: PostViewRow): Post['cat'] {
  if (!row.linkedCatId || row.linkedCatName === null || row.linkedCatLiving === null) return null;
  const home = {
    living: row.linkedCatLiving,
    homeLatitude: row.linkedCatHomeLatitude,
    homeLongitude: row.linkedCatHomeLongitude,
  };
  if (hiddenByHome(viewer, home, row.viewerCaresForCat, row)) return null;
  return { _id: row.linkedCatId, name: row.linkedCatName, missing: row.linkedCatMissing };
}

// ---------------------------------------------------------------------------------------------------
// Cursors: opaque to clients, base64url of "<created_at with microseconds>|<id>"
// ---------------------------------------------------------------------------------------------------

const CURSOR_PATTERN =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
export const INVALID_CURSOR_MESSAGE = 'Invalid cursor';

export function encodeCursor(row: Pick<PostViewRow, 'createdKey' | 'id'>): string {
  return Buffer.from(`${row.createdKey}|${row.id}`).toString('base64url');
}

/** The cursor's position; 400 for anything this server did not produce. */
export function decodeCursor(cursor: string): FeedCursor {
  const match = CURSOR_PATTERN.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || Number.isNaN(Date.parse(match[1]!))) throw badRequest(INVALID_CURSOR_MESSAGE);
  return { createdAt: match[1]!, id: match[2]! };
}

// ---------------------------------------------------------------------------------------------------
// The listings everybody reuses
// ---------------------------------------------------------------------------------------------------

export interface ListPostsOptions extends PostViewOptions {
  /** Page number from 1 (used when no cursor is given). */
  page: number;
  pageSize: number;
  /** An opaque cursor from a previous response's info.nextCursor. */
  cursor?: string | undefined;
}

/**
 * One page of posts visible to the viewer, as the API returns them: feed (no filter), profile
 * ({authorId}), explore ({located: true}) and group listings ({groupId}, members only).
 */
export async function listPosts(
  db: Executor,
  viewer: AuthContext,
  filter: PostFilter,
  opts: ListPostsOptions,
): Promise<PagedPostsResponse> {
  const cursor = opts.cursor ? decodeCursor(opts.cursor) : null;
  const rows = await selectVisiblePosts(db, viewer.userId, filter, {
    limit: opts.pageSize,
    offset: (opts.page - 1) * opts.pageSize,
    cursor,
  });
  const hasMore = rows.length > opts.pageSize;
  const pageRows = rows.slice(0, opts.pageSize);
  const last = pageRows.at(-1);
  return {
    posts: pageRows.map((row) => toPostView(viewer, row, opts)),
    info: {
      next: hasMore ? opts.page + 1 : null,
      nextCursor: hasMore && last ? encodeCursor(last) : null,
    },
  };
}

/** Every post matching the filter, unpaged, up to `max` (explore's map markers). */
export async function listAllPosts(
  db: Executor,
  viewer: AuthContext,
  filter: PostFilter,
  opts: PostViewOptions & { max: number },
): Promise<Post[]> {
  const rows = await selectVisiblePosts(db, viewer.userId, filter, { limit: opts.max });
  return rows.slice(0, opts.max).map((row) => toPostView(viewer, row, opts));
}

/** One post as the viewer may see it; null when it does not exist or is hidden/blocked for them. */
export async function getPostView(
  db: Executor,
  viewer: AuthContext,
  postId: string,
  opts: PostViewOptions & { groupId?: string },
): Promise<Post | null> {
  const filter: PostFilter = { postIds: [postId], ...(opts.groupId ? { groupId: opts.groupId } : {}) };
  const [row] = await selectVisiblePosts(db, viewer.userId, filter, { limit: 1 });
  return row ? toPostView(viewer, row, opts) : null;
}
