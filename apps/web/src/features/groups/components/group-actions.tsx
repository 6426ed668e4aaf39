import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { GroupDetail } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { useAuth } from '../../../lib/auth-store.ts';
import { useDeleteGroup, useRemoveMember } from '../api/manage-group.ts';
import { groupErrorMessage } from '../api/errors.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { defineMessage } from '../../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';

const DELETE_GROUP = defineMessage({ id: 'groups.actions.delete', defaultMessage: 'Delete group' });
const LEAVE_GROUP = defineMessage({ id: 'groups.actions.leave', defaultMessage: 'Leave group' });

/** Leave the group (members) or delete it (owner), each after a confirmation. */
export function GroupActions({
  group,
  onResult,
}: {
  group: GroupDetail;
  onResult: (message: string) => void;
}) {
  const { userId } = useAuth();
  const navigate = useNavigate();
  const t = useTranslate();
  const [confirming, setConfirming] = useState(false);
  const leave = useRemoveMember(group._id);
  const remove = useDeleteGroup(group._id);
  const isOwner = group.role === 'owner';
  const busy = leave.isPending || remove.isPending;
  const done = () => navigate('/groups', { replace: true });
  const onError = (err: unknown) => {
    setConfirming(false);
    onResult(groupErrorMessage(err));
  };

  return (
    <section
      className="groups-actions"
      aria-label={t({ id: 'groups.actions.label', defaultMessage: 'Group actions' })}
    >
      <Button variant={isOwner ? 'danger' : 'secondary'} onClick={() => setConfirming(true)} disabled={busy}>
        {t(isOwner ? DELETE_GROUP : LEAVE_GROUP)}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={
          isOwner
            ? t(
                { id: 'groups.actions.deleteTitle', defaultMessage: 'Delete {group}?' },
                { group: group.groupName },
              )
            : t(
                { id: 'groups.actions.leaveTitle', defaultMessage: 'Leave {group}?' },
                { group: group.groupName },
              )
        }
        confirmLabel={t(isOwner ? DELETE_GROUP : LEAVE_GROUP)}
        busy={busy}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          isOwner
            ? remove.mutate(undefined, { onSuccess: done, onError })
            : userId && leave.mutate(userId, { onSuccess: done, onError })
        }
      >
        {isOwner ? (
          <p>
            <Message
              id="groups.actions.deleteText"
              defaultMessage="Members lose its feed and map, and pending requests are dropped. The pictures stay with their owners. This can not be undone."
            />
          </p>
        ) : (
          <p>
            <Message
              id="groups.actions.leaveText"
              defaultMessage="You will no longer see its pictures, and your pictures will no longer be shared with it."
            />
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}
