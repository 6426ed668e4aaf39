import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { CountedTextarea } from '../../../components/counted-textarea.tsx';
import { useMyProfile } from '../../../lib/my-profile.ts';
import { takeSharedPhoto } from '../../../lib/shared-photo.ts';
import { useObjectUrl } from '../../../components/post/crop/use-object-url.ts';
import { useNavigate, useSearchParams } from 'react-router';
import {
  ALT_TEXT_MAX,
  CAPTION_MAX,
  CAT_FIELD_MESSAGES,
  CAT_NAME_MAX,
  CAT_PROFILE_NAME_MAX,
  catNameProblem,
  DEMO_USER_ID,
} from '@cats/contracts';
import { ImageCropDialog } from '../../../components/post/crop/image-crop-dialog.tsx';
import { ACCEPT_ATTRIBUTE, isAcceptedImage } from '../../../components/post/crop/crop-image.ts';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { DemoDisabledModal, MessageModal } from '../../../components/message-modal.tsx';
import { errorMessage, isDemoRefusal } from '../../../components/post/api/errors.ts';
import { useCreatePost, type NewPost } from '../api/create-post.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth-store.ts';
import { useOnline } from '../../../lib/use-online.ts';
import { newIdempotencyKey } from '../../../lib/upload-queue/new-post.ts';
import { isRetryable, uploadQueue } from '../../../lib/upload-queue/upload-queue.ts';
import { UploadsWaiting } from '../../../components/upload-queue/uploads-waiting.tsx';
import { readPhotoMetadata, withoutGps, type PhotoMetadata } from '../api/read-photo-metadata.ts';
import { LocationSection } from '../components/location-section.tsx';
import type { ChosenLocation } from '../../../components/location-picker/location-chooser.tsx';
import { GroupSharePicker } from '../../../components/groups/group-share-picker.tsx';
import { useCreateCat } from '../../../components/cats/api/create-cat.ts';
import { showToast } from '../../../components/toast.tsx';
import { useSpottedCat } from '../api/get-spotted-cat.ts';
import { CatSuggestions, type CatChoice } from '../components/cat-suggestions.tsx';
import { mayLinkTo } from '../../../components/cats/may-link.ts';
import { translate } from '../../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import '../spot.css';

/**
 * The problem with a new cat's name as typed, in the reader's language. catNameProblem (the API's own
 * check) answers with the contracts' English sentences; each is one of ours here.
 */
function newCatNameProblem(typed: string): string | null {
  switch (catNameProblem(typed)) {
    case null:
      return null;
    case CAT_FIELD_MESSAGES.nameRequired:
      return translate({ id: 'spot.newCat.nameRequired', defaultMessage: 'Name is required' });
    case CAT_FIELD_MESSAGES.nameTooLong:
      return translate(
        { id: 'spot.newCat.nameTooLong', defaultMessage: 'Name is at most {max} characters' },
        { max: CAT_PROFILE_NAME_MAX },
      );
    default:
      return translate({ id: 'spot.newCat.nameInvalid', defaultMessage: 'Name contains invalid characters' });
  }
}

/**
 * Spec section 2, Spot ('Snap a cat'): choose a picture -> (wrong type: modal) -> read its position
 * -> crop (square) -> comment, cat's name, location switch -> submit -> 'File uploading' -> /feed.
 * Issue 26: a photo without GPS gets its place from the browser or a map instead of none.
 * Issue 24 adds a description of the photo (its alt text) and, when it is left empty, a gentle
 * reminder before posting (Settings turns it off).
 * Issue 26: once the picture has a place, 'Which cat is this?' offers the cats seen near it, 'New cat'
 * and 'Not sure' (the default): one tap links the new post to a cat, or makes a cat of it after the
 * upload. /spot?cat=<id> ('I saw this cat') chooses that cat from the start.
 */
export default function SpotPage() {
  const navigate = useNavigate();
  const inputRef = useRef<HTMLInputElement>(null);
  const ids = { comment: useId(), catName: useId(), hint: useId() };
  const [original, setOriginal] = useState<File | null>(null);
  const [reading, setReading] = useState(false);
  const [metadata, setMetadata] = useState<PhotoMetadata | null>(null);
  /** The place the post carries: the photo's own, or one from the browser or the map (issue 26). */
  const [location, setLocation] = useState<ChosenLocation | null>(null);
  const [cropped, setCropped] = useState<Blob | null>(null);
  const [wrongType, setWrongType] = useState(false);
  const [comment, setComment] = useState('');
  const [catName, setCatName] = useState('');
  const [altText, setAltText] = useState('');
  const [reminding, setReminding] = useState(false);
  const altTextRef = useRef<HTMLTextAreaElement>(null);
  const profile = useMyProfile();
  const [showLocation, setShowLocation] = useState(true);
  const [groupIds, setGroupIds] = useState<string[]>([]);
  const [progress, setProgress] = useState(0);
  const [demo, setDemo] = useState(false);
  const online = useOnline();
  const { userId } = useAuth();
  /** Issue 28: the last sighting went to the upload queue instead of the server. */
  const [queued, setQueued] = useState(false);
  const [queueError, setQueueError] = useState<string | null>(null);
  const originalUrl = useObjectUrl(original);
  const croppedUrl = useObjectUrl(cropped);
  const create = useCreatePost(setProgress);
  const createCat = useCreateCat();
  const [search] = useSearchParams();
  const spotted = useSpottedCat(search.get('cat'));
  /** Null until the user chooses: then the address's cat, or 'Not sure'. */
  const [catChoice, setCatChoice] = useState<CatChoice | null>(null);
  const [newCatName, setNewCatName] = useState('');
  const [newCatError, setNewCatError] = useState<string | null>(null);
  const newCatRef = useRef<HTMLDivElement>(null);
  const t = useTranslate();

  const reset = () => {
    setOriginal(null);
    setCropped(null);
    setMetadata(null);
    setLocation(null);
    if (inputRef.current) inputRef.current.value = '';
    inputRef.current?.focus();
  };

  const onFile = (e: ChangeEvent<HTMLInputElement>) => takeFile(e.target.files?.[0] ?? null);

  /** A picture chosen with the file input, or shared to the app from another one (issue 28). */
  const takeFile = async (file: File | null) => {
    setCropped(null);
    setOriginal(null);
    if (!file) return;
    if (!isAcceptedImage(file)) {
      if (inputRef.current) inputRef.current.value = '';
      setWrongType(true);
      return;
    }
    // Coordinates come from the original: the cropped JPEG carries no metadata.
    setReading(true);
    const meta = await readPhotoMetadata(file);
    setReading(false);
    setMetadata(meta);
    setLocation(meta.coordinates ? { ...meta.coordinates, source: 'photo' } : null);
    setOriginal(file);
  };

  // /spot?shared=1: the service worker holds a photo shared from the gallery or camera; go on as if
  // it had been chosen here (the crop opens). Read once per visit to the address.
  const shared = search.get('shared') === '1';
  useEffect(() => {
    if (!shared) return;
    let active = true;
    void takeSharedPhoto().then((file) => {
      if (active && file) void takeFile(file);
    });
    return () => {
      active = false;
    };
  }, [shared]);

  const pinnedCat = spotted.data ?? null;
  // The question needs a place to look near, or a cat named in the address.
  const asksWhichCat = location !== null || pinnedCat !== null;
  const choice: CatChoice = !asksWhichCat
    ? { kind: 'unsure' }
    : (catChoice ??
      // A household cat the viewer does not care for is not chosen for them: they may not link it.
      (pinnedCat && mayLinkTo(pinnedCat) ? { kind: 'cat', cat: pinnedCat } : { kind: 'unsure' }));
  const chooseCat = (next: CatChoice) => {
    setCatChoice(next);
    setNewCatError(null);
    // The name typed in the free-text field is the likely name of a new cat.
    if (next.kind === 'new' && newCatName.trim() === '') setNewCatName(catName.trim());
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!cropped || !metadata || create.isPending) return;
    if (choice.kind === 'new') {
      // Checked before the upload: the picture is not posted with a cat that cannot be made.
      const problem = newCatNameProblem(newCatName);
      setNewCatError(problem);
      if (problem) {
        newCatRef.current?.querySelector('input')?.focus();
        return;
      }
    }
    // A note, not a blocker: 'Post anyway' posts without a description. On unless turned off in Settings.
    if (altText.trim() === '' && profile.data?.altTextReminder !== false) {
      setReminding(true);
      return;
    }
    upload();
  };

  /** Issue 28: no connection, so the sighting waits in the queue, with the key it may already have used. */
  const keepForLater = async (post: NewPost, key: string) => {
    try {
      await uploadQueue.enqueue(post, key, choice.kind === 'new' ? newCatName.trim() : null);
    } catch (err) {
      setQueueError(errorMessage(err));
      return;
    }
    setQueueError(null);
    setQueued(true);
    setComment('');
    setCatName('');
    setAltText('');
    setGroupIds([]);
    setCatChoice(null);
    setNewCatName('');
    reset();
  };

  const upload = () => {
    if (!cropped || !metadata || create.isPending) return;
    setReminding(false);
    setProgress(0);
    setQueued(false);
    // The demo account cannot post (spec section 6): online the server refuses it with the demo modal;
    // offline it gets that modal at once, never a queued picture.
    if (userId === DEMO_USER_ID && !online) {
      setDemo(true);
      return;
    }
    const key = newIdempotencyKey();
    const post: NewPost = {
      image: cropped,
      catName,
      comment,
      altText,
      coordinates: location && { latitude: location.latitude, longitude: location.longitude },
      showLocation,
      // A place corrected on the map or from the browser: the photo's own GPS stays at home.
      exifData: location?.source === 'photo' ? metadata.exifData : withoutGps(metadata.exifData),
      groupIds,
      catId: choice.kind === 'cat' ? choice.cat._id : null,
    };
    if (!online) {
      void keepForLater(post, key);
      return;
    }
    create.mutate(
      { post, key },
      {
        onSuccess: ({ post }) => {
          if (choice.kind !== 'new') {
            navigate('/feed');
            return;
          }
          const name = newCatName.trim();
          createCat.mutate(
            { name, postId: post._id },
            {
              onSuccess: ({ cat }) =>
                showToast({
                  message: t(
                    {
                      id: 'spot.newCat.made',
                      defaultMessage: '{name} has a page now, with this picture as the first sighting.',
                    },
                    { name: cat.name },
                  ),
                }),
              // The picture is posted; the cat can still be made from its menu.
              onError: (err) =>
                showToast({
                  message: t(
                    {
                      id: 'spot.newCat.failed',
                      defaultMessage: 'Your picture is posted, but {name} could not be made: {reason}',
                    },
                    { name, reason: errorMessage(err) },
                  ),
                }),
              onSettled: () => navigate('/feed'),
            },
          );
        },
        onError: (err) => {
          if (isDemoRefusal(err)) setDemo(true);
          // The connection went during the upload: the same key, sent again later, cannot post twice.
          else if (isRetryable(err) && userId !== DEMO_USER_ID) {
            create.reset();
            void keepForLater(post, key);
          }
          // Only a household cat's caretakers link a picture to it (issue 46): refused before anything
          // was stored, the picture is posted without the cat, and the server's reason says that the
          // caretakers can suggest it. Any other refusal shows again, as the retry's own error.
          else if (err instanceof ApiError && err.status === 403 && post.catId && choice.kind === 'cat') {
            const name = choice.cat.name;
            create.mutate(
              { post: { ...post, catId: null }, key: newIdempotencyKey() },
              {
                onSuccess: () => {
                  showToast({
                    message: t(
                      {
                        id: 'spot.catNotLinked',
                        defaultMessage: 'Your picture is posted without {name}: {reason}',
                      },
                      { name, reason: errorMessage(err) },
                    ),
                  });
                  navigate('/feed');
                },
              },
            );
          }
        },
      },
    );
  };

  const cropping = original !== null && originalUrl !== null && cropped === null;

  return (
    <div className="spot-page">
      <h1>
        <Message id="spot.title" defaultMessage="Snap a cat" />
      </h1>
      {queued && (
        <p className="spot-page__queued" role="status">
          <Message
            id="spot.queued"
            defaultMessage="No connection. Your picture will be sent when you are back online."
          />
        </p>
      )}
      {queueError && (
        <p className="spot-form__error" role="alert">
          <Message
            id="spot.queueFailed"
            defaultMessage="Your picture could not be kept for later: {reason}"
            values={{ reason: queueError }}
          />
        </p>
      )}
      <UploadsWaiting />
      <form className="spot-form" onSubmit={submit} noValidate={false}>
        <div className="spot-form__photo">
          <input
            ref={inputRef}
            id="spot-photo"
            className="spot-form__file"
            type="file"
            name="file"
            // Phones offer the camera beside the gallery for an accept list of image types. Not
            // `capture`: it opens the camera only, and a cat photographed earlier could no longer be
            // chosen. Not image/*: the spec takes JPEG and PNG only, and with this list iPhones hand
            // over their HEIC photos converted to JPEG instead of refused (issue 28).
            accept={ACCEPT_ATTRIBUTE}
            required
            // Once cropped, the visible label gives way to the picture: the input keeps a name (axe 'label').
            aria-label={
              croppedUrl ? t({ id: 'spot.photo.another', defaultMessage: 'Choose another photo' }) : undefined
            }
            onChange={(e) => void onFile(e)}
          />
          {croppedUrl ? (
            <div className="spot-form__thumb">
              <img
                src={croppedUrl}
                alt={t({ id: 'spot.photo.cropped', defaultMessage: 'Your cropped picture' })}
                width={160}
                height={160}
              />
              <Button variant="secondary" onClick={reset}>
                <Message id="spot.photo.delete" defaultMessage="Delete picture" />
              </Button>
            </div>
          ) : (
            <label htmlFor="spot-photo" className="spot-form__add">
              <svg viewBox="0 0 24 24" width="40" height="40" aria-hidden="true">
                <path d="M9 4l-2 2H4a2 2 0 0 0-2 2v10a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V8a2 2 0 0 0-2-2h-3l-2-2zm3 5a4 4 0 1 1 0 8 4 4 0 0 1 0-8z" />
              </svg>
              <span>
                <Message id="spot.photo.add" defaultMessage="Add a photo" />
              </span>
              <span className="spot-form__add-hint">
                <Message
                  id="spot.photo.addHint"
                  defaultMessage="Take one with your camera or choose a JPG or PNG"
                />
              </span>
            </label>
          )}
          {reading && (
            <p role="status" className="spot-form__status">
              <Message id="spot.photo.reading" defaultMessage="Reading picture..." />
            </p>
          )}
        </div>

        {cropped && metadata && (
          <>
            <label htmlFor={ids.comment}>
              <Message id="spot.comment" defaultMessage="Add a comment" />
            </label>
            <textarea
              id={ids.comment}
              name="comment"
              rows={3}
              maxLength={CAPTION_MAX}
              value={comment}
              onChange={(e) => setComment(e.target.value)}
            />
            <label htmlFor={ids.catName}>
              <Message
                id="spot.catName"
                defaultMessage="Cat's name <optional>(optional)</optional>"
                values={{ optional: (chunks) => <span className="spot-form__optional">{chunks}</span> }}
              />
            </label>
            <input
              id={ids.catName}
              name="catName"
              maxLength={CAT_NAME_MAX}
              autoComplete="off"
              value={catName}
              onChange={(e) => setCatName(e.target.value)}
            />
            <CountedTextarea
              ref={altTextRef}
              className="spot-form__alt"
              label={t({
                id: 'spot.altText.label',
                defaultMessage: "Describe this photo for people who can't see it",
              })}
              name="altText"
              rows={3}
              max={ALT_TEXT_MAX}
              help={t({
                id: 'spot.altText.help',
                defaultMessage: 'Optional: the cat, what it is doing, where. Screen readers read it aloud.',
              })}
              value={altText}
              onChange={(e) => setAltText(e.target.value)}
            />
            <LocationSection
              location={location}
              onLocationChange={setLocation}
              photoHasGps={metadata.coordinates !== null}
              showLocation={showLocation}
              onChange={setShowLocation}
              sharedWithGroups={groupIds.length > 0}
            />
            {asksWhichCat && (
              <div ref={newCatRef}>
                <CatSuggestions
                  near={location && { latitude: location.latitude, longitude: location.longitude }}
                  pinned={pinnedCat}
                  choice={choice}
                  onChoice={chooseCat}
                  newName={newCatName}
                  onNewName={setNewCatName}
                  newNameError={newCatError}
                />
              </div>
            )}
            <GroupSharePicker selected={groupIds} onChange={setGroupIds} />
            {create.isError && !isDemoRefusal(create.error) && (
              <p className="spot-form__error" role="alert">
                {errorMessage(create.error)}
              </p>
            )}
            <Button type="submit" size="lg" className="spot-form__submit" disabled={create.isPending}>
              <Message id="spot.submit" defaultMessage="Submit" />
            </Button>
          </>
        )}
      </form>

      {cropping && (
        <ImageCropDialog
          src={originalUrl}
          title={t({ id: 'spot.crop.title', defaultMessage: 'Crop your picture' })}
          onCropped={setCropped}
          onCancel={reset}
        />
      )}
      {reminding && (
        <Modal
          title={t({
            id: 'spot.reminder.title',
            defaultMessage: 'Add a description so everyone can enjoy your cat?',
          })}
          onClose={() => setReminding(false)}
          actions={
            <>
              <Button variant="secondary" onClick={upload}>
                <Message id="spot.reminder.postAnyway" defaultMessage="Post anyway" />
              </Button>
              <Button
                onClick={() => {
                  setReminding(false);
                  // After the dialog gives focus back to Submit.
                  requestAnimationFrame(() => altTextRef.current?.focus());
                }}
              >
                <Message id="spot.reminder.addDescription" defaultMessage="Add description" />
              </Button>
            </>
          }
        >
          <p className="modal__message">
            <Message
              id="spot.reminder.text"
              defaultMessage="A few words about the photo let people who use a screen reader know what is in it. You can turn this reminder off in Settings."
            />
          </p>
        </Modal>
      )}
      {wrongType && (
        <MessageModal
          message={t({
            id: 'spot.wrongFileType',
            defaultMessage: 'Please check file is in jpg or png format',
          })}
          onClose={() => setWrongType(false)}
        />
      )}
      {(create.isPending || createCat.isPending) && (
        <Modal
          title={t({ id: 'spot.uploading.title', defaultMessage: 'File uploading' })}
          dismissible={false}
          onClose={() => {}}
        >
          <progress
            className="spot-progress"
            max={1}
            value={progress}
            aria-label={t({ id: 'spot.uploading.progress', defaultMessage: 'Upload progress' })}
          />
          <p className="spot-progress__text" aria-live="polite">
            {createCat.isPending ? (
              <Message id="spot.uploading.makingCat" defaultMessage="Making the cat’s page..." />
            ) : progress < 1 ? (
              <Message
                id="spot.uploading.percent"
                defaultMessage="{progress, number, ::percent}"
                values={{ progress }}
              />
            ) : (
              <Message id="spot.uploading.preparing" defaultMessage="Preparing your picture..." />
            )}
          </p>
        </Modal>
      )}
      {demo && <DemoDisabledModal onClose={() => setDemo(false)} />}
    </div>
  );
}
