// The Spot form's state and submission logic: picture, fields, cat choice, upload or upload queue.
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { DEMO_USER_ID } from '@cats/contracts';
import { useMyProfile } from '../../../lib/my-profile.ts';
import { takeSharedPhoto } from '../../../lib/shared-photo.ts';
import { useObjectUrl } from '../../../components/post/crop/use-object-url.ts';
import { isAcceptedImage } from '../../../components/post/crop/crop-image.ts';
import { errorMessage, isDemoRefusal } from '../../../components/post/api/errors.ts';
import { useCreatePost, type NewPost } from '../api/create-post.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth-store.ts';
import { useOnline } from '../../../lib/use-online.ts';
import { newIdempotencyKey } from '../../../lib/upload-queue/new-post.ts';
import { isRetryable, uploadQueue } from '../../../lib/upload-queue/upload-queue.ts';
import { readPhotoMetadata, withoutGps, type PhotoMetadata } from '../api/read-photo-metadata.ts';
import type { ChosenLocation } from '../../../components/location-picker/location-chooser.tsx';
import { useCreateCat } from '../../../components/cats/api/create-cat.ts';
import { showToast } from '../../../components/toast.tsx';
import { useSpottedCat } from '../api/get-spotted-cat.ts';
import type { CatChoice } from '../components/cat-suggestions.tsx';
import { mayLinkTo } from '../../../components/cats/may-link.ts';
import { useTranslate } from '../../../i18n/message.tsx';
import { newCatNameProblem } from './new-cat-name-problem.ts';

/**
 * Everything the Spot page (routes/spot-page.tsx) shows and does, for one visit: the fields' values,
 * the picture from choosing to cropping, 'Which cat is this?', the alt-text reminder, and the post's way
 * to the server, or to the upload queue when offline. Also the page's translate function (`t`), the one
 * the toasts below use.
 */
export function useSpotForm() {
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

  /** The reminder's 'Add description': back to the form, in the description field. */
  const addDescription = () => {
    setReminding(false);
    // After the dialog gives focus back to Submit.
    requestAnimationFrame(() => altTextRef.current?.focus());
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

  return {
    t,
    ids,
    inputRef,
    altTextRef,
    newCatRef,
    original,
    originalUrl,
    reading,
    metadata,
    cropped,
    setCropped,
    croppedUrl,
    wrongType,
    setWrongType,
    comment,
    setComment,
    catName,
    setCatName,
    altText,
    setAltText,
    location,
    setLocation,
    showLocation,
    setShowLocation,
    groupIds,
    setGroupIds,
    pinnedCat,
    asksWhichCat,
    choice,
    chooseCat,
    newCatName,
    setNewCatName,
    newCatError,
    reminding,
    setReminding,
    addDescription,
    progress,
    demo,
    setDemo,
    queued,
    queueError,
    create,
    createCat,
    reset,
    onFile,
    submit,
    upload,
  };
}
