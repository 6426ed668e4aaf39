import type { Language } from '../../i18n/languages.ts';

/** The Intl locale for dates in `language`: English keeps British dates (day before month). */
export function dateLocale(language: Language): string {
  return language === 'en' ? 'en-GB' : language;
}
