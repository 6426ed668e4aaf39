import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { isDemoDisabledError, MessageModal } from '../../../components/message-modal.tsx';
import { Modal } from '../../../components/modal.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { endSession } from '../../../lib/session.ts';
import { useDeleteAccount } from '../api/delete-account.ts';
import { errorText, FormStatusMessage, SettingsCard, type FormStatus } from './settings-card.tsx';

interface Props {
  userId: string;
  disabled: boolean;
  onDemoRefused: () => void;
}

/**
 * Spec sections 2 and 4: confirm, delete, sign out, goodbye page; failure alerts 'Account deletion failed'.
 * Issue 46: the confirmation also asks for the password, so that a stolen session alone cannot end
 * the account; a wrong one (or the login throttle) is said in the dialog, which stays open.
 */
/** A refusal the person can act on by typing the password again (issue 46), not a failure. */
const retryable = (err: unknown): err is ApiError =>
  err instanceof ApiError &&
  (err.status === 400 || err.status === 429 || (err.status === 403 && !isDemoDisabledError(err)));

export function DeleteAccount({ userId, disabled, onDemoRefused }: Props) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mutation = useDeleteAccount();
  const [confirming, setConfirming] = useState(false);
  const [failed, setFailed] = useState(false);
  const [password, setPassword] = useState('');
  const [status, setStatus] = useState<FormStatus>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const t = useTranslate();

  const close = () => {
    setConfirming(false);
    setPassword('');
    setStatus(null);
  };

  const onConfirm = (e?: FormEvent) => {
    e?.preventDefault();
    if (password === '' || mutation.isPending) return;
    mutation.mutate(
      { userId, password },
      {
        onSuccess: async () => {
          // Leave the guarded page first, so that its sign-in guard does not bounce to /login.
          await navigate('/goodbye', { replace: true });
          await endSession({ accountDeleted: true });
          queryClient.clear();
        },
        onError: (err) => {
          // A wrong password (400), the throttle (429) or a session that must sign in again (403):
          // the server's message, in the dialog, and the password can be typed again.
          if (retryable(err)) {
            setStatus({ kind: 'error', text: errorText(err) });
            passwordRef.current?.focus();
            return;
          }
          close();
          if (isDemoDisabledError(err)) onDemoRefused();
          else setFailed(true);
        },
      },
    );
  };

  return (
    <SettingsCard
      title={t({ id: 'settings.delete.title', defaultMessage: 'Delete account' })}
      danger
      description={t({
        id: 'settings.delete.description',
        defaultMessage: 'Deletes your account with all your pictures, comments, likes and groups.',
      })}
    >
      {() => (
        <>
          <Button variant="danger" disabled={disabled} onClick={() => setConfirming(true)}>
            <Message id="settings.delete.title" defaultMessage="Delete account" />
          </Button>
          {confirming && (
            <Modal
              role="alertdialog"
              title={t({ id: 'settings.delete.confirmTitle', defaultMessage: 'Delete your account?' })}
              dismissible={!mutation.isPending}
              onClose={close}
              initialFocusRef={passwordRef}
              actions={
                <>
                  <Button variant="secondary" disabled={mutation.isPending} onClick={close}>
                    <Message id="settings.cancel" defaultMessage="Cancel" />
                  </Button>
                  <Button
                    variant="danger"
                    disabled={mutation.isPending || password === ''}
                    onClick={() => onConfirm()}
                  >
                    {mutation.isPending ? (
                      <Message id="settings.delete.deleting" defaultMessage="Deleting..." />
                    ) : (
                      <Message id="settings.delete.confirm" defaultMessage="Delete" />
                    )}
                  </Button>
                </>
              }
            >
              <p>
                <Message
                  id="settings.delete.warning"
                  defaultMessage="This will delete all existing pictures and groups in your account."
                />
              </p>
              <p className="settings-card__warning">
                <Message
                  id="settings.delete.irreversible"
                  defaultMessage="Deleting your account can NOT be reversed."
                />
              </p>
              <form onSubmit={onConfirm}>
                <TextField
                  ref={passwordRef}
                  label={t({ id: 'settings.delete.password', defaultMessage: 'Password' })}
                  type="password"
                  name="current-password"
                  autoComplete="current-password"
                  required
                  disabled={mutation.isPending}
                  value={password}
                  onChange={(e) => {
                    setPassword(e.target.value);
                    setStatus(null);
                  }}
                />
                <FormStatusMessage status={status} />
              </form>
            </Modal>
          )}
          {failed && (
            <MessageModal
              message={t({ id: 'settings.delete.failed', defaultMessage: 'Account deletion failed' })}
              onClose={() => setFailed(false)}
            />
          )}
        </>
      )}
    </SettingsCard>
  );
}
