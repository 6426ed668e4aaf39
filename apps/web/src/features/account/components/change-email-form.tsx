import { EMAIL_HINT, EMAIL_PATTERN } from '@cats/contracts';
import { useChangeEmail } from '../api/change-email.ts';
import { ConfirmedFieldForm } from './confirmed-field-form.tsx';

interface Props {
  currentEmail: string;
  disabled: boolean;
  onDemoRefused: () => void;
}

export function ChangeEmailForm({ currentEmail, disabled, onDemoRefused }: Props) {
  const mutation = useChangeEmail();
  return (
    <ConfirmedFieldForm
      title="Change email"
      description={
        <>
          You log in with <strong className="settings-card__email">{currentEmail}</strong>. Nobody else sees
          it.
        </>
      }
      field={{ label: 'New email', type: 'email', name: 'email', autoComplete: 'email', maxLength: 254 }}
      pattern={EMAIL_PATTERN}
      hint={EMAIL_HINT}
      successText="Email changed"
      save={(email, currentPassword) => mutation.mutateAsync({ email, currentPassword })}
      saving={mutation.isPending}
      disabled={disabled}
      onDemoRefused={onDemoRefused}
    />
  );
}
