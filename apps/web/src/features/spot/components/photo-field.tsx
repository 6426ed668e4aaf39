// The Spot form's picture field: the file input, 'Add a photo' or the cropped picture, 'Reading picture...'.
import type { ChangeEvent, RefObject } from 'react';
import { ACCEPT_ATTRIBUTE } from '../../../components/post/crop/crop-image.ts';
import { Button } from '../../../components/button.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';

interface PhotoFieldProps {
  inputRef: RefObject<HTMLInputElement | null>;
  /** The cropped picture's object URL; null until the crop is done. */
  croppedUrl: string | null;
  /** The chosen picture's metadata is being read. */
  reading: boolean;
  onFile: (e: ChangeEvent<HTMLInputElement>) => Promise<void>;
  /** 'Delete picture': back to no picture. */
  onDelete: () => void;
}

/** The picture to post: chosen with the camera or from the gallery, then shown cropped. */
export function PhotoField({ inputRef, croppedUrl, reading, onFile, onDelete }: PhotoFieldProps) {
  const t = useTranslate();
  return (
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
          <Button variant="secondary" onClick={onDelete}>
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
  );
}
