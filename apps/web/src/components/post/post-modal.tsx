import type { ReactNode } from 'react';
import { Modal } from '../modal.tsx';
import { Button } from '../button.tsx';
import { DemoDisabledModal } from '../message-modal.tsx';
import { Message } from '../../i18n/message.tsx';

/**
 * Kept for code written while the shared modal did not exist yet (groups): new code should use
 * components/modal.tsx and components/message-modal.tsx directly.
 */
export function PostModal({
  open,
  onClose,
  children,
  title = 'Message',
}: {
  open: boolean;
  onClose?: () => void;
  children: ReactNode;
  title?: string;
}) {
  if (!open) return null;
  return (
    <Modal
      role="alertdialog"
      title={title}
      hideTitle
      dismissible={onClose !== undefined}
      onClose={onClose ?? (() => {})}
      actions={
        onClose && (
          <Button variant="primary" onClick={onClose}>
            <Message id="common.ok" defaultMessage="OK" />
          </Button>
        )
      }
    >
      {children}
    </Modal>
  );
}

/** Kept for existing callers: prefer `{open && <DemoDisabledModal onClose={...} />}`. */
export function DemoModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  return open ? <DemoDisabledModal onClose={onClose} /> : null;
}
