import { useState } from 'react';
import { Avatar } from '../../../components/avatar.tsx';
import { Button } from '../../../components/button.tsx';
import { isDemoDisabledError } from '../../../components/message-modal.tsx';
import { useBlockedUsers } from '../api/get-blocked-users.ts';
import { useUnblockUser } from '../api/unblock-user.ts';
import { errorText, FormStatusMessage, SettingsCard, type FormStatus } from './settings-card.tsx';

export function BlockedUsers({ disabled, onDemoRefused }: { disabled: boolean; onDemoRefused: () => void }) {
  const list = useBlockedUsers();
  const unblock = useUnblockUser();
  const [status, setStatus] = useState<FormStatus>(null);

  return (
    <SettingsCard
      title="Blocked users"
      description="You don't see the pictures and comments of people you block, and they don't see yours."
    >
      {() => (
        <>
          {list.isPending ? (
            <p className="muted">Loading...</p>
          ) : list.isError ? (
            <p className="notice notice--error">Error: {errorText(list.error)}</p>
          ) : list.data.length === 0 ? (
            <p className="muted">You have not blocked anyone.</p>
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
                        onSuccess: () => setStatus({ kind: 'success', text: `${user.username} unblocked` }),
                        onError: (err) =>
                          isDemoDisabledError(err)
                            ? onDemoRefused()
                            : setStatus({ kind: 'error', text: errorText(err) }),
                      });
                    }}
                  >
                    Unblock<span className="visually-hidden"> {user.username}</span>
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
