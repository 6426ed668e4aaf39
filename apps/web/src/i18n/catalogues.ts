import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { Language } from './languages.ts';

/** A language's messages by id, already parsed (the build compiles them: no parser is shipped). */
export type Catalogue = Record<string, MessageFormatElement[]>;

/**
 * Loads a language's catalogue. English has none: the messages' defaults are English. Each other
 * language is a chunk of its own (virtual:messages/*, built from src/i18n/<language>/*.json by
 * i18n-plugin.ts), fetched only by the people who read it. The pseudo-locale build (PSEUDO_LOCALE)
 * replaces English with accented, lengthened text so that untranslated strings stand out.
 */
export async function loadCatalogue(language: Language): Promise<Catalogue> {
  if (import.meta.env.VITE_PSEUDO_LOCALE) return (await import('virtual:messages/pseudo')).default;
  if (language === 'es') return (await import('virtual:messages/es')).default;
  return {};
}
