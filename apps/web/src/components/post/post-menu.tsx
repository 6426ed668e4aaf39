import { useEffect, useId, useRef, useState } from 'react';
import type { Post } from '@cats/contracts';
import { useHidePost } from './api/hide-post.ts';
import { useBlockUser } from './api/block-user.ts';
import { DemoDisabledModal } from '../message-modal.tsx';
import { isDemoRefusal, logFailure } from './api/errors.ts';
import { BlockUserDialog } from './block-user-dialog.tsx';

/**
 * The card's popup menu: hide post, block user. Closes after either, on Escape and on a click outside.
 * Hiding acts at once (with an Undo toast); blocking asks first.
 */
export function PostMenu({ post }: { post: Post }) {
  const [open, setOpen] = useState(false);
  const [demo, setDemo] = useState(false);
  const [confirmBlock, setConfirmBlock] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const hide = useHidePost();
  const block = useBlockUser();

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

  const onFailure = (what: string) => (err: unknown) => {
    if (isDemoRefusal(err)) setDemo(true);
    else logFailure(what, err);
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
                hide.mutate(post._id, { onError: onFailure('Hide post failed') });
              }}
            >
              Hide post
            </button>
          </li>
          <li role="none">
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                setOpen(false);
                setConfirmBlock(true);
              }}
            >
              Block user
            </button>
          </li>
        </ul>
      )}
      {confirmBlock && (
        <BlockUserDialog
          username={post.user.username}
          pending={block.isPending}
          onCancel={() => setConfirmBlock(false)}
          onConfirm={() =>
            block.mutate(
              { user: post.user, postId: post._id },
              {
                onSettled: () => setConfirmBlock(false),
                onError: onFailure('Block user failed'),
              },
            )
          }
        />
      )}
      {demo && <DemoDisabledModal onClose={() => setDemo(false)} />}
    </div>
  );
}
