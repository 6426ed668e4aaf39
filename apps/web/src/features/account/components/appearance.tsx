import { useState } from 'react';
import { applyThemeChoice, readThemeChoice, type ThemeChoice } from '../../../lib/theme.ts';
import { defineMessage, type MessageDescriptor } from '../../../i18n/i18n-store.ts';
import { useTranslate } from '../../../i18n/message.tsx';
import { SettingsCard } from './settings-card.tsx';
import './appearance.css';

const CHOICES: { value: ThemeChoice; label: MessageDescriptor }[] = [
  { value: 'system', label: defineMessage({ id: 'settings.appearance.system', defaultMessage: 'System' }) },
  { value: 'light', label: defineMessage({ id: 'settings.appearance.light', defaultMessage: 'Light' }) },
  { value: 'dark', label: defineMessage({ id: 'settings.appearance.dark', defaultMessage: 'Dark' }) },
];

/** Light or dark colours, or the device's own setting (issue 28); kept on this device only. */
export function Appearance() {
  const [choice, setChoice] = useState<ThemeChoice>(readThemeChoice);
  const t = useTranslate();
  return (
    <SettingsCard
      title={t({ id: 'settings.appearance.title', defaultMessage: 'Appearance' })}
      description={t({
        id: 'settings.appearance.description',
        defaultMessage:
          "System follows your device's light or dark setting. Your choice is remembered on this device.",
      })}
    >
      {(headingId) => (
        <div role="radiogroup" aria-labelledby={headingId} className="appearance__choices">
          {CHOICES.map((c) => (
            <label key={c.value} className="appearance__choice">
              <input
                type="radio"
                name="appearance"
                value={c.value}
                checked={choice === c.value}
                onChange={() => {
                  setChoice(c.value);
                  applyThemeChoice(c.value);
                }}
              />
              <span>{t(c.label)}</span>
            </label>
          ))}
        </div>
      )}
    </SettingsCard>
  );
}
