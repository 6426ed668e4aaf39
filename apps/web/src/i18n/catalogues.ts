import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { Language } from './languages.ts';

/** A language's messages by id, already parsed (the build compiles them: no parser is shipped). */
export type Catalogue = Record<string, MessageFormatElement[]>;

/**
 * Loads a part of a language's catalogue: `visitor` (the first screens anyone opens) or `member`
 * (every other screen; i18n-plugin.ts says which translation files go where). English has none: the
 * messages' defaults are English. Each part of each other language is a chunk of its own, fetched only
 * by the people who read it. The pseudo-locale build (PSEUDO_LOCALE) replaces English with accented,
 * lengthened text so that untranslated strings stand out; it is one part.
 */
export async function loadCatalogue(language: Language, part: 'visitor' | 'member'): Promise<Catalogue> {
  if (import.meta.env.VITE_PSEUDO_LOCALE)
    return part === 'visitor' ? (await import('virtual:messages/pseudo')).default : {};
  if (language !== 'es') return {};
  return part === 'visitor'
    ? (await import('virtual:messages/es/visitor')).default
    : (await import('virtual:messages/es/member')).default;
}
