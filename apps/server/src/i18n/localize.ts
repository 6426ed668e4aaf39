import { IntlMessageFormat } from 'intl-messageformat';
import Negotiator from 'negotiator';
import { SERVER_MESSAGES_ES } from './server-messages.es.ts';

/** English first: it is the spec's text and the answer to no header, `*` or a language we lack. */
export const SERVER_LANGUAGES = ['en', 'es'] as const;
export type ServerLanguage = (typeof SERVER_LANGUAGES)[number];

/** The language of {message} for a request's Accept-Language (q-values and es-ES -> es included). */
export function messageLanguage(acceptLanguage: string | string[] | undefined): ServerLanguage {
  if (!acceptLanguage) return 'en';
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage;
  const chosen = new Negotiator({ headers: { 'accept-language': header } }).language([...SERVER_LANGUAGES]);
  return chosen === 'es' ? 'es' : 'en';
}

interface Entry {
  /** The English template turned into a pattern; null when the text has no `{name}`. */
  pattern: RegExp | null;
  names: string[];
  format: IntlMessageFormat;
}

const PLACEHOLDER = /\{(\w+)\}/g;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A value is one word (a number, a month, a path) except a name, which people write with spaces. */
const valuePattern = (name: string) => (name === 'name' ? '(.+)' : '(\\S+?)');

function compile(english: string, spanish: string): Entry {
  const names = [...english.matchAll(PLACEHOLDER)].map((m) => m[1]!);
  const pattern = names.length
    ? new RegExp(
        `^${english
          .split(PLACEHOLDER)
          .map((part, i) => (i % 2 ? valuePattern(part) : escapeRegExp(part)))
          .join('')}$`,
        's',
      )
    : null;
  return { pattern, names, format: new IntlMessageFormat(spanish, 'es-ES') };
}

const exact = new Map<string, Entry>();
const templated: Entry[] = [];
for (const [english, spanish] of Object.entries(SERVER_MESSAGES_ES)) {
  const entry = compile(english, spanish);
  if (entry.pattern) templated.push(entry);
  else exact.set(english, entry);
}

/** The catalogue entry and values for an English text, or null when none matches. */
export function findEntry(english: string): { entry: Entry; values: Record<string, string | number> } | null {
  const found = exact.get(english);
  if (found) return { entry: found, values: {} };
  for (const entry of templated) {
    const match = entry.pattern!.exec(english);
    if (!match) continue;
    // Digits are read back as numbers so that plurals choose their form.
    const values = Object.fromEntries(
      entry.names.map((name, i) => [
        name,
        /^\d+$/.test(match[i + 1]!) ? Number(match[i + 1]) : match[i + 1]!,
      ]),
    );
    return { entry, values };
  }
  return null;
}

/**
 * The text to answer for an English {message}: itself for English or when no translation exists
 * (byte-identical to the spec), else the Spanish catalogue's. `varies` says whether the text depends
 * on Accept-Language, so the answer must carry `Vary: Accept-Language`.
 */
export function localizeMessage(
  english: string,
  language: ServerLanguage,
): { message: string; varies: boolean } {
  const found = findEntry(english);
  if (!found) return { message: english, varies: false };
  if (language === 'en') return { message: english, varies: true };
  return { message: String(found.entry.format.format(found.values)), varies: true };
}
