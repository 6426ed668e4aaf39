import {
  MISSING_LAST_SEEN_MAX_DAYS,
  MISSING_MESSAGES,
  MISSING_NOTE_MAX,
  missingNoteProblem,
  missingTimeProblem,
  type MissingContactPreference,
} from '@cats/contracts';
import { defineMessage, translate, type MessageDescriptor } from '../../../i18n/i18n-store.ts';

/** A place from the picker: degrees. */
export interface PlaceValue {
  latitude: number;
  longitude: number;
}

/** What the 'Mark as missing' and 'I saw this cat' forms hold, as typed. */
export interface SightingFormValues {
  /** A datetime-local input's value ('2026-11-25T14:30', the browser's own time zone). */
  when: string;
  place: PlaceValue | null;
  note: string;
}

export type SightingField = 'when' | 'place' | 'note' | 'contact';
export type FormProblems = Partial<Record<SightingField, string>>;

/** A datetime-local value for a moment, in the browser's time zone, to the minute. */
export function toLocalInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The moment a datetime-local value names (in the browser's time zone), or null when it names none. */
export function fromLocalInput(text: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(text);
  if (!match) return null;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi);
  // 2026-02-31 rolls over to March: not a date anyone meant.
  return date.getMonth() === mo - 1 && date.getDate() === d ? date : null;
}

/** The forms' own words for the contracts' problems (given in English, as the API writes them). */
const PROBLEMS: Record<string, { message: MessageDescriptor; values?: Record<string, number> }> = {
  [MISSING_MESSAGES.lastSeenInFuture]: {
    message: defineMessage({
      id: 'missing.form.timeInFuture',
      defaultMessage: 'The time cannot be in the future',
    }),
  },
  [MISSING_MESSAGES.lastSeenTooOld]: {
    message: defineMessage({
      id: 'missing.form.timeTooOld',
      defaultMessage: 'The time must be within the last {days} days',
    }),
    values: { days: MISSING_LAST_SEEN_MAX_DAYS },
  },
  [MISSING_MESSAGES.lastSeenInvalid]: {
    message: defineMessage({
      id: 'missing.form.timeInvalid',
      defaultMessage: 'Give the time as a date and time',
    }),
  },
  [MISSING_MESSAGES.noteTooLong]: {
    message: defineMessage({
      id: 'missing.form.noteTooLong',
      defaultMessage: 'The note is at most {max} characters',
    }),
    values: { max: MISSING_NOTE_MAX },
  },
  [MISSING_MESSAGES.noteInvalid]: {
    message: defineMessage({
      id: 'missing.form.noteInvalid',
      defaultMessage: 'The note contains invalid characters',
    }),
  },
  [MISSING_MESSAGES.contactInvalid]: {
    message: defineMessage({
      id: 'missing.form.contactInvalid',
      defaultMessage: 'Choose how people should reach you',
    }),
  },
  [MISSING_MESSAGES.placeRequired]: {
    message: defineMessage({
      id: 'missing.form.placeRequired',
      defaultMessage: 'Choose the place on the map',
    }),
  },
};

const inLanguage = (problem: string): string => {
  const known = PROBLEMS[problem];
  return known ? translate(known.message, known.values) : problem;
};

/**
 * The contracts' rules for a sighting's time, place and note, without zod (no schema library reaches
 * the browser): the same sentences the API answers with, in the current language. `contact` is checked when the form has one.
 */
export function sightingFormProblems(
  values: SightingFormValues & { contact?: MissingContactPreference | null },
  now: number = Date.now(),
): FormProblems {
  const problems: FormProblems = {};
  const when = fromLocalInput(values.when);
  const timeProblem = when ? missingTimeProblem(when, now) : MISSING_MESSAGES.lastSeenInvalid;
  if (timeProblem) problems.when = inLanguage(timeProblem);
  if (!values.place) problems.place = inLanguage(MISSING_MESSAGES.placeRequired);
  const noteProblem = missingNoteProblem(values.note);
  if (noteProblem) problems.note = inLanguage(noteProblem);
  if ('contact' in values && !values.contact) problems.contact = inLanguage(MISSING_MESSAGES.contactInvalid);
  return problems;
}
