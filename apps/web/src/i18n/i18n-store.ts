import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import { sharedFormatters } from './intl-formatters.ts';
import { loadCatalogue, type Catalogue } from './catalogues.ts';
import { DEFAULT_LANGUAGE, storeLanguage, type Language } from './languages.ts';

/**
 * A user-visible text (issue 28): its id in the catalogues and its English text, an ICU message
 * ('{count, plural, one {# like} other {# likes}}'). The build replaces the English with its parsed
 * form (babel-plugin-formatjs), so the browser needs no message parser. `description` tells translators
 * where the text appears; the build drops it.
 */
export interface MessageDescriptor {
  id: string;
  defaultMessage: string;
  description?: string;
}

/** Names a message in a table of data (labels of a list, texts of a state) without showing it yet. */
export function defineMessage(descriptor: MessageDescriptor): MessageDescriptor {
  return descriptor;
}

export type MessageValues = Record<string, PrimitiveType>;

interface State {
  language: Language;
  catalogue: Catalogue;
}

let state: State = { language: DEFAULT_LANGUAGE, catalogue: {} };
const listeners = new Set<() => void>();
/** Parsed-and-ready formatters, by language and id (a message is formatted many times). */
let formatters = new Map<string, IntlMessageFormat>();

/**
 * IntlMessageFormat checks each message's locale with Intl.NumberFormat.supportedLocalesOf, whose
 * first call builds the list of every locale the browser formats numbers in: a fifth of the app's
 * first task on a throttled phone (docs/performance.md). The app's languages are always supported, so
 * the locale is taken as it is, once per language.
 */
const locales = new Map<string, Intl.Locale>();
IntlMessageFormat.resolveLocale = (requested) => {
  const tag = Array.isArray(requested) ? requested[0]! : requested;
  let locale = locales.get(tag);
  if (!locale) locales.set(tag, (locale = new Intl.Locale(tag)));
  return locale;
};

export function currentLanguage(): Language {
  return state.language;
}

/**
 * The language and its loaded texts: a new object whenever either changes (a catalogue's second part
 * arriving changes the texts, not the language), for components to render again.
 */
export function currentTexts(): { readonly language: Language } {
  return state;
}

export function subscribeLanguage(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function apply(language: Language, catalogue: Catalogue): void {
  state = { language, catalogue };
  formatters = new Map();
  document.documentElement.lang = language;
  for (const listener of listeners) listener();
}

/** The member part of the current language's catalogue, once asked for (memberMessages). */
let memberPart: { language: Language; loaded: Promise<void> } | null = null;

/** Opens the app in `language` (before the first render, so that no English flashes by). */
export async function startLanguage(language: Language): Promise<void> {
  memberPart = null;
  let catalogue: Catalogue;
  try {
    catalogue = await loadCatalogue(language, 'visitor');
  } catch {
    // The catalogue could not be fetched (offline before it was cached): English, not a blank page.
    apply(DEFAULT_LANGUAGE, {});
    return;
  }
  apply(language, catalogue);
}

/**
 * The texts of the member screens in the current language: app/router.tsx waits for them with a
 * member screen's code, so they are fetched once, in parallel with the first member screen. A failure
 * leaves those screens in English rather than not opening them.
 */
export function memberMessages(): Promise<void> {
  const { language } = state;
  if (memberPart?.language !== language) {
    memberPart = {
      language,
      loaded: loadCatalogue(language, 'member').then(
        (part) => {
          if (state.language === language) apply(language, { ...state.catalogue, ...part });
        },
        () => {},
      ),
    };
  }
  return memberPart.loaded;
}

/** Both parts of a language at once, for code that shows any screen straight away (tests). */
export async function loadLanguage(language: Language): Promise<void> {
  await startLanguage(language);
  await memberMessages();
}

/** The person chose a language (Settings, the landing page): load it, switch, remember it. */
export async function chooseLanguage(language: Language): Promise<void> {
  const [visitor, member] = await Promise.all([
    loadCatalogue(language, 'visitor'),
    loadCatalogue(language, 'member'),
  ]);
  storeLanguage(language);
  memberPart = { language, loaded: Promise.resolve() };
  apply(language, { ...visitor, ...member });
}

function formatterFor(descriptor: MessageDescriptor): IntlMessageFormat | null {
  const key = descriptor.id;
  let formatter = formatters.get(key);
  if (formatter) return formatter;
  // A translation, else the English default (a message not translated yet).
  const message = state.catalogue[descriptor.id] ?? (descriptor.defaultMessage as unknown);
  if (typeof message === 'string' && import.meta.env.PROD) {
    // Only precompiled messages reach a production build; a plain string here was not seen by the
    // build's compiler (a message built at run time). Show it as it is rather than nothing.
    console.error(`Message ${descriptor.id} was not compiled by the build`);
    return null;
  }
  formatter = new IntlMessageFormat(message as string, state.language, undefined, {
    formatters: sharedFormatters,
  });
  formatters.set(key, formatter);
  return formatter;
}

/** The text of a message in the current language, for attributes, titles and other plain strings. */
export function translate(descriptor: MessageDescriptor, values?: MessageValues): string {
  const formatter = formatterFor(descriptor);
  if (!formatter) return String(descriptor.defaultMessage);
  return String(formatter.format(values));
}

/** The same, with values that are React nodes or tags (`<link>…</link>`): an array of parts. */
export function translateParts<T>(
  descriptor: MessageDescriptor,
  values: Record<string, PrimitiveType | T | ((chunks: (string | T)[]) => T)>,
): string | T | (string | T)[] {
  const formatter = formatterFor(descriptor);
  if (!formatter) return String(descriptor.defaultMessage);
  return formatter.format<T>(values);
}
