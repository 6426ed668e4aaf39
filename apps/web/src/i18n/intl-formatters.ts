import type { Formatters } from 'intl-messageformat';

/**
 * Intl's formatters, made once per locale and options and shared by every message and date.
 *
 * Constructing an Intl.PluralRules, NumberFormat or DateTimeFormat loads the locale's data: on a
 * throttled phone each costs milliseconds, and IntlMessageFormat keeps a cache per message, so a feed
 * of twenty cards built the same formatters again for every message with a count or a plural, and the
 * cards' dates a DateTimeFormat per date: a fifth of the feed's first render (docs/performance.md,
 * 'Lighthouse: what the main thread does'). A formatter is immutable once made, so sharing is safe.
 */
const caches = {
  number: new Map<string, Intl.NumberFormat>(),
  dateTime: new Map<string, Intl.DateTimeFormat>(),
  pluralRules: new Map<string, Intl.PluralRules>(),
};

function made<T>(cache: Map<string, T>, [locales, options]: unknown[], make: () => T): T {
  // String(): an Intl.Locale writes its tag (JSON would write {} for every one of them).
  const key = `${String(locales)}|${JSON.stringify(options ?? {})}`;
  let formatter = cache.get(key);
  if (formatter === undefined) {
    formatter = make();
    cache.set(key, formatter);
  }
  return formatter;
}

/** A DateTimeFormat for these locales and options, made on first use. */
export function dateTimeFormat(
  ...[locales, options]: ConstructorParameters<typeof Intl.DateTimeFormat>
): Intl.DateTimeFormat {
  return made(caches.dateTime, [locales, options], () => new Intl.DateTimeFormat(locales, options));
}

/** The formatters every IntlMessageFormat of the app shares (its `formatters` option). */
export const sharedFormatters: Formatters = {
  getNumberFormat: (locales, options) =>
    made(caches.number, [locales, options], () => new Intl.NumberFormat(locales, options)),
  getDateTimeFormat: (...args) => dateTimeFormat(...args),
  getPluralRules: (...args) => made(caches.pluralRules, args, () => new Intl.PluralRules(...args)),
};

/**
 * Makes formatters ahead of need, each in a task of its own, while the screen waits for its data: the
 * first formatter of a kind loads the locale's data (a NumberFormat took 55 ms of a throttled phone's
 * main thread, inside the task that rendered the feed's first cards).
 */
export function warmFormatters(makers: readonly (() => unknown)[]): void {
  const [first, ...rest] = makers;
  if (!first) return;
  setTimeout(() => {
    first();
    warmFormatters(rest);
  });
}

/** What every message with a count asks for in `language`: its plural rules and its number format. */
export const messageFormatWarmers = (language: string): (() => unknown)[] => [
  () => sharedFormatters.getNumberFormat(language),
  () => sharedFormatters.getPluralRules(language, { type: 'cardinal' }),
];
