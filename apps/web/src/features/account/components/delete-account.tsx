import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { isDemoDisabledError, MessageModal } from '../../../components/message-modal.tsx';
import { Modal } from '../../../components/modal.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { endSession } from '../../../lib/session.ts';
import { useDeleteAccount } from '../api/delete-account.ts';
import { SettingsCard } from './settings-card.tsx';

interface Props {
  userId: string;
  disabled: boolean;
  onDemoRefused: () => void;
}

/** Spec sections 2 and 4: confirm, delete, sign out, goodbye page; failure alerts 'Account deletion failed'. */
export function DeleteAccount({ userId, disabled, onDemoRefused }: Props) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mutation = useDeleteAccount();
  const [confirming, setConfirming] = useState(false);
  const [failed, setFailed] = useState(false);
  const t = useTranslate();

  const onConfirm = () => {
    mutation.mutate(userId, {
      onSuccess: async () => {
        // Leave the guarded page first, so that its sign-in guard does not bounce to /login.
        await navigate('/goodbye', { replace: true });
        await endSession({ accountDeleted: true });
        queryClient.clear();
      },
      onError: (err) => {
        setConfirming(false);
        if (isDemoDisabledError(err)) onDemoRefused();
        else setFailed(true);
      },
    });
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
              onClose={() => setConfirming(false)}
              actions={
                <>
                  <Button
                    variant="secondary"
                    disabled={mutation.isPending}
                    onClick={() => setConfirming(false)}
                  >
                    <Message id="settings.cancel" defaultMessage="Cancel" />
                  </Button>
                  <Button variant="danger" disabled={mutation.isPending} onClick={onConfirm}>
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
