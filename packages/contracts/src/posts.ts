import { z } from 'zod';
import { userSummarySchema } from './users.ts';

/** Widths every upload is re-encoded to (spec section 9, plus 1600 for high-density screens). */
export const IMAGE_WIDTHS = [64, 72, 300, 400, 800, 1600] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];
export const AVATAR_WIDTHS = [72, 300] as const;

export const ACCEPTED_IMAGE_TYPES = ['image/jpg', 'image/jpeg', 'image/png'] as const;
export const WRONG_FILE_TYPE_MESSAGE = 'Please check file is in jpg or png format';
export const MAX_UPLOAD_BYTES = 15 * 1024 * 1024;
export const MAX_UPLOAD_PIXELS = 40_000_000;
export const CAPTION_MAX = 500;
export const CAT_NAME_MAX = 40;
export const COMMENT_MAX = 500;
export const FEED_PAGE_SIZE = 20;

export const latitudeSchema = z.number().finite().min(-90).max(90);
export const longitudeSchema = z.number().finite().min(-180).max(180);

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
  /** Ids of users who liked the post; the count shown is its length. */
  greatCat: z.array(z.string()),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  showLocation: z.boolean(),
  /** 'exact' for the owner, group members of a shared post and owners who chose it; else 'approximate'. */
  locationPrecision: z.enum(['exact', 'approximate']).nullable(),
  commentCount: z.number().int(),
  createdAt: z.string(),
  /** Groups the post is shared with; only present for the post's owner. */
  groupIds: z.array(z.string()).optional(),
});
export type Post = z.infer<typeof postSchema>;

export const pageInfoSchema = z.object({
  /** Next page number, or null when this was the last page (spec: info.next truthy when another exists). */
  next: z.number().int().nullable(),
  /** Opaque keyset cursor for the next page: stable while others post meanwhile. */
  nextCursor: z.string().nullable(),
});
export const pagedPostsResponseSchema = z.object({ posts: z.array(postSchema), info: pageInfoSchema });
export type PagedPostsResponse = z.infer<typeof pagedPostsResponseSchema>;

export const feedQuerySchema = z.object({ cursor: z.string().max(200).optional() });

export const createPostFieldsSchema = z.object({
  catName: z.string().trim().max(CAT_NAME_MAX, `Cat name is at most ${CAT_NAME_MAX} characters`).optional(),
  comment: z.string().trim().max(CAPTION_MAX, `Comment is at most ${CAPTION_MAX} characters`).optional(),
  latitude: z.string().max(40).optional(),
  longitude: z.string().max(40).optional(),
  showLocation: z.string().max(10).optional(),
  exifData: z
    .string()
    .max(64 * 1024)
    .optional(),
  groupIds: z.string().max(4096).optional(),
});
export type CreatePostFields = z.infer<typeof createPostFieldsSchema>;

export const createPostResponseSchema = z.object({ message: z.string(), post: postSchema });

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
export const commentsResponseSchema = z.object({ postId: z.string(), comments: z.array(commentSchema) });
export type CommentsResponse = z.infer<typeof commentsResponseSchema>;
export const createCommentRequestSchema = z.object({
  newComment: z
    .string()
    .trim()
    .min(1, 'Comment cannot be empty')
    .max(COMMENT_MAX, `Comment is at most ${COMMENT_MAX} characters`),
});

export const sharePostRequestSchema = z.object({ groupIds: z.array(z.string()).max(100) });

/**
 * Body of likePost, hidePost and toggleLocation: the spec's clients send {currentUserId}, which the
 * server accepts and ignores (the caller always comes from the token).
 */
export const ignoredCurrentUserBodySchema = z
  .object({ currentUserId: z.unknown().optional() })
  .loose()
  .nullish();
