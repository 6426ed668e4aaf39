// The dialog that reminds, before posting, that the photo has no description (issue 24).
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';

interface AltTextReminderModalProps {
  onClose: () => void;
  /** 'Post anyway': posts without a description. */
  onPostAnyway: () => void;
  /** 'Add description': back to the form to write one. */
  onAddDescription: () => void;
}

/** A note, not a blocker: 'Post anyway' or 'Add description'. Settings turns it off. */
export function AltTextReminderModal({ onClose, onPostAnyway, onAddDescription }: AltTextReminderModalProps) {
  const t = useTranslate();
  return (
    <Modal
      title={t({
        id: 'spot.reminder.title',
        defaultMessage: 'Add a description so everyone can enjoy your cat?',
      })}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onPostAnyway}>
            <Message id="spot.reminder.postAnyway" defaultMessage="Post anyway" />
          </Button>
          <Button onClick={onAddDescription}>
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
  );
}
