import { PASSWORD_PATTERN } from '@cats/contracts';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { isDemoDisabledError } from '../../../components/message-modal.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useChangePassword } from '../api/change-password.ts';
import { errorText, FormStatusMessage, SettingsCard, type FormStatus } from './settings-card.tsx';

interface Props {
  /** The login email, for password managers (they pair the new password with it). */
  email: string;
  disabled: boolean;
  onDemoRefused: () => void;
}

export function ChangePasswordForm({ email, disabled, onDemoRefused }: Props) {
  const mutation = useChangePassword();
  const t = useTranslate();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [visited, setVisited] = useState({ newPassword: false, confirm: false });
  const [status, setStatus] = useState<FormStatus>(null);
  const newValid = PASSWORD_PATTERN.test(newPassword);
  const confirmValid = confirm !== '' && confirm === newPassword;
  const valid = currentPassword !== '' && newValid && confirmValid;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid)
      return setStatus({
        kind: 'error',
        text: t({ id: 'settings.invalidEntry', defaultMessage: 'Invalid Entry' }),
      });
    mutation.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          setStatus({
            kind: 'success',
            text: t({
              id: 'settings.password.changed',
              defaultMessage: 'Password changed. You were logged out everywhere else.',
            }),
          });
          setCurrentPassword('');
          setNewPassword('');
          setConfirm('');
          setVisited({ newPassword: false, confirm: false });
        },
        onError: (err) =>
          isDemoDisabledError(err) ? onDemoRefused() : setStatus({ kind: 'error', text: errorText(err) }),
      },
    );
  };

  return (
    <SettingsCard
      title={t({ id: 'settings.password.title', defaultMessage: 'Change password' })}
      description={t({
        id: 'settings.password.description',
        defaultMessage: 'Changing it logs you out on your other devices.',
      })}
    >
      {(headingId) => (
        <form aria-labelledby={headingId} onSubmit={onSubmit}>
          <fieldset disabled={disabled || mutation.isPending} className="settings-card__fieldset">
            <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
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
            <TextField
              label={t({ id: 'settings.password.new', defaultMessage: 'New password' })}
              type="password"
              name="new-password"
              autoComplete="new-password"
              required
              maxLength={64}
              value={newPassword}
              // The contracts' PASSWORD_HELP, PASSWORD_HINT and CONFIRM_HINT, in the app's language.
              help={t({
                id: 'settings.password.help',
                defaultMessage: 'Must contain: 8 to 24 characters; uppercase and lowercase letters; number',
              })}
              error={
                visited.newPassword && newPassword !== '' && !newValid
                  ? t({ id: 'settings.password.hint', defaultMessage: 'Please check your password is valid' })
                  : null
              }
              onChange={(e) => {
                setNewPassword(e.target.value);
                setStatus(null);
              }}
              onBlur={() => setVisited((v) => ({ ...v, newPassword: true }))}
            />
            <TextField
              label={t({ id: 'settings.password.confirm', defaultMessage: 'Confirm new password' })}
              type="password"
              name="confirm-password"
              autoComplete="new-password"
              required
              maxLength={64}
              value={confirm}
              error={
                visited.confirm && confirm !== '' && !confirmValid
                  ? t({ id: 'settings.password.mismatch', defaultMessage: 'Passwords do not match.' })
                  : null
              }
              onChange={(e) => {
                setConfirm(e.target.value);
                setStatus(null);
              }}
              onBlur={() => setVisited((v) => ({ ...v, confirm: true }))}
            />
            <FormStatusMessage status={status} />
            <Button type="submit" disabled={!valid}>
              {mutation.isPending ? (
                <Message id="settings.saving" defaultMessage="Saving..." />
              ) : (
                <Message id="settings.password.title" defaultMessage="Change password" />
              )}
            </Button>
          </fieldset>
        </form>
      )}
    </SettingsCard>
  );
}
