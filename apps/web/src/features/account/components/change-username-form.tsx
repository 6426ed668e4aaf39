import { USERNAME_HELP, USERNAME_HINT, USERNAME_PATTERN } from '@cats/contracts';
import { useChangeUsername } from '../api/change-username.ts';
import { ConfirmedFieldForm } from './confirmed-field-form.tsx';

interface Props {
  currentUsername: string;
  disabled: boolean;
  onDemoRefused: () => void;
}

export function ChangeUsernameForm({ currentUsername, disabled, onDemoRefused }: Props) {
  const mutation = useChangeUsername();
  return (
    <ConfirmedFieldForm
      title="Change username"
      description={
        <>
          Your username is <strong>{currentUsername}</strong>. Everyone sees it next to your pictures and
          comments.
        </>
      }
      field={{
        label: 'New username',
        name: 'username',
        autoComplete: 'username',
        autoCapitalize: 'none',
        spellCheck: false,
        maxLength: 40,
        help: USERNAME_HELP,
      }}
      pattern={USERNAME_PATTERN}
      hint={USERNAME_HINT}
      successText="Username changed"
      save={(username, currentPassword) => mutation.mutateAsync({ username, currentPassword })}
      saving={mutation.isPending}
      disabled={disabled}
      onDemoRefused={onDemoRefused}
    />
  );
}
