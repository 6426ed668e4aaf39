import { CountedTextarea } from '../../../components/counted-textarea.tsx';
import { ALT_TEXT_MAX, CAPTION_MAX, CAT_NAME_MAX } from '@cats/contracts';
import { ImageCropDialog } from '../../../components/post/crop/image-crop-dialog.tsx';
import { Button } from '../../../components/button.tsx';
import { DemoDisabledModal, MessageModal } from '../../../components/message-modal.tsx';
import { errorMessage, isDemoRefusal } from '../../../components/post/api/errors.ts';
import { UploadsWaiting } from '../../../components/upload-queue/uploads-waiting.tsx';
import { LocationSection } from '../components/location-section.tsx';
import { GroupSharePicker } from '../../../components/groups/group-share-picker.tsx';
import { CatSuggestions } from '../components/cat-suggestions.tsx';
import { PhotoField } from '../components/photo-field.tsx';
import { AltTextReminderModal } from '../components/alt-text-reminder-modal.tsx';
import { UploadProgressModal } from '../components/upload-progress-modal.tsx';
import { useSpotForm } from '../lib/use-spot-form.ts';
import { Message } from '../../../i18n/message.tsx';
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
  const {
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
  } = useSpotForm();

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
        <PhotoField
          inputRef={inputRef}
          croppedUrl={croppedUrl}
          reading={reading}
          onFile={onFile}
          onDelete={reset}
        />

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
        <AltTextReminderModal
          onClose={() => setReminding(false)}
          onPostAnyway={upload}
          onAddDescription={addDescription}
        />
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
        <UploadProgressModal progress={progress} makingCat={createCat.isPending} />
      )}
      {demo && <DemoDisabledModal onClose={() => setDemo(false)} />}
    </div>
  );
}
