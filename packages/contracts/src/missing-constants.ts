// Constants and plain functions only (no zod): the web app's forms import them without the schema
// library. missing.ts re-exports them beside its schemas. Issue 26, "Missing cats".
import { hasUnwantedControls } from './posts-constants.ts';

/** An alert stays up this many days after it is raised or last renewed; renewing starts them again. */
export const MISSING_ALERT_DAYS = 30;
/** One account may have at most this many open alerts at once (a fourth is refused with 409). */
export const MISSING_ALERTS_PER_ACCOUNT = 3;
/** People whose area lies within this distance of the last-seen place are shown and told of the alert. */
export const MISSING_NEAR_METRES = 2000;
/** The last-seen time (and a report's time) may lie at most this many days back. */
export const MISSING_LAST_SEEN_MAX_DAYS = 30;
/** Clocks differ: a time this little in the future is taken as now rather than refused. */
export const MISSING_CLOCK_SKEW_MS = 5 * 60 * 1000;
export const MISSING_NOTE_MAX = 500;
/** The list of missing cats near someone shows at most this many, nearest first. */
export const MISSING_NEAR_LIMIT = 20;
/**
 * The feed's banner shows this many, nearest first, and counts the rest: it asks for no more
 * (`limit`), so every feed visit reads three cats' pictures rather than twenty.
 */
export const MISSING_BANNER_SHOWN = 3;
/**
 * Explore's missing-cat pins for one viewport are at most this many, those whose last-seen cell lies
 * nearest the viewport's centre; the answer says when more lie in it (zoom in to see them).
 */
export const MISSING_MAP_LIMIT = 50;
/** A cat's page shows at most this many reports of its alert (the newest), on its list and its map. */
export const MISSING_REPORTS_MAX = 200;

/**
 * How the caretaker would like to hear from people who see the cat. Every choice goes through the app
 * ('I saw this cat' reaches the caretakers and nobody else), so no phone number or address ever has
 * to be published with an alert; a note can add more.
 */
export const MISSING_CONTACT_PREFERENCES = ['report', 'photo', 'keep_distance'] as const;
export type MissingContactPreference = (typeof MISSING_CONTACT_PREFERENCES)[number];

/** Refusals and answers of the missing-cat routes: one sentence each, shown as they are. */
/**
 * The answer to an account's alert beyond its daily allowance (the server's MISSING_ALERTS_PER_DAY,
 * 429): raising and ending alerts over and over would tell the neighbours again and again.
 */
export const tooManyAlertsTodayMessage = (count: number) =>
  `You have raised ${count} missing-cat alerts in the last 24 hours. Please wait before raising another.`;

export const MISSING_MESSAGES = {
  notCaretaker: 'Only the caretakers of this cat can raise, renew or end its missing alert',
  alreadyMissing: 'This cat is already marked as missing',
  notMissing: 'This cat is not marked as missing',
  tooManyAlerts: `You already have ${MISSING_ALERTS_PER_ACCOUNT} open missing-cat alerts. Mark a cat as found, or wait for an alert to expire, before raising another.`,
  raised: 'The alert is up: neighbours within 2 km can see it now.',
  renewed: `The alert is renewed for ${MISSING_ALERT_DAYS} more days.`,
  found: 'Back home!',
  reported: 'Thank you! The caretakers can see your report now.',
  lastSeenInFuture: 'The time cannot be in the future',
  lastSeenTooOld: `The time must be within the last ${MISSING_LAST_SEEN_MAX_DAYS} days`,
  lastSeenInvalid: 'Give the time as a date and time',
  noteTooLong: `The note is at most ${MISSING_NOTE_MAX} characters`,
  noteInvalid: 'The note contains invalid characters',
  contactInvalid: 'Choose how people should reach you',
  placeRequired: 'Choose the place on the map',
  limitInvalid: `limit must be a whole number from 1 to ${MISSING_NEAR_LIMIT}`,
  viewportRequired: 'Give west, south, east, north and zoom: the part of the map to show missing cats in',
  areaTooLarge: 'The area is too large for this zoom level',
} as const;

/**
 * The problem with a last-seen or report time, or null. `at` is what the form or the API was given;
 * `now` the moment of checking (the schema and the form call this with the clock's now).
 */
export function missingTimeProblem(at: Date, now: number = Date.now()): string | null {
  const time = at.getTime();
  if (Number.isNaN(time)) return MISSING_MESSAGES.lastSeenInvalid;
  if (time > now + MISSING_CLOCK_SKEW_MS) return MISSING_MESSAGES.lastSeenInFuture;
  if (time < now - MISSING_LAST_SEEN_MAX_DAYS * 24 * 60 * 60 * 1000) return MISSING_MESSAGES.lastSeenTooOld;
  return null;
}

/** The problem with a note as typed (trimmed first, as the API does), or null. */
export function missingNoteProblem(typed: string): string | null {
  const text = typed.trim();
  if (text.length > MISSING_NOTE_MAX) return MISSING_MESSAGES.noteTooLong;
  if (hasUnwantedControls(text)) return MISSING_MESSAGES.noteInvalid;
  return null;
}
