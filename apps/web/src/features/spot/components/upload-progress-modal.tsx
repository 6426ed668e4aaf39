// The 'File uploading' dialog shown while a sighting is sent and, for a new cat, its page is made.
import { Modal } from '../../../components/modal.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';

interface UploadProgressModalProps {
  /** The upload's progress, from 0 to 1. */
  progress: number;
  /** The picture is posted and the new cat's page is being made. */
  makingCat: boolean;
}

/** The upload's progress bar and what is happening, in a dialog that cannot be closed. */
export function UploadProgressModal({ progress, makingCat }: UploadProgressModalProps) {
  const t = useTranslate();
  return (
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
        {makingCat ? (
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
  );
}
