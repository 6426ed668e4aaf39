import { z } from 'zod';
import { catSummarySchema, nearSchema, pointSchema } from './cats.ts';
import {
  MISSING_CONTACT_PREFERENCES,
  MISSING_MESSAGES,
  MISSING_NEAR_LIMIT,
  missingNoteProblem,
  missingTimeProblem,
} from './missing-constants.ts';
import { EXPLORE_MESSAGES, viewportQueryShape, type MapViewport } from './map.ts';
import { postImageSchema } from './posts.ts';
import { userSummarySchema } from './users.ts';

export * from './missing-constants.ts';

/**
 * Issue 26, "Missing cats". A caretaker raises an alert with the time and place the cat was last seen;
 * people whose area lies within MISSING_NEAR_METRES of that place see it (the feed's banner, Explore's
 * pins) and may answer 'I saw this cat', with a photo (a post linked to the cat) or with a time and a
 * place only. The last-seen place is published on purpose, but as the ~500 m cell to everyone but the
 * cat's caretakers (docs/security.md, "Missing cats"); a report's place goes to the caretakers alone.
 */

const precisionSchema = z.enum(['exact', 'approximate']);
/** A place as the viewer may see it: exact for the caretakers, else the centre of its ~500 m cell. */
export const shownPlaceSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  locationPrecision: precisionSchema,
});
export type ShownPlace = z.infer<typeof shownPlaceSchema>;

export const missingContactSchema = z.enum(MISSING_CONTACT_PREFERENCES, {
  error: MISSING_MESSAGES.contactInvalid,
});

/** An ISO 8601 date and time with its offset, within the last MISSING_LAST_SEEN_MAX_DAYS days. */
const recentTimeSchema = z
  .string({ error: MISSING_MESSAGES.lastSeenInvalid })
  .max(40)
  .pipe(z.iso.datetime({ offset: true, error: MISSING_MESSAGES.lastSeenInvalid }))
  .superRefine((text, ctx) => {
    const problem = missingTimeProblem(new Date(text));
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const noteSchema = z
  .string()
  .max(2000)
  .superRefine((text, ctx) => {
    const problem = missingNoteProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((text) => text.trim());

/** Both coordinates, required: an alert or a report without a place helps nobody. */
const placeSchema = z.object(pointSchema.shape, { error: MISSING_MESSAGES.placeRequired });

export const missingAlertSchema = z.object({
  _id: z.string(),
  cat: catSummarySchema,
  lastSeenAt: z.string(),
  /** Where the cat was last seen: exact for its caretakers, the ~500 m cell for everyone else. */
  place: shownPlaceSchema,
  note: z.string(),
  contact: missingContactSchema,
  /**
   * The caretaker who raised it; null once their account is gone, and for a viewer who shares a block
   * with them (who is then shown no alert at all: this is for the raiser's other viewers).
   */
  raisedBy: userSummarySchema.nullable(),
  createdAt: z.string(),
  /** The alert stops showing at this time unless a caretaker renews it. */
  expiresAt: z.string(),
  viewer: z.object({
    /** Renew, mark found and read the reports: the cat's caretakers (never the demo account). */
    isCaretaker: z.boolean(),
    /** 'I saw this cat': anyone signed in but the demo account. */
    canReport: z.boolean(),
  }),
});
export type MissingAlert = z.infer<typeof missingAlertSchema>;

/** POST /api/cats/{catId}/missing: a caretaker marks the cat missing. */
export const markMissingSchema = z.object({
  lastSeenAt: recentTimeSchema,
  place: placeSchema,
  note: noteSchema.optional(),
  contact: missingContactSchema,
});
export type MarkMissingRequest = z.input<typeof markMissingSchema>;

export const missingAlertResponseSchema = z.object({ alert: missingAlertSchema.nullable() });
export type MissingAlertResponse = z.infer<typeof missingAlertResponseSchema>;
export const missingAlertChangedResponseSchema = z.object({ message: z.string(), alert: missingAlertSchema });
export type MissingAlertChangedResponse = z.infer<typeof missingAlertChangedResponseSchema>;
export const missingFoundResponseSchema = z.object({ message: z.string() });

/**
 * GET /api/cats/missing?near=lat,lng&limit=n: without near, around the caller's area; at most `limit`
 * alerts (1 to MISSING_NEAR_LIMIT, which is also the default).
 */
export const missingNearQuerySchema = z.object({
  near: nearSchema.optional(),
  limit: z
    .string({ error: MISSING_MESSAGES.limitInvalid })
    .regex(/^[0-9]{1,3}$/, MISSING_MESSAGES.limitInvalid)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, MISSING_MESSAGES.limitInvalid)
        .max(MISSING_NEAR_LIMIT, MISSING_MESSAGES.limitInvalid),
    )
    .optional(),
});
export const missingNearResponseSchema = z.object({
  /** Open alerts whose last-seen cell lies within MISSING_NEAR_METRES of the area, nearest first. */
  alerts: z.array(missingAlertSchema),
  /** How many such alerts there are in all; `alerts` holds the nearest `limit` of them. */
  total: z.number().int().min(0),
  /**
   * Where the area came from: the query's near, the home area chosen in Settings, or the caller's
   * newest located post; null when there is none (the list is then empty).
   */
  area: z.enum(['near', 'home', 'posts']).nullable(),
});
export type MissingNearResponse = z.infer<typeof missingNearResponseSchema>;

/**
 * GET /api/cats/missing/map: Explore's pins for one viewport, in the format GET /api/explore takes
 * (west, south, east, north in degrees, and the zoom), all five required.
 */
export const missingMapQuerySchema = z
  .object(viewportQueryShape())
  .superRefine((q, ctx) => {
    if ([q.west, q.south, q.east, q.north, q.zoom].some((v) => v === undefined))
      ctx.addIssue({ code: 'custom', message: MISSING_MESSAGES.viewportRequired });
    else if (q.south! > q.north!)
      ctx.addIssue({ code: 'custom', path: ['south'], message: EXPLORE_MESSAGES.southAboveNorth });
  })
  .transform((q) => q as MapViewport);
export const missingMapResponseSchema = z.object({
  /**
   * Open alerts whose last-seen CELL lies in the viewport, those nearest its centre first (by the
   * cell), at most MISSING_MAP_LIMIT: placed as the near list places them.
   */
  alerts: z.array(missingAlertSchema),
  /** More open alerts lie in the viewport than were returned: zooming in shows them. */
  truncated: z.boolean(),
});
export type MissingMapResponse = z.infer<typeof missingMapResponseSchema>;

/** POST /api/cats/{catId}/missing/reports: 'I saw this cat' without a photo. */
export const missingReportRequestSchema = z.object({
  seenAt: recentTimeSchema,
  place: placeSchema,
  note: noteSchema.optional(),
});
export type MissingReportRequest = z.input<typeof missingReportRequestSchema>;

/**
 * One answer to an alert, as its caretakers see it: a report sent to them (time, exact place, note),
 * or a photo posted with the cat linked since the alert went up (placed as its post shows it to them).
 */
export const missingReportSchema = z.object({
  _id: z.string(),
  kind: z.enum(['sighting', 'photo']),
  reporter: userSummarySchema.nullable(),
  seenAt: z.string(),
  place: shownPlaceSchema.nullable(),
  note: z.string(),
  /** The photo's post, for a photo report. */
  post: z.object({ _id: z.string(), image: postImageSchema, altText: z.string().nullable() }).nullable(),
  createdAt: z.string(),
});
export type MissingReport = z.infer<typeof missingReportSchema>;
export const missingReportCreatedResponseSchema = z.object({
  message: z.string(),
  report: missingReportSchema,
});
export const missingReportsResponseSchema = z.object({ reports: z.array(missingReportSchema) });
export type MissingReportsResponse = z.infer<typeof missingReportsResponseSchema>;

/**
 * PUT /api/profile/settings/home-area: the area missing cats are shown and told around (Settings). It
 * is kept as the centre of its ~500 m cell, never the point given; null forgets it.
 */
export const homeAreaRequestSchema = z.object({ homeArea: pointSchema.nullable() });
export type HomeAreaRequest = z.infer<typeof homeAreaRequestSchema>;
