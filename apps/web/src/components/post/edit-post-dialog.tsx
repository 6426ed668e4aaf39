import { useState, type FormEvent } from 'react';
import { ALT_TEXT_MAX, CAPTION_MAX, CAT_NAME_MAX, type EditPostRequest, type Post } from '@cats/contracts';
import { Button, buttonClass } from '../button.tsx';
import { CountedTextarea } from '../counted-textarea.tsx';
import { TextField } from '../form-field.tsx';
import { Modal } from '../modal.tsx';
import { LocationChooser, type ChosenLocation } from '../location-picker/location-chooser.tsx';
import { useEditPost } from './api/edit-post.ts';
import { errorMessage, isDemoRefusal } from './api/errors.ts';
import { hasGps } from './location-toggle.tsx';
import { Message, useTranslate } from '../../i18n/message.tsx';

interface EditPostDialogProps {
  post: Post;
  onClose: () => void;
  /** The demo account may not edit: the caller shows its message instead. */
  onDemoRefused: () => void;
}

/**
 * Edit one's own post (issue 24): caption, cat name and description. Only what changed is sent; the
 * server keeps the version it replaces, and the card shows 'edited'. Refusals stay in the dialog.
 * Issue 26: the place too, set, corrected or removed with the Spot screen's picker (no version of a
 * place is kept, and a post gets no 'edited' mark for it: the history is public).
 */
export function EditPostDialog({ post, onClose, onDemoRefused }: EditPostDialogProps) {
  const t = useTranslate();
  const [caption, setCaption] = useState(post.caption);
  const [catName, setCatName] = useState(post.catName ?? '');
  const [altText, setAltText] = useState(post.altText ?? '');
  const [failure, setFailure] = useState<string | null>(null);
  // The owner's own post: the exact place.
  const [saved] = useState<ChosenLocation | null>(() =>
    hasGps(post) ? { latitude: post.latitude!, longitude: post.longitude!, source: 'saved' } : null,
  );
  const [location, setLocation] = useState<ChosenLocation | null>(saved);
  const placeChanged =
    location === null
      ? saved !== null
      : saved === null || location.latitude !== saved.latitude || location.longitude !== saved.longitude;
  const edit = useEditPost(post._id);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (edit.isPending) return;
    const changes: EditPostRequest = {
      ...(caption !== post.caption ? { caption } : {}),
      ...(catName !== (post.catName ?? '') ? { catName } : {}),
      ...(altText !== (post.altText ?? '') ? { altText } : {}),
      ...(placeChanged
        ? { latitude: location?.latitude ?? null, longitude: location?.longitude ?? null }
        : {}),
    };
    if (Object.keys(changes).length === 0) {
      onClose();
      return;
    }
    setFailure(null);
    edit.mutate(changes, {
      onSuccess: onClose,
      onError: (err) => {
        if (isDemoRefusal(err)) {
          onClose();
          onDemoRefused();
        } else setFailure(errorMessage(err));
      },
    });
  };

  return (
    <Modal
      title={t({ id: 'post.edit.title', defaultMessage: 'Edit picture' })}
      className="edit-post-dialog"
      onClose={onClose}
      dismissible={!edit.isPending}
      actions={
        <>
          <button
            type="button"
            className={buttonClass('secondary')}
            disabled={edit.isPending}
            onClick={onClose}
          >
            <Message id="post.edit.cancel" defaultMessage="Cancel" />
          </button>
          <Button type="submit" form={`edit-post-${post._id}`} disabled={edit.isPending}>
            {edit.isPending ? (
              <Message id="post.edit.saving" defaultMessage="Saving..." />
            ) : (
              <Message id="post.edit.save" defaultMessage="Save" />
            )}
          </Button>
        </>
      }
    >
      <form id={`edit-post-${post._id}`} className="edit-post-dialog__form" onSubmit={submit}>
        <CountedTextarea
          label={t({ id: 'post.edit.caption', defaultMessage: 'Caption' })}
          name="caption"
          rows={3}
          max={CAPTION_MAX}
          value={caption}
          onChange={(e) => setCaption(e.target.value)}
        />
        <TextField
          label={t({ id: 'post.edit.catName', defaultMessage: "Cat's name (optional)" })}
          name="catName"
          maxLength={CAT_NAME_MAX}
          autoComplete="off"
          value={catName}
          onChange={(e) => setCatName(e.target.value)}
        />
        <CountedTextarea
          label={t({
            id: 'post.edit.altText',
            defaultMessage: "Describe this photo for people who can't see it",
          })}
          name="altText"
          rows={4}
          max={ALT_TEXT_MAX}
          help="What is in the picture: the cat, what it is doing, where. Empty removes the description."
          value={altText}
          onChange={(e) => setAltText(e.target.value)}
        />
        <fieldset className="edit-post-dialog__location">
          <legend>
            <Message id="post.edit.location" defaultMessage="Location" />
          </legend>
          <LocationChooser
            value={location}
            onChange={setLocation}
            removable
            disabled={edit.isPending}
            emptyMessage={
              <p className="edit-post-dialog__no-location">
                <Message id="post.edit.noLocation" defaultMessage="This picture has no location." />
              </p>
            }
          />
          {placeChanged &&
            (location === null ? (
              <p className="edit-post-dialog__location-note">
                <Message
                  id="post.edit.locationRemoved"
                  defaultMessage="Saving removes the location from this picture and from every map."
                />
              </p>
            ) : post.showLocation && saved !== null ? (
              <p className="edit-post-dialog__location-note">
                <Message
                  id="post.edit.locationMoved"
                  defaultMessage="Your location is switched on for this picture, so the maps will show the new place once you save."
                />
              </p>
            ) : (
              <p className="edit-post-dialog__location-note">
                <Message
                  id="post.edit.locationPrivate"
                  defaultMessage="Only you will see this location until you switch it on for the map."
                />
              </p>
            ))}
        </fieldset>
        {failure && (
          <p className="notice notice--error" role="alert">
            {failure}
          </p>
        )}
      </form>
    </Modal>
  );
}
