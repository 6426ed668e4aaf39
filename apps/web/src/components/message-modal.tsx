import { DEMO_DISABLED_MESSAGE } from '@cats/contracts';
import type { ReactNode } from 'react';
import { ApiError } from '../lib/api-client.ts';
import { Button } from './button.tsx';
import { Modal } from './modal.tsx';

interface MessageModalProps {
  /** The message; it also names the dialog unless a title is given. */
  message: ReactNode;
  title?: ReactNode;
  onClose: () => void;
}

/** A message that needs acknowledging, with one OK button (spec: results and refusals 'with OK'). */
export function MessageModal({ message, title, onClose }: MessageModalProps) {
  return (
    <Modal
      role="alertdialog"
      title={title ?? message}
      hideTitle={!title}
      onClose={onClose}
      actions={
        <Button variant="primary" onClick={onClose}>
          OK
        </Button>
      }
    >
      <p className="modal__message">{message}</p>
    </Modal>
  );
}

/** Spec section 6: what the demo account sees when it tries a disabled feature. Render while open. */
export function DemoDisabledModal({ onClose }: { onClose: () => void }) {
  return <MessageModal message={DEMO_DISABLED_MESSAGE} onClose={onClose} />;
}

/** Whether an API error is the server refusing the demo account (403 'Feature disabled for demo user'). */
export const isDemoDisabledError = (err: unknown): boolean =>
  err instanceof ApiError && err.status === 403 && err.message === DEMO_DISABLED_MESSAGE;
