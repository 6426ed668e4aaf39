import { useId, useRef, useState, type FormEvent } from 'react';
import { MODERATION_MESSAGES, REPORT_NOTE_MAX, type ReportReason, type ReportReceipt } from '@cats/contracts';
import { Button, buttonClass } from '../button.tsx';
import { CountedTextarea } from '../counted-textarea.tsx';
import { DemoDisabledModal } from '../message-modal.tsx';
import { Modal } from '../modal.tsx';
import { errorMessage, isDemoRefusal } from '../post/api/errors.ts';
import { useSendReport, type ReportTarget } from './api/send-report.ts';
import './report-dialog.css';

export type { ReportTarget } from './api/send-report.ts';

/** The reasons in the order they are offered, each with the words the reporter reads. */
const REASONS: { value: ReportReason; label: string }[] = [
  { value: 'spam', label: 'Spam' },
  { value: 'harassment', label: 'Harassment or hate' },
  { value: 'off_topic', label: 'Not a cat / off-topic' },
  { value: 'private_information', label: "Shows someone's home or private information" },
  { value: 'animal_cruelty', label: 'Animal cruelty' },
  { value: 'other', label: 'Other' },
];

function titleFor(target: ReportTarget, username: string | null): string {
  switch (target.type) {
    case 'post':
      return 'Report this picture';
    case 'comment':
      return 'Report this comment';
    case 'user':
      return username ? `Report ${username}` : 'Report this person';
    case 'cat':
      return 'Report this cat';
  }
}

/** What the reporter will see change, for the targets that leave their screen. */
function afterwardsFor(target: ReportTarget): string | null {
  if (target.type === 'post') return 'You will stop seeing this picture.';
  if (target.type === 'comment') return 'You will stop seeing this comment.';
  return null;
}

export interface ReportDialogProps {
  target: ReportTarget;
  /**
   * Whose it is: the author, the person, the cat's creator. Offers 'Also block' when known; null when
   * nobody is (a cat whose creator left) or the app may not name them.
   */
  owner: { _id: string; username: string } | null;
  onClose: () => void;
  /** After a report was sent and the dialog closed (the post page leaves the reported picture). */
  onReported?: ((receipt: ReportReceipt) => void) | undefined;
}

/**
 * Issue 27, "Reporting": why (six reasons), an optional note for the moderators, and a block of the
 * author in the same step. Render while open. On success the server's thank-you shows as a toast and
 * the reported picture or comment leaves the lists; a refusal is shown here with the input kept.
 */
export function ReportDialog({ target, owner, onClose, onReported }: ReportDialogProps) {
  const send = useSendReport();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const [alsoBlock, setAlsoBlock] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [demo, setDemo] = useState(false);
  const formId = useId();
  const legendId = useId();
  const firstReason = useRef<HTMLInputElement>(null);

  if (demo) {
    return (
      <DemoDisabledModal
        onClose={() => {
          setDemo(false);
          onClose();
        }}
      />
    );
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!reason) {
      setFailure(MODERATION_MESSAGES.reasonInvalid);
      firstReason.current?.focus();
      return;
    }
    setFailure(null);
    send.mutate(
      { target, reason, note, blockUserId: alsoBlock && owner ? owner._id : null },
      {
        onSuccess: (receipt) => {
          onClose();
          onReported?.(receipt);
        },
        onError: (err) => (isDemoRefusal(err) ? setDemo(true) : setFailure(errorMessage(err))),
      },
    );
  };

  const afterwards = afterwardsFor(target);
  return (
    <Modal
      title={titleFor(target, owner?.username ?? null)}
      className="report-dialog"
      onClose={onClose}
      dismissible={!send.isPending}
      actions={
        <>
          <button
            type="button"
            className={buttonClass('secondary')}
            disabled={send.isPending}
            onClick={onClose}
          >
            Cancel
          </button>
          <Button type="submit" variant="danger" form={formId} disabled={send.isPending}>
            {send.isPending ? 'Sending...' : 'Send report'}
          </Button>
        </>
      }
    >
      <form id={formId} className="report-dialog__form" onSubmit={submit} noValidate>
        <fieldset className="report-dialog__reasons">
          <legend id={legendId} className="report-dialog__legend">
            Why are you reporting it?
          </legend>
          <div role="radiogroup" aria-labelledby={legendId} aria-required="true">
            {REASONS.map((r, i) => (
              <label key={r.value} className="report-dialog__reason">
                <input
                  ref={i === 0 ? firstReason : undefined}
                  type="radio"
                  name="reason"
                  value={r.value}
                  checked={reason === r.value}
                  onChange={() => {
                    setReason(r.value);
                    if (failure === MODERATION_MESSAGES.reasonInvalid) setFailure(null);
                  }}
                />
                <span>{r.label}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <CountedTextarea
          label="Anything the moderators should know (optional)"
          name="note"
          rows={3}
          max={REPORT_NOTE_MAX}
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
        {owner && (
          <label className="report-dialog__block">
            <input type="checkbox" checked={alsoBlock} onChange={(e) => setAlsoBlock(e.target.checked)} />
            <span>Also block {owner.username}</span>
          </label>
        )}
        {afterwards && <p className="report-dialog__afterwards">{afterwards}</p>}
        {failure && (
          <p className="notice notice--error" role="alert">
            {failure}
          </p>
        )}
      </form>
    </Modal>
  );
}
