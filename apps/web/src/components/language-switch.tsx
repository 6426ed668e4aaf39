import { useState } from 'react';
import { chooseLanguage } from '../i18n/i18n-store.ts';
import { LANGUAGES, LANGUAGE_NAMES, type Language } from '../i18n/languages.ts';
import { useLanguage, useTranslate } from '../i18n/message.tsx';
import './language-switch.css';

/**
 * The language of the app (issue 28), on the landing page and every page's footer: each language named
 * in itself, the current one marked. The choice is remembered on this device; Settings has the same.
 */
export function LanguageSwitch() {
  const language = useLanguage();
  const t = useTranslate();
  const [failed, setFailed] = useState(false);

  const choose = (next: Language) => {
    setFailed(false);
    chooseLanguage(next).catch(() => setFailed(true));
  };

  return (
    <nav
      className="language-switch"
      aria-label={t({ id: 'language.switch.label', defaultMessage: 'Language' })}
    >
      <ul className="language-switch__list">
        {LANGUAGES.map((code) => (
          <li key={code}>
            <button
              type="button"
              className="language-switch__choice"
              lang={code}
              aria-current={code === language ? 'true' : undefined}
              onClick={() => choose(code)}
            >
              {LANGUAGE_NAMES[code]}
            </button>
          </li>
        ))}
      </ul>
      {failed && (
        <p className="language-switch__error" role="alert">
          {t({
            id: 'language.switch.failed',
            defaultMessage: 'The language could not be loaded. Check your connection and try again.',
          })}
        </p>
      )}
    </nav>
  );
}
