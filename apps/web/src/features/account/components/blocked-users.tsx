import { useState } from 'react';
import { Avatar } from '../../../components/avatar.tsx';
import { Button } from '../../../components/button.tsx';
import { isDemoDisabledError } from '../../../components/message-modal.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useBlockedUsers } from '../api/get-blocked-users.ts';
import { useUnblockUser } from '../api/unblock-user.ts';
import {
  errorText,
  FormStatusMessage,
  LoadErrorText,
  SettingsCard,
  type FormStatus,
} from './settings-card.tsx';

export function BlockedUsers({ disabled, onDemoRefused }: { disabled: boolean; onDemoRefused: () => void }) {
  const list = useBlockedUsers();
  const unblock = useUnblockUser();
  const [status, setStatus] = useState<FormStatus>(null);
  const t = useTranslate();

  return (
    <SettingsCard
      title={t({ id: 'settings.blocked.title', defaultMessage: 'Blocked users' })}
      description={t({
        id: 'settings.blocked.description',
        defaultMessage:
          "You don't see the pictures and comments of people you block, and they don't see yours.",
      })}
    >
      {() => (
        <>
          {list.isPending ? (
            <p className="muted">
              <Message id="settings.loading" defaultMessage="Loading..." />
            </p>
          ) : list.isError ? (
            <LoadErrorText error={list.error} />
          ) : list.data.length === 0 ? (
            <p className="muted">
              <Message id="settings.blocked.none" defaultMessage="You have not blocked anyone." />
            </p>
          ) : (
            <ul className="blocked-users">
              {list.data.map((user) => (
                <li key={user._id} className="blocked-users__item">
                  <Avatar src={user.avatarUrl ?? user.profilePicUrl} size={40} />
                  <span className="blocked-users__name">{user.username}</span>
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={disabled || (unblock.isPending && unblock.variables === user._id)}
                    onClick={() => {
                      setStatus(null);
                      unblock.mutate(user._id, {
                        onSuccess: () =>
                          setStatus({
                            kind: 'success',
                            text: t(
                              { id: 'settings.blocked.unblocked', defaultMessage: '{username} unblocked' },
                              { username: user.username },
                            ),
                          }),
                        onError: (err) =>
                          isDemoDisabledError(err)
                            ? onDemoRefused()
                            : setStatus({ kind: 'error', text: errorText(err) }),
                      });
                    }}
                  >
                    <Message
                      id="settings.blocked.unblock"
                      defaultMessage="Unblock<hidden> {username}</hidden>"
                      values={{
                        username: user.username,
                        hidden: (chunks) => <span className="visually-hidden">{chunks}</span>,
                      }}
                    />
                  </Button>
                </li>
              ))}
            </ul>
          )}
          <FormStatusMessage status={status} />
        </>
      )}
    </SettingsCard>
  );
}
