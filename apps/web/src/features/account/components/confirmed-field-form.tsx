import { useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../../components/button.tsx';
import { TextField, type TextFieldProps } from '../../../components/form-field.tsx';
import { isDemoDisabledError } from '../../../components/message-modal.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { errorText, FormStatusMessage, SettingsCard, type FormStatus } from './settings-card.tsx';

export interface ConfirmedFieldFormProps {
  title: string;
  description: ReactNode;
  /** The new value's input: label, name, autocomplete and the like. */
  field: Omit<TextFieldProps, 'value' | 'error' | 'onChange' | 'onBlur' | 'required'>;
  /** The contracts' rule for the new value, and the hint shown when it is broken. */
  pattern: RegExp;
  hint: string;
  /** Said once saved; a function gets the value saved (an email change names the inbox to check). */
  successText: string | ((value: string) => string);
  /** Saves the trimmed value; rejects with the server's error. */
  save: (value: string, currentPassword: string) => Promise<unknown>;
  saving: boolean;
  disabled: boolean;
  onDemoRefused: () => void;
}

/**
 * A settings form that changes one value, confirmed with the current password (issue 3, point 8):
 * the username and email forms. The submit button waits for a valid value and a password; the
 * status line clears when either input changes.
 */
export function ConfirmedFieldForm({
  title,
  description,
  field,
  pattern,
  hint,
  successText,
  save,
  saving,
  disabled,
  onDemoRefused,
}: ConfirmedFieldFormProps) {
  const [value, setValue] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [visited, setVisited] = useState(false);
  const [status, setStatus] = useState<FormStatus>(null);
  const t = useTranslate();
  const valueValid = pattern.test(value.trim());
  const valid = valueValid && currentPassword !== '';

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid)
      return setStatus({
        kind: 'error',
        text: t({ id: 'settings.invalidEntry', defaultMessage: 'Invalid Entry' }),
      });
    const saved = value.trim();
    save(saved, currentPassword).then(
      () => {
        setStatus({
          kind: 'success',
          text: typeof successText === 'function' ? successText(saved) : successText,
        });
        setValue('');
        setCurrentPassword('');
        setVisited(false);
      },
      (err: unknown) =>
        isDemoDisabledError(err) ? onDemoRefused() : setStatus({ kind: 'error', text: errorText(err) }),
    );
  };

  return (
    <SettingsCard title={title} description={description}>
      {(headingId) => (
        <form aria-labelledby={headingId} onSubmit={onSubmit}>
          <fieldset disabled={disabled || saving} className="settings-card__fieldset">
            <TextField
              {...field}
              required
              value={value}
              error={visited && value !== '' && !valueValid ? hint : null}
              onChange={(e) => {
                setValue(e.target.value);
                setStatus(null);
              }}
              onBlur={() => setVisited(true)}
            />
            <TextField
              label={t({ id: 'settings.currentPassword', defaultMessage: 'Current password' })}
              type="password"
              name="current-password"
              autoComplete="current-password"
              required
              value={currentPassword}
              onChange={(e) => {
                setCurrentPassword(e.target.value);
                setStatus(null);
              }}
            />
            <FormStatusMessage status={status} />
            <Button type="submit" disabled={!valid}>
              {saving ? <Message id="settings.saving" defaultMessage="Saving..." /> : title}
            </Button>
          </fieldset>
        </form>
      )}
    </SettingsCard>
  );
}
