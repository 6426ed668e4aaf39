import { currentLanguage, defineMessage, translate, type MessageDescriptor } from '../i18n/i18n-store.ts';
import { dateTimeFormat } from '../i18n/intl-formatters.ts';
import type { Language } from '../i18n/languages.ts';

/**
 * Dates on cards and comments (issue 24): how long ago, compactly ('now', '5 min', '3 h', '2 d'), then
 * the date ('12 Nov', or '12 Nov 2025' in another year), and the exact time for the title. The dates
 * come from Intl in the app's language (issue 28); English is British English (day before month, as
 * the rest of the app writes dates).
 */
export interface DateFormatOptions {
  /** The Intl locale; the current language's (dateLocale) otherwise. */
  locale?: string;
  /** For tests; the browser's own zone otherwise. */
  timeZone?: string;
}

export interface FormattedDate {
  /** Short text for the card: 'now', '5 min', '3 h', '2 d', '12 Nov', '12 Nov 2025'. */
  label: string;
  /** The exact time, for the title (hover) and assistive technology. */
  exact: string;
  /** Machine-readable, for <time datetime>. */
  dateTime: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** After a week, a date says more than a count of days. */
const RELATIVE_DAYS = 7;
/** A clock a little ahead of the server's still says 'now' rather than a date in the future. */
const SKEW_TOLERANCE = 5 * MINUTE;

/** The Intl locale for dates in each language: English writes dates the British way. */
const DATE_LOCALES: Record<Language, string> = { en: 'en-GB', es: 'es-ES' };

/** The locale dates are written in, in `language` (the app's current one by default). */
export function dateLocale(language: Language = currentLanguage()): string {
  return DATE_LOCALES[language];
}

/** How a date is written out: the day ('26 November 2026'), a moment with its time ('26 November 2026
 * at 14:30'), or a shorter moment for lists ('26 Nov 2026, 14:30'). */
const DATE_STYLES = {
  day: { day: 'numeric', month: 'long', year: 'numeric' },
  moment: { dateStyle: 'long', timeStyle: 'short' },
  shortMoment: { dateStyle: 'medium', timeStyle: 'short' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

/** `value` written out in the current language (a formatter per language and style, made once). */
function writeDate(value: string | Date, style: keyof typeof DATE_STYLES): string {
  return dateTimeFormat(dateLocale(), DATE_STYLES[style]).format(
    typeof value === 'string' ? new Date(value) : value,
  );
}

export const formatDay = (value: string | Date) => writeDate(value, 'day');
export const formatMoment = (value: string | Date) => writeDate(value, 'moment');
export const formatShortMoment = (value: string | Date) => writeDate(value, 'shortMoment');

/**
 * How long ago, one whole message per unit. No Intl unit style writes '3 h' in English (narrow gives
 * '3h', short '3 hrs'), so these are ours; abbreviations take no plural in English. Each is a complete
 * message, never pieces glued together, so that a translation may reorder or inflect it.
 */
const NOW = defineMessage({ id: 'time.now', defaultMessage: 'now' });
const ELAPSED: Record<'minute' | 'hour' | 'day', MessageDescriptor> = {
  minute: defineMessage({ id: 'time.minutes', defaultMessage: '{count} min' }),
  hour: defineMessage({ id: 'time.hours', defaultMessage: '{count} h' }),
  day: defineMessage({ id: 'time.days', defaultMessage: '{count} d' }),
};

/**
 * How long ago, as parts rather than text: for whole sentences of their own ('Last seen 3 h ago', issue
 * 26), each case with its own template in the component that shows it. The same steps as the cards.
 */
export type Elapsed =
  | { unit: 'now' }
  | { unit: 'minute' | 'hour' | 'day'; count: number }
  /** After a week (or a date in the future): the date, '12 Nov' or '12 Nov 2025'. */
  | { unit: 'date'; date: string };

export interface ElapsedDate {
  elapsed: Elapsed;
  exact: string;
  dateTime: string;
}

/** `value` (an ISO string or Date) as seen at `now`, in parts; null when it is not a valid date. */
export function elapsedSince(
  value: string | Date,
  now: Date,
  { locale = dateLocale(), timeZone }: DateFormatOptions = {},
): ElapsedDate | null {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const exact = dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date);
  const result = (elapsed: Elapsed) => ({ elapsed, exact, dateTime: date.toISOString() });
  const ms = now.getTime() - date.getTime();

  if (ms < MINUTE && ms > -SKEW_TOLERANCE) return result({ unit: 'now' });
  if (ms >= 0 && ms < HOUR) return result({ unit: 'minute', count: Math.floor(ms / MINUTE) });
  if (ms >= 0 && ms < DAY) return result({ unit: 'hour', count: Math.floor(ms / HOUR) });
  if (ms >= 0 && ms < RELATIVE_DAYS * DAY) return result({ unit: 'day', count: Math.floor(ms / DAY) });

  const year = (d: Date) => Number(dateTimeFormat('en', { year: 'numeric', timeZone }).format(d));
  const sameYear = year(date) === year(now);
  return result({
    unit: 'date',
    date: dateTimeFormat(locale, {
      day: 'numeric',
      month: 'short',
      ...(sameYear ? {} : { year: 'numeric' }),
      timeZone,
    }).format(date),
  });
}

/** Formats `value` (an ISO string or Date) as seen at `now`; null when it is not a valid date. */
export function formatRelativeDate(
  value: string | Date,
  now: Date,
  options: DateFormatOptions = {},
): FormattedDate | null {
  const parts = elapsedSince(value, now, options);
  if (!parts) return null;
  const { elapsed, exact, dateTime } = parts;
  const label =
    elapsed.unit === 'now'
      ? translate(NOW)
      : elapsed.unit === 'date'
        ? elapsed.date
        : translate(ELAPSED[elapsed.unit], { count: elapsed.count });
  return { label, exact, dateTime };
}
