import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from '../../../components/button.tsx';
import { Message } from '../../../i18n/message.tsx';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
}

/** A confirmation on the native <dialog>: Cancel is focused first, so Enter never destroys by accident. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  busy,
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="groups-confirm"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId} className="groups-confirm__title">
        {title}
      </h2>
      <div id={bodyId} className="groups-confirm__body">
        {children}
      </div>
      <div className="groups-confirm__actions">
        <Button variant="secondary" onClick={onCancel} autoFocus>
          <Message id="groups.confirm.cancel" defaultMessage="Cancel" />
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}
