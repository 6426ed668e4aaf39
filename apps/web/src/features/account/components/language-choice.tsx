import { useState } from 'react';
import { chooseLanguage } from '../../../i18n/i18n-store.ts';
import { LANGUAGES, LANGUAGE_NAMES, type Language } from '../../../i18n/languages.ts';
import { useLanguage, useTranslate } from '../../../i18n/message.tsx';
import { SettingsCard } from './settings-card.tsx';
import './appearance.css';

/**
 * The app's language (issue 28): each named in itself, remembered on this device. The same choice as
 * the landing page's and the footer's (components/language-switch.tsx).
 */
export function LanguageChoice() {
  const language = useLanguage();
  const t = useTranslate();
  const [failed, setFailed] = useState(false);
  // The radio moves at once; the screen follows when the catalogue has loaded (or moves back).
  const [pending, setPending] = useState<Language | null>(null);
  const shown = pending ?? language;

  const choose = (next: Language) => {
    setFailed(false);
    setPending(next);
    chooseLanguage(next)
      .catch(() => setFailed(true))
      .finally(() => setPending(null));
  };

  return (
    <SettingsCard
      title={t({ id: 'settings.language.title', defaultMessage: 'Language' })}
      description={t({
        id: 'settings.language.description',
        defaultMessage: 'The language of the app on this device. It starts as your browser’s language.',
      })}
    >
      {(headingId) => (
        <>
          <div role="radiogroup" aria-labelledby={headingId} className="appearance__choices">
            {LANGUAGES.map((code) => (
              <label key={code} className="appearance__choice" lang={code}>
                <input
                  type="radio"
                  name="language"
                  value={code}
                  checked={shown === code}
                  onChange={() => choose(code)}
                />
                <span>{LANGUAGE_NAMES[code]}</span>
              </label>
            ))}
          </div>
          {failed && (
            <p role="alert">
              {t({
                id: 'language.switch.failed',
                defaultMessage: 'The language could not be loaded. Check your connection and try again.',
              })}
            </p>
          )}
        </>
      )}
    </SettingsCard>
  );
}
