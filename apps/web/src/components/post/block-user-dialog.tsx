import { Button } from '../button.tsx';
import { Modal } from '../modal.tsx';

/**
 * Asks before blocking, naming the user and what a block does (issue 24). Render while open. Cancel comes
 * first and takes the focus (the dialog focuses its first button): Enter does not block by accident.
 */
export function BlockUserDialog({
  username,
  pending,
  onCancel,
  onConfirm,
}: {
  username: string;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal
      role="alertdialog"
      title={`Block ${username}?`}
      onClose={onCancel}
      dismissible={!pending}
      actions={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={pending}>
            Block
          </Button>
        </>
      }
    >
      <p className="modal__message">You will not see each other&apos;s pictures, comments or profiles.</p>
    </Modal>
  );
}
