import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { CountedTextarea } from '../../../components/counted-textarea.tsx';
import { useMyProfile } from '../../../lib/my-profile.ts';
import { takeSharedPhoto } from '../../../lib/shared-photo.ts';
import { useObjectUrl } from '../../../components/post/crop/use-object-url.ts';
import { useNavigate, useSearchParams } from 'react-router';
import {
  ALT_TEXT_MAX,
  CAPTION_MAX,
  CAT_NAME_MAX,
  catNameProblem,
  DEMO_USER_ID,
  WRONG_FILE_TYPE_MESSAGE,
} from '@cats/contracts';
import { ImageCropDialog } from '../../../components/post/crop/image-crop-dialog.tsx';
import { ACCEPT_ATTRIBUTE, isAcceptedImage } from '../../../components/post/crop/crop-image.ts';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { DemoDisabledModal, MessageModal } from '../../../components/message-modal.tsx';
import { errorMessage, isDemoRefusal } from '../../../components/post/api/errors.ts';
import { useCreatePost, type NewPost } from '../api/create-post.ts';
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
import '../spot.css';

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
    : (catChoice ?? (pinnedCat ? { kind: 'cat', cat: pinnedCat } : { kind: 'unsure' }));
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
      const problem = catNameProblem(newCatName);
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
                  message: `${cat.name} has a page now, with this picture as the first sighting.`,
                }),
              // The picture is posted; the cat can still be made from its menu.
              onError: (err) =>
                showToast({
                  message: `Your picture is posted, but ${name} could not be made: ${errorMessage(err)}`,
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
        },
      },
    );
  };

  const cropping = original !== null && originalUrl !== null && cropped === null;

  return (
    <div className="spot-page">
      <h1>Snap a cat</h1>
      {queued && (
        <p className="spot-page__queued" role="status">
          No connection. Your picture will be sent when you are back online.
        </p>
      )}
      {queueError && (
        <p className="spot-form__error" role="alert">
          Your picture could not be kept for later: {queueError}
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
            aria-label={croppedUrl ? 'Choose another photo' : undefined}
            onChange={(e) => void onFile(e)}
          />
          {croppedUrl ? (
            <div className="spot-form__thumb">
              <img src={croppedUrl} alt="Your cropped picture" width={160} height={160} />
              <Button variant="secondary" onClick={reset}>
                Delete picture
              </Button>
            </div>
          ) : (
            <label htmlFor="spot-photo" className="spot-form__add">
              <svg viewBox="0 0 24 24" width="40" height="40" aria-hidden="true">
                <path d="M9 4l-2 2H4a2 2 0 0 0-2 2v10a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V8a2 2 0 0 0-2-2h-3l-2-2zm3 5a4 4 0 1 1 0 8 4 4 0 0 1 0-8z" />
              </svg>
              <span>Add a photo</span>
              <span className="spot-form__add-hint">Take one with your camera or choose a JPG or PNG</span>
            </label>
          )}
          {reading && (
            <p role="status" className="spot-form__status">
              Reading picture...
            </p>
          )}
        </div>

        {cropped && metadata && (
          <>
            <label htmlFor={ids.comment}>Add a comment</label>
            <textarea
              id={ids.comment}
              name="comment"
              rows={3}
              maxLength={CAPTION_MAX}
              value={comment}
              onChange={(e) => setComment(e.target.value)}
            />
            <label htmlFor={ids.catName}>
              Cat&apos;s name <span className="spot-form__optional">(optional)</span>
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
              label="Describe this photo for people who can't see it"
              name="altText"
              rows={3}
              max={ALT_TEXT_MAX}
              help="Optional: the cat, what it is doing, where. Screen readers read it aloud."
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
              Submit
            </Button>
          </>
        )}
      </form>

      {cropping && (
        <ImageCropDialog
          src={originalUrl}
          title="Crop your picture"
          onCropped={setCropped}
          onCancel={reset}
        />
      )}
      {reminding && (
        <Modal
          title="Add a description so everyone can enjoy your cat?"
          onClose={() => setReminding(false)}
          actions={
            <>
              <Button variant="secondary" onClick={upload}>
                Post anyway
              </Button>
              <Button
                onClick={() => {
                  setReminding(false);
                  // After the dialog gives focus back to Submit.
                  requestAnimationFrame(() => altTextRef.current?.focus());
                }}
              >
                Add description
              </Button>
            </>
          }
        >
          <p className="modal__message">
            A few words about the photo let people who use a screen reader know what is in it. You can turn
            this reminder off in Settings.
          </p>
        </Modal>
      )}
      {wrongType && <MessageModal message={WRONG_FILE_TYPE_MESSAGE} onClose={() => setWrongType(false)} />}
      {(create.isPending || createCat.isPending) && (
        <Modal title="File uploading" dismissible={false} onClose={() => {}}>
          <progress className="spot-progress" max={1} value={progress} aria-label="Upload progress" />
          <p className="spot-progress__text" aria-live="polite">
            {createCat.isPending
              ? 'Making the cat’s page...'
              : progress < 1
                ? `${Math.round(progress * 100)}%`
                : 'Preparing your picture...'}
          </p>
        </Modal>
      )}
      {demo && <DemoDisabledModal onClose={() => setDemo(false)} />}
    </div>
  );
}
