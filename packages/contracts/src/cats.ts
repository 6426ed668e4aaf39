import { z } from 'zod';
import {
  CAT_DESCRIPTION_MAX,
  CAT_FIELD_MESSAGES,
  CAT_LIVING,
  CAT_MESSAGES,
  CAT_PROFILE_NAME_MAX,
  COAT_COLOURS,
  YES_NO_UNKNOWN,
} from './cats-constants.ts';
import {
  hasUnwantedControls,
  latitudeSchema,
  longitudeSchema,
  postImageSchema,
  postSchema,
} from './posts.ts';
import { userSummarySchema } from './users.ts';
import { parseDecimal } from './common-constants.ts';

export * from './cats-constants.ts';

/**
 * Issue 26: a profile for every neighbourhood cat. A cat's sightings are posts linked to it; wherever
 * a sighting's place appears (last seen, the timeline, the map) it follows the location rule of its post
 * for the viewer (docs/security.md, "Location"), and a household cat's sightings near its home point
 * show no place to anyone but its caretakers.
 */

const catNameSchema = z
  .string()
  .trim()
  .min(1, CAT_FIELD_MESSAGES.nameRequired)
  .max(CAT_PROFILE_NAME_MAX, CAT_FIELD_MESSAGES.nameTooLong)
  .refine((text) => !hasUnwantedControls(text), CAT_FIELD_MESSAGES.nameInvalid);
const catDescriptionSchema = z
  .string()
  .trim()
  .max(CAT_DESCRIPTION_MAX, CAT_FIELD_MESSAGES.descriptionTooLong)
  .refine((text) => !hasUnwantedControls(text), CAT_FIELD_MESSAGES.descriptionInvalid);
export const coatColourSchema = z.enum(COAT_COLOURS);
export const yesNoUnknownSchema = z.enum(YES_NO_UNKNOWN);
export const catLivingSchema = z.enum(CAT_LIVING);

/** A place a caretaker gives (home point, missing-cat last-seen place): both or neither. */
export const pointSchema = z.object({ latitude: latitudeSchema, longitude: longitudeSchema });

/** How a cat is shown in lists, on post cards and in suggestions. */
export const catSummarySchema = z.object({
  _id: z.string(),
  name: z.string(),
  /** The cover sighting's image (null until the cat has one the viewer may see). */
  cover: z.object({ postId: z.string(), image: postImageSchema, altText: z.string().nullable() }).nullable(),
});
export type CatSummary = z.infer<typeof catSummarySchema>;

/** Where and when the cat was last seen, as the viewer may know it (the newest sighting they can see). */
export const lastSeenSchema = z.object({
  postId: z.string(),
  at: z.string(),
  /** Null when the sighting's post shows the viewer no place (switched off, or near the cat's home). */
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  locationPrecision: z.enum(['exact', 'approximate']).nullable(),
});

export const catSchema = catSummarySchema.extend({
  description: z.string(),
  coatColours: z.array(coatColourSchema),
  earTipped: yesNoUnknownSchema,
  neutered: yesNoUnknownSchema,
  living: catLivingSchema,
  /**
   * Null once the creator's account is gone, and for a viewer who shares a block with the creator (a
   * block leaves no trace; the cat itself stays visible: cats are community things).
   */
  createdBy: userSummarySchema.nullable(),
  /** Caretakers the viewer shares a block with are left out. */
  caretakers: z.array(userSummarySchema),
  lastSeen: lastSeenSchema.nullable(),
  /** Sightings the viewer may see: in all, and in the last 7 days. */
  sightingCount: z.number().int(),
  sightingsThisWeek: z.number().int(),
  followerCount: z.number().int(),
  /** Only for the cat's caretakers: the home point (never shown to anyone else, in any answer). */
  home: pointSchema.nullable().optional(),
  viewer: z.object({
    isCaretaker: z.boolean(),
    /** Caretakers edit; the demo account never does. */
    canEdit: z.boolean(),
    following: z.boolean(),
    /** Anyone signed in but the demo account may follow. */
    canFollow: z.boolean(),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Cat = z.infer<typeof catSchema>;

/** POST /api/cats. `postId`: one of the creator's own posts, linked to the new cat and made its cover. */
export const createCatSchema = z.object({
  name: catNameSchema,
  description: catDescriptionSchema.optional(),
  coatColours: z.array(coatColourSchema).max(COAT_COLOURS.length).optional(),
  earTipped: yesNoUnknownSchema.optional(),
  neutered: yesNoUnknownSchema.optional(),
  living: catLivingSchema.optional(),
  postId: z.string().max(64).optional(),
});
export type CreateCatRequest = z.infer<typeof createCatSchema>;

/** PATCH /api/cats/{catId}: caretakers only; absent fields stay as they are. */
export const updateCatSchema = createCatSchema
  .omit({ postId: true })
  .partial()
  .extend({
    /** One of the cat's sightings. */
    coverPostId: z.string().max(64).optional(),
    /** The caretakers' home point, or null to forget it. Never shown to anyone else. */
    home: pointSchema.nullable().optional(),
  });
export type UpdateCatRequest = z.infer<typeof updateCatSchema>;

/**
 * GET /api/cats/{catId}. A merged cat's id answers with the cat it was merged into, and `mergedInto`
 * says so (that cat's id): the web page moves to the survivor's address.
 */
export const catResponseSchema = z.object({ cat: catSchema, mergedInto: z.string().optional() });
export type CatResponse = z.infer<typeof catResponseSchema>;
export const createCatResponseSchema = z.object({ message: z.string(), cat: catSchema });
export type CreateCatResponse = z.infer<typeof createCatResponseSchema>;

/** 'lat,lng' in degrees, as the query's `near`. */
export const nearSchema = z
  // Missing, repeated or overlong: the same one sentence as a malformed pair.
  .string({ error: CAT_MESSAGES.nearInvalid })
  .max(60, CAT_MESSAGES.nearInvalid)
  .transform((text, ctx) => {
    const parts = text.split(',');
    // Plain decimals only, as everywhere a coordinate is read (no hex, exponents or Infinity).
    const [latitude, longitude] = parts.map((p) => parseDecimal(p) ?? Number.NaN);
    const point = pointSchema.safeParse({ latitude, longitude });
    if (parts.length !== 2 || !point.success) {
      ctx.addIssue({ code: 'custom', message: CAT_MESSAGES.nearInvalid });
      return z.NEVER;
    }
    return point.data;
  });

/** GET /api/cats?q=&near=&cursor=: by name (q), nearest first (near), else newest first; paged. */
export const catsQuerySchema = z.object({
  q: z.string().trim().max(CAT_PROFILE_NAME_MAX).optional(),
  /** 'true': only the cats the caller cares for (a merge's duplicate is picked among them). */
  caredFor: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  near: nearSchema.optional(),
  cursor: z.string().max(200).optional(),
});
/**
 * What a list says of a cat so that the web offers it only where choosing it can succeed: a household
 * cat's pictures are linked and suggested by its caretakers alone (decision 022).
 */
const catLinkingFields = {
  living: catLivingSchema,
  /** The viewer is one of the cat's caretakers. */
  viewerIsCaretaker: z.boolean(),
};

export const catListItemSchema = catSummarySchema.extend({
  ...catLinkingFields,
  /** When the newest sighting the viewer may see was made. */
  lastSeenAt: z.string().nullable(),
  /** An alert the viewer may see is open: the cat is missing (its page says where it was last seen). */
  missing: z.boolean(),
});
export type CatListItem = z.infer<typeof catListItemSchema>;
export const catsResponseSchema = z.object({
  cats: z.array(catListItemSchema),
  info: z.object({ nextCursor: z.string().nullable() }),
});
export type CatsResponse = z.infer<typeof catsResponseSchema>;

/**
 * GET /api/cats/suggestions?near=lat,lng: 'Which cat is this?' on Spot. At most CAT_SUGGESTION_LIMIT cats
 * with a sighting within CAT_SUGGESTION_METRES of the point in the last CAT_SUGGESTION_DAYS days, nearest
 * first, then most recently seen. Nearness is measured from each sighting's place AS THE VIEWER MAY SEE
 * IT (exact, its ~500 m cell's centre, or none: then it does not count), never from the exact spot, so
 * asking at many points tells no more than the posts themselves do (docs/security.md, "Cats").
 */
export const catSuggestionsQuerySchema = z.object({ near: nearSchema });
/**
 * A cat with whether it is missing, as the lists of cats say it: offered by 'Which cat is this?' on
 * Spot, and the cat a post was just linked to.
 */
export const catSuggestionSchema = catSummarySchema.extend({
  /** An alert the viewer may see is open: the cat is missing. */
  missing: z.boolean(),
});
export type CatSuggestion = z.infer<typeof catSuggestionSchema>;
/** One cat 'Which cat is this?' offers on Spot. */
export const catSuggestionItemSchema = catSuggestionSchema.extend(catLinkingFields);
export type CatSuggestionItem = z.infer<typeof catSuggestionItemSchema>;
export const catSuggestionsResponseSchema = z.object({ cats: z.array(catSuggestionItemSchema) });
export type CatSuggestionsResponse = z.infer<typeof catSuggestionsResponseSchema>;

/** GET /api/cats/{catId}/sightings?cursor=: newest first, each a post in the feed's shape. */
export const catSightingsQuerySchema = z.object({ cursor: z.string().max(200).optional() });
export const catSightingsResponseSchema = z.object({
  posts: z.array(postSchema),
  info: z.object({ nextCursor: z.string().nullable() }),
});
export type CatSightingsResponse = z.infer<typeof catSightingsResponseSchema>;

/** GET /api/cats/{catId}/map: the newest located sightings the viewer may place, each as they may place it. */
export const catMapPointSchema = z.object({
  postId: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  locationPrecision: z.enum(['exact', 'approximate']),
  at: z.string(),
});
export type CatMapPoint = z.infer<typeof catMapPointSchema>;
export const catMapResponseSchema = z.object({ points: z.array(catMapPointSchema) });
export type CatMapResponse = z.infer<typeof catMapResponseSchema>;

/** PUT /api/posts/{postId}/cat: the post's author links it to a cat, or unlinks it (null). */
export const linkPostCatSchema = z.object({ catId: z.string().max(64).nullable() });
export const linkPostCatResponseSchema = z.object({
  updatedPost: z.object({ _id: z.string(), cat: catSuggestionSchema.nullable() }),
});
export type LinkPostCatResponse = z.infer<typeof linkPostCatResponseSchema>;

/** PUT / DELETE /api/cats/{catId}/follow. */
export const followCatResponseSchema = z.object({ following: z.boolean(), followerCount: z.number().int() });
export type FollowCatResponse = z.infer<typeof followCatResponseSchema>;

/** PUT / DELETE /api/cats/{catId}/caretakers/{userId}: caretakers add and remove caretakers. */
export const caretakersResponseSchema = z.object({ caretakers: z.array(userSummarySchema) });

// ---------------------------------------------------------------------------------------------------
// 'This is Luna': others suggest which cat a picture shows; its author accepts or declines
// ---------------------------------------------------------------------------------------------------

/** POST /api/posts/{postId}/cat-suggestions: a cat for someone else's picture. */
export const suggestCatSchema = z.object({ catId: z.string().max(64) });
export const postCatSuggestionSchema = z.object({
  _id: z.string(),
  postId: z.string(),
  /** The cat suggested (the cat it was merged into, if it was merged since). */
  cat: catSummarySchema,
  suggestedBy: userSummarySchema,
  createdAt: z.string(),
});
export type PostCatSuggestion = z.infer<typeof postCatSuggestionSchema>;
export const suggestCatResponseSchema = z.object({
  message: z.string(),
  suggestion: postCatSuggestionSchema,
});
export type SuggestCatResponse = z.infer<typeof suggestCatResponseSchema>;
/** GET /api/posts/{postId}/cat-suggestions (the author only): the open ones, oldest first. */
export const postCatSuggestionsResponseSchema = z.object({ suggestions: z.array(postCatSuggestionSchema) });
export type PostCatSuggestionsResponse = z.infer<typeof postCatSuggestionsResponseSchema>;
/** POST .../accept: the post is linked to the cat as PUT /api/posts/{postId}/cat would link it. */
export const acceptCatSuggestionResponseSchema = linkPostCatResponseSchema.extend({ message: z.string() });
export type AcceptCatSuggestionResponse = z.infer<typeof acceptCatSuggestionResponseSchema>;
export const catSuggestionParamsSchema = z.object({
  postId: z.string().max(100),
  suggestionId: z.string().max(100),
});

// ---------------------------------------------------------------------------------------------------
// Merges of two profiles of one cat, and their undo
// ---------------------------------------------------------------------------------------------------

/** POST /api/cats/{catId}/merge: the duplicate's sightings, followers and caretakers move to catId. */
export const mergeCatsSchema = z.object({ duplicateCatId: z.string().max(64) });
const catNameRefSchema = z.object({ _id: z.string(), name: z.string() });
/** One merge in a cat's history: who merged which profile into which, and who undid it. */
export const catMergeSchema = z.object({
  _id: z.string(),
  /** The surviving cat. */
  cat: catNameRefSchema,
  duplicate: catNameRefSchema,
  /** Null once their account is gone, or for a viewer who shares a block with them. */
  mergedBy: userSummarySchema.nullable(),
  mergedAt: z.string(),
  undoneBy: userSummarySchema.nullable(),
  undoneAt: z.string().nullable(),
  /** Until when the merge can be undone (CAT_MERGE_UNDO_DAYS after it). */
  undoUntil: z.string(),
  /** The viewer may undo it now: a caretaker of the survivor, in time, and nothing merged since. */
  canUndo: z.boolean(),
});
export type CatMerge = z.infer<typeof catMergeSchema>;
export const mergeCatsResponseSchema = z.object({
  message: z.string(),
  cat: catSchema,
  merge: catMergeSchema,
});
export type MergeCatsResponse = z.infer<typeof mergeCatsResponseSchema>;
/** GET /api/cats/{catId}/history?cursor=: its merges, either way, newest first, CAT_HISTORY_PAGE_SIZE a page. */
export const catHistoryQuerySchema = z.object({ cursor: z.string().max(200).optional() });
export const catHistoryResponseSchema = z.object({
  merges: z.array(catMergeSchema),
  info: z.object({ nextCursor: z.string().nullable() }),
});
export type CatHistoryResponse = z.infer<typeof catHistoryResponseSchema>;
export const undoMergeResponseSchema = z.object({ message: z.string(), merge: catMergeSchema });
export type UndoMergeResponse = z.infer<typeof undoMergeResponseSchema>;
export const catMergeParamsSchema = z.object({ catId: z.string().max(100), mergeId: z.string().max(100) });

/** Path parameters of the cats routes (ids are checked by the server: unknown or malformed, 404). */
export const catParamsSchema = z.object({ catId: z.string().max(100) });
export const catUserParamsSchema = z.object({ catId: z.string().max(100), userId: z.string().max(100) });
export const postCatParamsSchema = z.object({ postId: z.string().max(100) });
