import { Button } from '../button.tsx';
import { Modal } from '../modal.tsx';
import { Message, useTranslate } from '../../i18n/message.tsx';

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
  const t = useTranslate();
  return (
    <Modal
      role="alertdialog"
      title={t({ id: 'post.block.title', defaultMessage: 'Block {username}?' }, { username })}
      onClose={onCancel}
      dismissible={!pending}
      actions={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            <Message id="post.block.cancel" defaultMessage="Cancel" />
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={pending}>
            <Message id="post.block.confirm" defaultMessage="Block" />
          </Button>
        </>
      }
    >
      <p className="modal__message">
        <Message
          id="post.block.message"
          defaultMessage="You will not see each other's pictures, comments or profiles."
        />
      </p>
    </Modal>
  );
}
