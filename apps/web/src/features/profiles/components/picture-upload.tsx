import { useRef, useState, type ChangeEvent } from 'react';
import { useObjectUrl } from '../../../components/post/crop/use-object-url.ts';
import { ImageCropDialog } from '../../../components/post/crop/image-crop-dialog.tsx';
import { ACCEPT_ATTRIBUTE, isAcceptedImage } from '../../../components/post/crop/crop-image.ts';
import { Button, buttonClass } from '../../../components/button.tsx';
import { DemoDisabledModal, MessageModal } from '../../../components/message-modal.tsx';
import { errorMessage, isDemoRefusal } from '../../../components/post/api/errors.ts';
import { useUpdatePicture } from '../api/update-picture.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';

/** Upload and crop (square) a new profile picture, then Save (spec section 2, own profile). */
export function PictureUpload({ hasPicture }: { hasPicture: boolean }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [original, setOriginal] = useState<File | null>(null);
  const [cropped, setCropped] = useState<Blob | null>(null);
  const [wrongType, setWrongType] = useState(false);
  const [demo, setDemo] = useState(false);
  const originalUrl = useObjectUrl(original);
  const croppedUrl = useObjectUrl(cropped);
  const upload = useUpdatePicture();
  const t = useTranslate();

  const clear = () => {
    setOriginal(null);
    setCropped(null);
    if (inputRef.current) inputRef.current.value = '';
  };

  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    setCropped(null);
    setOriginal(null);
    upload.reset();
    if (!file) return;
    if (!isAcceptedImage(file)) {
      e.target.value = '';
      setWrongType(true);
      return;
    }
    setOriginal(file);
  };

  const save = () => {
    if (!cropped) return;
    upload.mutate(cropped, {
      onSuccess: clear,
      onError: (err) => {
        if (isDemoRefusal(err)) {
          setDemo(true);
          clear();
        }
      },
    });
  };

  return (
    <div className="picture-upload">
      {!hasPicture && !cropped && (
        <p className="picture-upload__prompt">
          <Message id="profiles.picture.prompt" defaultMessage="Add a profile picture" />
        </p>
      )}
      {croppedUrl ? (
        <div className="picture-upload__preview">
          <img
            src={croppedUrl}
            width={120}
            height={120}
            alt={t({ id: 'profiles.picture.new', defaultMessage: 'New profile picture' })}
          />
          <div className="picture-upload__actions">
            <Button onClick={save} disabled={upload.isPending}>
              {upload.isPending ? (
                <Message id="profiles.picture.saving" defaultMessage="Saving..." />
              ) : (
                <Message id="profiles.picture.save" defaultMessage="Save" />
              )}
            </Button>
            <Button variant="secondary" onClick={clear} disabled={upload.isPending}>
              <Message id="profiles.picture.cancel" defaultMessage="Cancel" />
            </Button>
          </div>
        </div>
      ) : (
        <>
          <input
            ref={inputRef}
            id="profile-picture-file"
            className="picture-upload__file"
            type="file"
            accept={ACCEPT_ATTRIBUTE}
            onChange={onFile}
          />
          <label
            htmlFor="profile-picture-file"
            className={buttonClass('secondary', 'md', 'picture-upload__choose')}
          >
            {hasPicture ? (
              <Message id="profiles.picture.change" defaultMessage="Change picture" />
            ) : (
              <Message id="profiles.picture.choose" defaultMessage="Choose a picture" />
            )}
          </label>
        </>
      )}
      {upload.isError && !isDemoRefusal(upload.error) && (
        <p className="picture-upload__error" role="alert">
          {errorMessage(upload.error)}
        </p>
      )}
      {original && originalUrl && !cropped && (
        <ImageCropDialog
          src={originalUrl}
          title={t({ id: 'profiles.picture.crop', defaultMessage: 'Crop your profile picture' })}
          onCropped={setCropped}
          onCancel={clear}
        />
      )}
      {wrongType && (
        <MessageModal
          message={t({
            id: 'profiles.picture.wrongFileType',
            defaultMessage: 'Please check file is in jpg or png format',
          })}
          onClose={() => setWrongType(false)}
        />
      )}
      {demo && <DemoDisabledModal onClose={() => setDemo(false)} />}
    </div>
  );
}
