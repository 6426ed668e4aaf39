import { USERNAME_PATTERN } from '@cats/contracts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useChangeUsername } from '../api/change-username.ts';
import { ConfirmedFieldForm } from './confirmed-field-form.tsx';

interface Props {
  currentUsername: string;
  disabled: boolean;
  onDemoRefused: () => void;
}

export function ChangeUsernameForm({ currentUsername, disabled, onDemoRefused }: Props) {
  const mutation = useChangeUsername();
  const t = useTranslate();
  return (
    <ConfirmedFieldForm
      title={t({ id: 'settings.username.title', defaultMessage: 'Change username' })}
      description={
        <Message
          id="settings.username.description"
          defaultMessage="Your username is <strong>{username}</strong>. Everyone sees it next to your pictures and comments."
          values={{ username: currentUsername, strong: (chunks) => <strong>{chunks}</strong> }}
        />
      }
      field={{
        label: t({ id: 'settings.username.label', defaultMessage: 'New username' }),
        name: 'username',
        autoComplete: 'username',
        autoCapitalize: 'none',
        spellCheck: false,
        maxLength: 40,
        // The contracts' USERNAME_HELP and USERNAME_HINT, in the app's language.
        help: t({
          id: 'settings.username.help',
          defaultMessage: '4 to 24 characters. Letters, numbers, underscores, hyphens allowed.',
        }),
      }}
      pattern={USERNAME_PATTERN}
      hint={t({
        id: 'settings.username.hint',
        defaultMessage: 'Please check you have entered a valid user name.',
      })}
      successText={t({ id: 'settings.username.changed', defaultMessage: 'Username changed' })}
      save={(username, currentPassword) => mutation.mutateAsync({ username, currentPassword })}
      saving={mutation.isPending}
      disabled={disabled}
      onDemoRefused={onDemoRefused}
    />
  );
}
