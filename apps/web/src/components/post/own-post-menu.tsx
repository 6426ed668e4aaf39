import { lazy, Suspense, useRef, useState } from 'react';
import type { Post } from '@cats/contracts';
import { Button, buttonClass } from '../button.tsx';
import { ShareWithGroupsDialog } from '../groups/post-group-share.tsx';
import { DemoDisabledModal } from '../message-modal.tsx';
import { Modal } from '../modal.tsx';
import { MenuItem, PopupMenu } from '../popup-menu.tsx';
import { showToast } from '../toast.tsx';
import { useDeletePost } from './api/delete-post.ts';
import { errorMessage, isDemoRefusal } from './api/errors.ts';
import { useToggleLocation } from './api/toggle-location.ts';
import { EditPostDialog } from './edit-post-dialog.tsx';
import { hasGps, LOCATION_TOOLTIPS } from './location-toggle.tsx';
import { sharePostLink } from './share-post.ts';
import { Message, useTranslate } from '../../i18n/message.tsx';

// Its own chunk: the cat search and the contracts' validation load when the dialog first opens.
const WhichCatDialog = lazy(() => import('../cats/which-cat-dialog.tsx'));

/**
 * The popup menu on one's own cards (issue 24): Edit, Which cat is this? (issue 26), Share, Share with
 * groups, the location on the map, Delete. Edit and Share with groups open dialogs; the location switches at once (the same call
 * as the own profile's switch) and a toast says which way; Delete asks first, then moves the picture
 * to the trash with an Undo.
 */
export function OwnPostMenu({ post, onDeleted }: { post: Post; onDeleted?: () => void }) {
  const t = useTranslate();
  const [dialog, setDialog] = useState<'edit' | 'cat' | 'delete' | 'groups' | 'demo' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const remove = useDeletePost();
  const location = useToggleLocation();
  const close = () => setDialog(null);
  const located = hasGps(post);

  const confirmDelete = () => {
    setFailure(null);
    remove.mutate(post._id, {
      // The card leaves every list with this (useDeletePost), and this menu with it; a page of the
      // post itself (onDeleted) moves elsewhere.
      onSuccess: () => onDeleted?.(),
      onError: (err) => {
        if (isDemoRefusal(err)) setDialog('demo');
        else setFailure(errorMessage(err));
      },
    });
  };

  const toggleLocation = () =>
    location.mutate(post._id, {
      onSuccess: ({ updatedPost }) =>
        showToast({
          message: updatedPost.showLocation
            ? t({ id: 'post.own.locationOn', defaultMessage: 'Location on: this picture shows on the map.' })
            : t({
                id: 'post.own.locationOff',
                defaultMessage: 'Location off: this picture no longer shows on the map.',
              }),
        }),
      onError: (err) => {
        if (isDemoRefusal(err)) setDialog('demo');
        else
          showToast({
            message: t(
              { id: 'post.own.locationFailed', defaultMessage: 'Could not change the location: {message}' },
              { message: errorMessage(err) },
            ),
          });
      },
    });

  return (
    <>
      <PopupMenu label={t({ id: 'post.menu.label', defaultMessage: 'Post options' })}>
        <MenuItem onSelect={() => setDialog('edit')}>
          <Message id="post.own.edit" defaultMessage="Edit" />
        </MenuItem>
        <MenuItem onSelect={() => setDialog('cat')}>
          <Message id="post.own.whichCat" defaultMessage="Which cat is this?" />
        </MenuItem>
        <MenuItem onSelect={() => void sharePostLink(post)}>
          <Message id="post.own.share" defaultMessage="Share" />
        </MenuItem>
        <MenuItem onSelect={() => setDialog('groups')}>
          <Message id="post.own.shareGroups" defaultMessage="Share with groups" />
        </MenuItem>
        <MenuItem
          onSelect={toggleLocation}
          disabled={!located || post.locationLocked === true || location.isPending}
          hint={
            !located
              ? t(LOCATION_TOOLTIPS.missing)
              : post.locationLocked
                ? t(LOCATION_TOOLTIPS.locked)
                : undefined
          }
        >
          {located && post.showLocation ? (
            <Message id="post.own.hideLocation" defaultMessage="Hide location on map" />
          ) : (
            <Message id="post.own.showLocation" defaultMessage="Show location on map" />
          )}
        </MenuItem>
        <MenuItem
          onSelect={() => {
            setFailure(null);
            setDialog('delete');
          }}
        >
          <Message id="post.own.delete" defaultMessage="Delete" />
        </MenuItem>
      </PopupMenu>
      {dialog === 'delete' && (
        <Modal
          role="alertdialog"
          title={t({ id: 'post.own.delete.title', defaultMessage: 'Delete this picture?' })}
          onClose={close}
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
                onClick={close}
              >
                <Message id="post.own.delete.cancel" defaultMessage="Cancel" />
              </button>
              <Button variant="danger" disabled={remove.isPending} onClick={confirmDelete}>
                <Message id="post.own.delete" defaultMessage="Delete" />
              </Button>
            </>
          }
        >
          <p className="modal__message">
            <Message
              id="post.own.delete.text"
              defaultMessage="It goes to your trash, where you can restore it for 30 days. After that it is deleted for good, with its likes and comments."
            />
          </p>
          {failure && (
            <p className="notice notice--error" role="alert">
              {failure}
            </p>
          )}
        </Modal>
      )}
      {dialog === 'edit' && (
        <EditPostDialog post={post} onClose={close} onDemoRefused={() => setDialog('demo')} />
      )}
      {dialog === 'cat' && (
        <Suspense fallback={null}>
          <WhichCatDialog post={post} onClose={close} onDemoRefused={() => setDialog('demo')} />
        </Suspense>
      )}
      {dialog === 'groups' && <ShareWithGroupsDialog post={post} onClose={close} />}
      {dialog === 'demo' && <DemoDisabledModal onClose={close} />}
    </>
  );
}
