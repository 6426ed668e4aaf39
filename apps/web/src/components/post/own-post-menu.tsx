import { useEffect, useId, useRef, useState } from 'react';
import type { Post } from '@cats/contracts';
import { Button, buttonClass } from '../button.tsx';
import { DemoDisabledModal } from '../message-modal.tsx';
import { Modal } from '../modal.tsx';
import { showToast } from '../toast.tsx';
import { useDeletePost } from './api/delete-post.ts';
import { EditPostDialog } from './edit-post-dialog.tsx';
import { errorMessage, isDemoRefusal } from './api/errors.ts';

/**
 * The popup menu on one's own cards (issue 24): Edit and Delete; Share and the like join it here.
 * Edit opens a dialog for the text. Delete asks first, then moves the picture to the trash, from which
 * it can be restored for 30 days.
 */
export function OwnPostMenu({ post }: { post: Post }) {
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  const [demo, setDemo] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const remove = useDeletePost();

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const confirmDelete = () => {
    setFailure(null);
    remove.mutate(post._id, {
      // The card leaves every list with this (useDeletePost), and this menu with it.
      onSuccess: () =>
        showToast({
          message: 'Picture moved to the trash. You can restore it for 30 days.',
          link: { to: '/profile/trash', label: 'Open trash' },
        }),
      onError: (err) => {
        if (isDemoRefusal(err)) {
          setConfirming(false);
          setDemo(true);
        } else setFailure(errorMessage(err));
      },
    });
  };

  return (
    <div className="post-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="post-menu__button"
        aria-label="Post options"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
          <circle cx="5" cy="12" r="2" />
          <circle cx="12" cy="12" r="2" />
          <circle cx="19" cy="12" r="2" />
        </svg>
      </button>
      {open && (
        <ul className="post-menu__list" role="menu" id={menuId}>
          <li role="none">
            <button
              type="button"
              role="menuitem"
              autoFocus
              onClick={() => {
                setOpen(false);
                setEditing(true);
              }}
            >
              Edit
            </button>
          </li>
          <li role="none">
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                setOpen(false);
                setFailure(null);
                setConfirming(true);
              }}
            >
              Delete
            </button>
          </li>
        </ul>
      )}
      {confirming && (
        <Modal
          role="alertdialog"
          title="Delete this picture?"
          onClose={() => setConfirming(false)}
          dismissible={!remove.isPending}
          // Cancel first: Enter never deletes by accident.
          initialFocusRef={cancelRef}
          actions={
            <>
              <button
                ref={cancelRef}
                type="button"
                className={buttonClass('secondary')}
                disabled={remove.isPending}
                onClick={() => setConfirming(false)}
              >
                Cancel
              </button>
              <Button variant="danger" disabled={remove.isPending} onClick={confirmDelete}>
                Delete
              </Button>
            </>
          }
        >
          <p className="modal__message">
            It goes to your trash, where you can restore it for 30 days. After that it is deleted for good,
            with its likes and comments.
          </p>
          {failure && (
            <p className="notice notice--error" role="alert">
              {failure}
            </p>
          )}
        </Modal>
      )}
      {editing && (
        <EditPostDialog post={post} onClose={() => setEditing(false)} onDemoRefused={() => setDemo(true)} />
      )}
      {demo && <DemoDisabledModal onClose={() => setDemo(false)} />}
    </div>
  );
}
