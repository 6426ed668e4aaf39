/**
 * Dates on cards and comments (issue 24): how long ago, compactly ('now', '5 min', '3 h', '2 d'), then
 * the date ('12 Nov', or '12 Nov 2025' in another year), and the exact time for the title. The dates
 * come from Intl and follow the locale; until the app has translations, British English (day before
 * month, as the rest of the app writes dates).
 */
export interface DateFormatOptions {
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

const DEFAULT_LOCALE = 'en-GB';

/**
 * How long ago, one whole text per unit. No Intl unit style writes '3 h' in English (narrow gives
 * '3h', short '3 hrs'), so these are ours; abbreviations take no plural in English. Each is a complete
 * template, never pieces glued together, so that translations (issue 28) can replace each with a
 * message of its own, plural rules included.
 */
const ELAPSED: Record<'minute' | 'hour' | 'day', (count: number) => string> = {
  minute: (count) => `${count} min`,
  hour: (count) => `${count} h`,
  day: (count) => `${count} d`,
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
  { locale = DEFAULT_LOCALE, timeZone }: DateFormatOptions = {},
): ElapsedDate | null {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const exact = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
    date,
  );
  const result = (elapsed: Elapsed) => ({ elapsed, exact, dateTime: date.toISOString() });
  const ms = now.getTime() - date.getTime();

  if (ms < MINUTE && ms > -SKEW_TOLERANCE) return result({ unit: 'now' });
  if (ms >= 0 && ms < HOUR) return result({ unit: 'minute', count: Math.floor(ms / MINUTE) });
  if (ms >= 0 && ms < DAY) return result({ unit: 'hour', count: Math.floor(ms / HOUR) });
  if (ms >= 0 && ms < RELATIVE_DAYS * DAY) return result({ unit: 'day', count: Math.floor(ms / DAY) });

  const year = (d: Date) => Number(new Intl.DateTimeFormat('en', { year: 'numeric', timeZone }).format(d));
  const sameYear = year(date) === year(now);
  return result({
    unit: 'date',
    date: new Intl.DateTimeFormat(locale, {
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
      ? new Intl.RelativeTimeFormat(options.locale ?? DEFAULT_LOCALE, { numeric: 'auto' }).format(0, 'second')
      : elapsed.unit === 'date'
        ? elapsed.date
        : ELAPSED[elapsed.unit](elapsed.count);
  return { label, exact, dateTime };
}
