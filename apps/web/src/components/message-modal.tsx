import { DEMO_DISABLED_MESSAGE, DEMO_USER_ID } from '@cats/contracts';
import type { ReactNode } from 'react';
import { ApiError } from '../lib/api-client.ts';
import { authStore } from '../lib/auth-store.ts';
import { Message, useTranslate } from '../i18n/message.tsx';
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
          <Message id="common.ok" defaultMessage="OK" />
        </Button>
      }
    >
      <p className="modal__message">{message}</p>
    </Modal>
  );
}

/** Spec section 6: what the demo account sees when it tries a disabled feature. Render while open. */
export function DemoDisabledModal({ onClose }: { onClose: () => void }) {
  const t = useTranslate();
  return (
    <MessageModal
      message={t({ id: 'common.demoDisabled', defaultMessage: 'Feature disabled for demo user' })}
      onClose={onClose}
    />
  );
}

/**
 * Whether an API error is the server refusing the demo account (403 'Feature disabled for demo user').
 * Its text is in the reader's language (decision 017), so it is known by who asked: a 403 for the
 * signed-in demo account (its fixed id), other than a token problem (which the client refreshes);
 * or, whoever asked, the spec's English sentence itself.
 */
export const isDemoDisabledError = (err: unknown): boolean =>
  err instanceof ApiError &&
  err.status === 403 &&
  (err.message === DEMO_DISABLED_MESSAGE ||
    (authStore.get().userId === DEMO_USER_ID &&
      !/invalid_token/.test(err.headers?.get('www-authenticate') ?? '')));
