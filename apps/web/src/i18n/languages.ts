/**
 * The languages the web app speaks (issue 28). English is the spec's own texts and needs no catalogue:
 * every message carries its English text as its default. Others come from catalogues loaded on demand.
 */
export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/**
 * Each language's name in itself, as language pickers everywhere write them (a person who cannot read
 * the current language must still find their own): never translated.
 */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', es: 'Español' };

/** The person's choice, on this device (Settings and the landing page write it). */
const STORAGE_KEY = 'language';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function storedLanguage(): Language | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

export function storeLanguage(language: Language): void {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Storage refused (private mode): the choice lasts until the page is closed.
  }
}

/** The first of the browser's languages we speak ('es-AR' is Spanish), else English. */
export function browserLanguage(preferred: readonly string[] = navigator.languages ?? []): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

/** The language to open the app in: the person's choice, else the browser's. */
export function initialLanguage(): Language {
  return storedLanguage() ?? browserLanguage();
}
