import { EMAIL_HINT, EMAIL_PATTERN } from '@cats/contracts';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { isDemoDisabledError } from '../../../components/message-modal.tsx';
import { useChangeEmail } from '../api/change-email.ts';
import { errorText, FormStatusMessage, SettingsCard, type FormStatus } from './settings-card.tsx';

interface Props {
  currentEmail: string;
  disabled: boolean;
  onDemoRefused: () => void;
}

export function ChangeEmailForm({ currentEmail, disabled, onDemoRefused }: Props) {
  const mutation = useChangeEmail();
  const [email, setEmail] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [visited, setVisited] = useState(false);
  const [status, setStatus] = useState<FormStatus>(null);
  const emailValid = EMAIL_PATTERN.test(email.trim());
  const valid = emailValid && currentPassword !== '';

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return setStatus({ kind: 'error', text: 'Invalid Entry' });
    mutation.mutate(
      { email: email.trim(), currentPassword },
      {
        onSuccess: () => {
          setStatus({ kind: 'success', text: 'Email changed' });
          setEmail('');
          setCurrentPassword('');
          setVisited(false);
        },
        onError: (err) =>
          isDemoDisabledError(err) ? onDemoRefused() : setStatus({ kind: 'error', text: errorText(err) }),
      },
    );
  };

  return (
    <SettingsCard
      title="Change email"
      description={
        <>
          You log in with <strong className="settings-card__email">{currentEmail}</strong>. Nobody else sees
          it.
        </>
      }
    >
      {(headingId) => (
        <form aria-labelledby={headingId} onSubmit={onSubmit}>
          <fieldset disabled={disabled || mutation.isPending} className="settings-card__fieldset">
            <TextField
              label="New email"
              type="email"
              name="email"
              autoComplete="email"
              required
              maxLength={254}
              value={email}
              error={visited && email !== '' && !emailValid ? EMAIL_HINT : null}
              onChange={(e) => {
                setEmail(e.target.value);
                setStatus(null);
              }}
              onBlur={() => setVisited(true)}
            />
            <TextField
              label="Current password"
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
              {mutation.isPending ? 'Saving...' : 'Change email'}
            </Button>
          </fieldset>
        </form>
      )}
    </SettingsCard>
  );
}
