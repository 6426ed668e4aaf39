import { useState } from 'react';
import { applyThemeChoice, readThemeChoice, type ThemeChoice } from '../../../lib/theme.ts';
import { SettingsCard } from './settings-card.tsx';
import './appearance.css';

const CHOICES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Light or dark colours, or the device's own setting (issue 28); kept on this device only. */
export function Appearance() {
  const [choice, setChoice] = useState<ThemeChoice>(readThemeChoice);
  return (
    <SettingsCard
      title="Appearance"
      description="System follows your device's light or dark setting. Your choice is remembered on this device."
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
              <span>{c.label}</span>
            </label>
          ))}
        </div>
      )}
    </SettingsCard>
  );
}
