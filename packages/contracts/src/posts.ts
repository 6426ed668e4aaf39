import { z } from 'zod';
import { pageNumberSchema } from './common.ts';
import { userSummarySchema } from './users.ts';
import {
  ALT_TEXT_MAX,
  hasUnwantedControls,
  CAPTION_MAX,
  CAT_NAME_MAX,
  COMMENT_MAX,
  EDIT_MESSAGES,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_MESSAGES,
  LATITUDE_LIMIT,
  LONGITUDE_LIMIT,
} from './posts-constants.ts';

export * from './posts-constants.ts';

/** Browsers send a textarea's line breaks as CRLF in multipart forms; one '\n' each, counted as one. */
const normalizeLineBreaks = (text: string): string => text.replace(/\r\n?/g, '\n');

/** Degrees as JSON numbers; a refusal names the axis and its range, as any {message} says what to fix. */
const coordinateSchema = (name: 'Latitude' | 'Longitude', limit: number) => {
  const range = `${name} must be a number between -${limit} and ${limit}`;
  return z.number({ error: range }).finite(range).min(-limit, range).max(limit, range);
};
export const latitudeSchema = coordinateSchema('Latitude', LATITUDE_LIMIT);
export const longitudeSchema = coordinateSchema('Longitude', LONGITUDE_LIMIT);

export const postImageSchema = z.object({
  width: z.number().int(),
  height: z.number().int(),
  /** ThumbHash, base64: decoded by the client into a blurred preview while the image loads. */
  placeholder: z.string(),
  /** Ready URLs keyed by variant width. */
  variants: z.record(z.string(), z.string()),
});
export type PostImage = z.infer<typeof postImageSchema>;

export const postSchema = z.object({
  _id: z.string(),
  user: userSummarySchema,
  /** The 800 px variant (spec: feed card). */
  imageUrl: z.string(),
  image: postImageSchema,
  caption: z.string(),
  catName: z.string().nullable(),
  /**
   * The cat profile the author linked this picture to (issue 26); null when none. `missing`: an alert
   * the viewer may see is open, as the lists of cats say it.
   */
  cat: z.object({ _id: z.string(), name: z.string(), missing: z.boolean() }).nullable(),
  /** The author's description of the photo, used as the image's alt; null when they wrote none. */
  altText: z.string().nullable(),
  /** Ids of users who liked the post; the count shown is its length. */
  greatCat: z.array(z.string()),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  showLocation: z.boolean(),
  /** 'exact' for the owner, group members of a shared post and owners who chose it; else 'approximate'. */
  locationPrecision: z.enum(['exact', 'approximate']).nullable(),
  commentCount: z.number().int(),
  createdAt: z.string(),
  /** When the owner last edited caption, cat name or description; null until then (issue 24). */
  editedAt: z.string().nullable(),
  /** Groups the post is shared with; only present for the post's owner. */
  groupIds: z.array(z.string()).optional(),
  /**
   * Issue 27: only on the owner's own post while it is hidden from everyone else pending a moderator's
   * review of reports about it; absent otherwise.
   */
  moderation: z.literal('pending_review').optional(),
  /**
   * Issue 27: only on the owner's own post while a moderator's 'hide location' stands; the owner cannot
   * switch the location back on until it is restored (on appeal, for one). Absent otherwise.
   */
  locationLocked: z.literal(true).optional(),
});
export type Post = z.infer<typeof postSchema>;

/**
 * GET /api/posts/{postId}: one post in the feed's shape, with what the viewer may do with it, so the
 * post page shows only the controls the server would accept (the server still checks every request).
 */
export const postDetailSchema = postSchema.extend({
  /** The viewer wrote it: the owner's controls (location switch, group sharing). */
  isOwn: z.boolean(),
  /** Only the owner deletes a post. */
  canDelete: z.boolean(),
  /** The demo account may not comment. */
  canComment: z.boolean(),
  /** Someone else's post, and not the demo account: hide it, block its author. */
  canHide: z.boolean(),
});
export type PostDetail = z.infer<typeof postDetailSchema>;

export const pageInfoSchema = z.object({
  /** Next page number, or null when this was the last page (spec: info.next truthy when another exists). */
  next: z.number().int().nullable(),
  /** Opaque keyset cursor for the next page: stable while others post meanwhile. */
  nextCursor: z.string().nullable(),
});
export const pagedPostsResponseSchema = z.object({ posts: z.array(postSchema), info: pageInfoSchema });
export type PagedPostsResponse = z.infer<typeof pagedPostsResponseSchema>;

export const feedQuerySchema = z.object({ cursor: z.string().max(200).optional() });

/** GET /api/profile/hiddenPosts: newest hide first, by page number from 1 or by info.nextCursor. */
export const hiddenPostsQuerySchema = feedQuerySchema.extend({
  page: pageNumberSchema.default(1),
});

const catNameSchema = z.string().trim().max(CAT_NAME_MAX, `Cat name is at most ${CAT_NAME_MAX} characters`);
/** The spec's form calls the caption 'comment'; the edit dialog calls it what it is. */
const captionSchema = (name: 'Comment' | 'Caption') =>
  z
    .string()
    .overwrite(normalizeLineBreaks)
    .trim()
    .max(CAPTION_MAX, `${name} is at most ${CAPTION_MAX} characters`)
    .refine((text) => !hasUnwantedControls(text), 'Caption contains invalid characters');
/** Empty means no description (the generated alt text stays). */
export const altTextSchema = z
  .string()
  .overwrite(normalizeLineBreaks)
  .trim()
  .max(ALT_TEXT_MAX, `Description is at most ${ALT_TEXT_MAX} characters`)
  .refine((text) => !hasUnwantedControls(text), 'Description contains invalid characters');

export const createPostFieldsSchema = z.object({
  catName: catNameSchema.optional(),
  comment: captionSchema('Comment').optional(),
  altText: altTextSchema.optional(),
  latitude: z.string().max(40).optional(),
  longitude: z.string().max(40).optional(),
  showLocation: z.string().max(10).optional(),
  exifData: z
    .string()
    .max(64 * 1024)
    .optional(),
  groupIds: z.string().max(4096).optional(),
  /** The id of an existing cat this picture shows (issue 26); an unknown one is refused (404). */
  catId: z.string().max(64).optional(),
});
export type CreatePostFields = z.infer<typeof createPostFieldsSchema>;

export const createPostResponseSchema = z.object({ message: z.string(), post: postSchema });

/**
 * createPost's headers (issue 28). Loose: the route's other headers (authorization, the multipart
 * content-type) pass through untouched.
 */
export const createPostHeadersSchema = z.looseObject({
  'idempotency-key': z
    .string()
    .regex(IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_MESSAGES.invalid)
    .optional()
    .describe(
      'An opaque key (1-255 printable ASCII characters, e.g. a UUID) for this one sighting. Sent again by ' +
        'the same user within 24 hours, the answer is the post the first request created (201, the same ' +
        'body, with Idempotent-Replayed: true) and nothing new is stored; 409 if that post was deleted.',
    ),
});

export const likeResponseSchema = z.object({
  updatedPost: z.object({ _id: z.string(), greatCat: z.array(z.string()) }),
});
export const toggleLocationResponseSchema = z.object({
  updatedPost: z.object({ _id: z.string(), showLocation: z.boolean() }),
});

export const commentSchema = z.object({
  _id: z.string(),
  comment: z.string(),
  user: userSummarySchema,
  createdAt: z.string(),
  /** Whether the viewer may delete it (author or post owner). */
  canDelete: z.boolean(),
});
export type Comment = z.infer<typeof commentSchema>;
/**
 * One page of a post's comments (issue 24): the newest COMMENTS_PAGE_SIZE, or those before a cursor,
 * oldest first within the page as the panel shows them. Every comment write answers the newest page.
 */
export const commentsResponseSchema = z.object({
  postId: z.string(),
  comments: z.array(commentSchema),
  /** All comments the viewer sees on the post (the card's count), not only this page's. */
  commentCount: z.number().int(),
  info: z.object({
    /** Opaque cursor for the page of earlier comments (?before=), or null when this page reaches the first. */
    before: z.string().nullable(),
  }),
});
export type CommentsResponse = z.infer<typeof commentsResponseSchema>;
/** GET /api/posts/getComments/{postId}?before=: the cursor of a page's info.before. */
export const commentsQuerySchema = z.object({ before: z.string().max(200).optional() });
export const createCommentRequestSchema = z.object({
  newComment: z
    .string()
    .overwrite(normalizeLineBreaks)
    .trim()
    .min(1, 'Comment cannot be empty')
    .max(COMMENT_MAX, `Comment is at most ${COMMENT_MAX} characters`)
    .refine((text) => !hasUnwantedControls(text), 'Comment contains invalid characters'),
});

/** GET /api/posts/{postId}/likes: who liked a post, newest like first (issue 24, 'Liked by'). */
export const likersQuerySchema = z.object({ cursor: z.string().max(200).optional() });
export const likersResponseSchema = z.object({
  postId: z.string(),
  users: z.array(userSummarySchema),
  /** Opaque cursor of the next (older) page, or null after the last. */
  info: z.object({ nextCursor: z.string().nullable() }),
});
export type LikersResponse = z.infer<typeof likersResponseSchema>;

export const sharePostRequestSchema = z.object({ groupIds: z.array(z.string()).max(100) });

/**
 * Body of likePost, hidePost and toggleLocation: the spec's clients send {currentUserId}, which the
 * server accepts and ignores (the caller always comes from the token).
 */
export const ignoredCurrentUserBodySchema = z
  .object({ currentUserId: z.unknown().optional() })
  .loose()
  .nullish();

/** One of the caller's own deleted posts, as the trash lists it (issue 24). */
export const trashedPostSchema = postSchema.extend({
  /** When the owner deleted it. */
  deletedAt: z.string(),
  /** From when the daily sweep removes it for good: deletedAt + TRASH_DAYS. */
  purgeAt: z.string(),
});
export type TrashedPost = z.infer<typeof trashedPostSchema>;
export const trashResponseSchema = z.object({ posts: z.array(trashedPostSchema) });
export type TrashResponse = z.infer<typeof trashResponseSchema>;

export const deletePostResponseSchema = z.object({
  message: z.string(),
  _id: z.string(),
  deletedAt: z.string(),
  purgeAt: z.string(),
});
export type DeletePostResponse = z.infer<typeof deletePostResponseSchema>;

export const restorePostResponseSchema = z.object({ message: z.string(), post: postSchema });
export type RestorePostResponse = z.infer<typeof restorePostResponseSchema>;

const presence = (value: number | null | undefined) =>
  value === undefined ? 'absent' : value === null ? 'removed' : 'given';

/**
 * PATCH /api/posts/{postId}: the owner changes any of these, with the rules of creation (line breaks
 * kept); an empty cat name or description clears it.
 */
export const editPostRequestSchema = z
  .object({
    caption: captionSchema('Caption').optional(),
    catName: catNameSchema.optional(),
    altText: altTextSchema.optional(),
    /**
     * Where the picture was taken (issue 26, 'Spot without GPS'): set or corrected with both
     * coordinates, removed with both null. The location rule applies to the new place as to any.
     */
    latitude: latitudeSchema.nullable().optional(),
    longitude: longitudeSchema.nullable().optional(),
  })
  // Both numbers (set or move), both null (remove) or both left out: half a place means nothing.
  .refine((body) => presence(body.latitude) === presence(body.longitude), {
    message: EDIT_MESSAGES.locationPair,
  });
export type EditPostRequest = z.infer<typeof editPostRequestSchema>;
export const editPostResponseSchema = z.object({ message: z.string(), post: postSchema });
export type EditPostResponse = z.infer<typeof editPostResponseSchema>;

/** One version of a post's text, as the history lists it (Mastodon keeps status edits alike). */
export const postVersionSchema = z.object({
  /** 1 for the post as first shared; the current version has the highest. */
  version: z.number().int(),
  caption: z.string(),
  catName: z.string().nullable(),
  altText: z.string().nullable(),
  /** When this version was written: the post's creation for version 1, else the edit that made it. */
  createdAt: z.string(),
  /** The version the post shows now. */
  current: z.boolean(),
});
export type PostVersion = z.infer<typeof postVersionSchema>;
export const postHistoryResponseSchema = z.object({
  postId: z.string(),
  /** Newest first, the current version included. */
  versions: z.array(postVersionSchema),
});
export type PostHistoryResponse = z.infer<typeof postHistoryResponseSchema>;
