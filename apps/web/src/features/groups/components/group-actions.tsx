import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { GroupDetail } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { useAuth } from '../../../lib/auth-store.ts';
import { useDeleteGroup, useRemoveMember } from '../api/manage-group.ts';
import { groupErrorMessage } from '../api/errors.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';

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
    <section className="groups-actions" aria-label="Group actions">
      <Button variant={isOwner ? 'danger' : 'secondary'} onClick={() => setConfirming(true)} disabled={busy}>
        {isOwner ? 'Delete group' : 'Leave group'}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={isOwner ? `Delete ${group.groupName}?` : `Leave ${group.groupName}?`}
        confirmLabel={isOwner ? 'Delete group' : 'Leave group'}
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
            Members lose its feed and map, and pending requests are dropped. The pictures stay with their
            owners. This can not be undone.
          </p>
        ) : (
          <p>You will no longer see its pictures, and your pictures will no longer be shared with it.</p>
        )}
      </ConfirmDialog>
    </section>
  );
}
