import { USERNAME_HELP, USERNAME_HINT, USERNAME_PATTERN } from '@cats/contracts';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { isDemoDisabledError } from '../../../components/message-modal.tsx';
import { useChangeUsername } from '../api/change-username.ts';
import { errorText, FormStatusMessage, SettingsCard, type FormStatus } from './settings-card.tsx';

interface Props {
  currentUsername: string;
  disabled: boolean;
  onDemoRefused: () => void;
}

export function ChangeUsernameForm({ currentUsername, disabled, onDemoRefused }: Props) {
  const mutation = useChangeUsername();
  const [username, setUsername] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [visited, setVisited] = useState(false);
  const [status, setStatus] = useState<FormStatus>(null);
  const usernameValid = USERNAME_PATTERN.test(username.trim());
  const valid = usernameValid && currentPassword !== '';

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return setStatus({ kind: 'error', text: 'Invalid Entry' });
    mutation.mutate(
      { username: username.trim(), currentPassword },
      {
        onSuccess: () => {
          setStatus({ kind: 'success', text: 'Username changed' });
          setUsername('');
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
      title="Change username"
      description={
        <>
          Your username is <strong>{currentUsername}</strong>. Everyone sees it next to your pictures and
          comments.
        </>
      }
    >
      {(headingId) => (
        <form aria-labelledby={headingId} onSubmit={onSubmit}>
          <fieldset disabled={disabled || mutation.isPending} className="settings-card__fieldset">
            <TextField
              label="New username"
              name="username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              maxLength={40}
              value={username}
              help={USERNAME_HELP}
              error={visited && username !== '' && !usernameValid ? USERNAME_HINT : null}
              onChange={(e) => {
                setUsername(e.target.value);
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
              {mutation.isPending ? 'Saving...' : 'Change username'}
            </Button>
          </fieldset>
        </form>
      )}
    </SettingsCard>
  );
}
