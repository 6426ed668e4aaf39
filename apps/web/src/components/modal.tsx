import { useEffect, useId, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';
import './modal.css';

export interface ModalProps {
  /** Heading of the dialog; also its accessible name. */
  title: ReactNode;
  /** Called on Escape, on a click on the backdrop (unless `dismissible` is false) and by the content's buttons. */
  onClose: () => void;
  children: ReactNode;
  /** 'alertdialog' for confirmations and messages that need an answer. */
  role?: 'dialog' | 'alertdialog';
  /** Element to focus when the dialog opens; defaults to the first focusable element. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** false: Escape and backdrop clicks do nothing (for example while a request runs). */
  dismissible?: boolean;
  /** Buttons row under the content. */
  actions?: ReactNode;
  /** Hides the visible heading (it still names the dialog). */
  hideTitle?: boolean;
  className?: string;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog: open while mounted (render it conditionally). Built on the native <dialog> opened with
 * showModal(), so the rest of the page is inert and it sits in the top layer; on top of that, Tab and
 * Shift+Tab cycle inside it, and focus returns to the element that opened it when it closes.
 */
export function Modal({
  title,
  onClose,
  children,
  role = 'dialog',
  initialFocusRef,
  dismissible = true,
  actions,
  hideTitle,
  className,
}: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const onCloseRef = useRef(onClose);
  const dismissibleRef = useRef(dismissible);
  useEffect(() => {
    onCloseRef.current = onClose;
    dismissibleRef.current = dismissible;
  });

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (typeof dialog.showModal === 'function') {
      if (!dialog.open) dialog.showModal();
    } else dialog.setAttribute('open', '');
    const target = initialFocusRef?.current ?? dialog.querySelector<HTMLElement>(FOCUSABLE) ?? dialog;
    target.focus();
    return () => {
      if (dialog.open && typeof dialog.close === 'function') dialog.close();
      // Give focus back to whatever opened the dialog, if it is still on the page.
      if (opener?.isConnected) opener.focus();
    };
    // Opening happens once per mount; later prop changes must not steal focus again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Escape fires 'cancel': keep the dialog open in the DOM and let the owner decide.
    const onCancel = (e: Event) => {
      e.preventDefault();
      if (dismissibleRef.current) onCloseRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => dialog.removeEventListener('cancel', onCancel);
  }, []);

  const onKeyDown = (e: React.KeyboardEvent<HTMLDialogElement>) => {
    if (e.key === 'Escape') {
      // jsdom and older engines have no 'cancel' event.
      e.preventDefault();
      if (dismissible) onClose();
      return;
    }
    if (e.key !== 'Tab') return;
    const items = Array.from(e.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
      (el) => !el.closest('[hidden], [inert]'),
    );
    if (items.length === 0) {
      e.preventDefault();
      return;
    }
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (e.shiftKey && (document.activeElement === first || document.activeElement === e.currentTarget)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      className={['modal', className].filter(Boolean).join(' ')}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onKeyDown={onKeyDown}
      onMouseDown={(e) => {
        // A press on the backdrop lands on the <dialog> element itself, outside its inner box.
        if (e.target === e.currentTarget && dismissible) onClose();
      }}
    >
      <div className="modal__box">
        <h2 id={titleId} className={hideTitle ? 'visually-hidden' : 'modal__title'}>
          {title}
        </h2>
        <div id={bodyId} className="modal__body">
          {children}
        </div>
        {actions && <div className="modal__actions">{actions}</div>}
      </div>
    </dialog>
  );
}
