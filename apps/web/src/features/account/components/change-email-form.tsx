import { EMAIL_PATTERN } from '@cats/contracts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useChangeEmail } from '../api/change-email.ts';
import { ConfirmedFieldForm } from './confirmed-field-form.tsx';

interface Props {
  currentEmail: string;
  disabled: boolean;
  onDemoRefused: () => void;
}

export function ChangeEmailForm({ currentEmail, disabled, onDemoRefused }: Props) {
  const mutation = useChangeEmail();
  const t = useTranslate();
  return (
    <ConfirmedFieldForm
      title={t({ id: 'settings.email.title', defaultMessage: 'Change email' })}
      description={
        <Message
          id="settings.email.description"
          defaultMessage="You log in with <strong>{email}</strong>. Nobody else sees it."
          values={{
            email: currentEmail,
            strong: (chunks) => <strong className="settings-card__email">{chunks}</strong>,
          }}
        />
      }
      field={{
        label: t({ id: 'settings.email.label', defaultMessage: 'New email' }),
        type: 'email',
        name: 'email',
        autoComplete: 'email',
        maxLength: 254,
      }}
      pattern={EMAIL_PATTERN}
      // The contracts' EMAIL_HINT, in the app's language.
      hint={t({
        id: 'settings.email.hint',
        defaultMessage: 'Please check you have entered your email correctly.',
      })}
      // Issue 29: nothing changes until the link mailed to the new address is followed.
      successText={(email) =>
        t(
          {
            id: 'settings.email.checkInbox',
            defaultMessage:
              'Check your inbox: we sent a link to {email}. Your email changes when you follow it.',
          },
          { email },
        )
      }
      save={(email, currentPassword) => mutation.mutateAsync({ email, currentPassword })}
      saving={mutation.isPending}
      disabled={disabled}
      onDemoRefused={onDemoRefused}
    />
  );
}
