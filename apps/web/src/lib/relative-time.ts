/**
 * Dates on cards and comments (issue 24): how long ago, compactly ('now', '5m', '3h', '2d'), then the
 * date ('12 Nov', or '12 Nov 2025' in another year), and the exact time for the title. All of it comes
 * from Intl, so it follows the locale when the app gets translations; until then, British English
 * (day before month, as the rest of the app writes dates).
 */
export interface DateFormatOptions {
  locale?: string;
  /** For tests; the browser's own zone otherwise. */
  timeZone?: string;
}

export interface FormattedDate {
  /** Short text for the card: 'now', '5m', '3h', '2d', '12 Nov', '12 Nov 2025'. */
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

/** Formats `value` (an ISO string or Date) as seen at `now`; null when it is not a valid date. */
export function formatRelativeDate(
  value: string | Date,
  now: Date,
  { locale = DEFAULT_LOCALE, timeZone }: DateFormatOptions = {},
): FormattedDate | null {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const exact = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
    date,
  );
  const result = (label: string) => ({ label, exact, dateTime: date.toISOString() });
  const elapsed = now.getTime() - date.getTime();

  if (elapsed < MINUTE && elapsed > -SKEW_TOLERANCE) {
    return result(new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(0, 'second'));
  }
  const unit = (amount: number, name: 'minute' | 'hour' | 'day') =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'narrow' }).format(amount);
  if (elapsed >= 0 && elapsed < HOUR) return result(unit(Math.floor(elapsed / MINUTE), 'minute'));
  if (elapsed >= 0 && elapsed < DAY) return result(unit(Math.floor(elapsed / HOUR), 'hour'));
  if (elapsed >= 0 && elapsed < RELATIVE_DAYS * DAY) return result(unit(Math.floor(elapsed / DAY), 'day'));

  const year = (d: Date) => Number(new Intl.DateTimeFormat('en', { year: 'numeric', timeZone }).format(d));
  const sameYear = year(date) === year(now);
  return result(
    new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'short',
      ...(sameYear ? {} : { year: 'numeric' }),
      timeZone,
    }).format(date),
  );
}
