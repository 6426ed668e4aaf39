import { useId, useRef, useState, type FormEvent } from 'react';
import { REPORT_NOTE_MAX, REPORT_REASONS, type ReportReason, type ReportReceipt } from '@cats/contracts';
import { defineMessage, type MessageDescriptor } from '../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../i18n/message.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { Button, buttonClass } from '../button.tsx';
import { CountedTextarea } from '../counted-textarea.tsx';
import { DemoDisabledModal } from '../message-modal.tsx';
import { Modal } from '../modal.tsx';
import { RULE_MESSAGES } from '../moderation/moderation-wording.ts';
import { errorMessage, isDemoRefusal } from '../post/api/errors.ts';
import { useSendReport, type ReportTarget } from './api/send-report.ts';
import './report-dialog.css';

export type { ReportTarget } from './api/send-report.ts';

/** The reasons in the order they are offered (the contracts' order), in the words the reporter reads. */
const REASONS: readonly ReportReason[] = REPORT_REASONS;

/** The same words as the server's refusal of a report without a reason, said before sending. */
const NO_REASON = defineMessage({
  id: 'report.reasonMissing',
  defaultMessage: 'Choose a reason for your report',
});

function titleFor(t: ReturnType<typeof useTranslate>, target: ReportTarget, username: string | null): string {
  switch (target.type) {
    case 'post':
      return t({ id: 'report.title.post', defaultMessage: 'Report this picture' });
    case 'comment':
      return t({ id: 'report.title.comment', defaultMessage: 'Report this comment' });
    case 'user':
      return username
        ? t({ id: 'report.title.userNamed', defaultMessage: 'Report {username}' }, { username })
        : t({ id: 'report.title.user', defaultMessage: 'Report this person' });
    case 'cat':
      return t({ id: 'report.title.cat', defaultMessage: 'Report this cat' });
  }
}

/** What the reporter will see change, for the targets that leave their screen. */
function afterwardsFor(target: ReportTarget): MessageDescriptor | null {
  if (target.type === 'post')
    return defineMessage({
      id: 'report.afterwards.post',
      defaultMessage: 'You will stop seeing this picture.',
    });
  if (target.type === 'comment')
    return defineMessage({
      id: 'report.afterwards.comment',
      defaultMessage: 'You will stop seeing this comment.',
    });
  return null;
}

/**
 * Why the report was not sent: no reason chosen (said before sending), or the server's refusal in its
 * own words. A 400 from the report endpoint is its refusal of the reason, which choosing one answers.
 */
type Failure = { kind: 'noReason' } | { kind: 'refused'; text: string; aboutReason: boolean };

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
  const [failure, setFailure] = useState<Failure | null>(null);
  const [demo, setDemo] = useState(false);
  const formId = useId();
  const legendId = useId();
  const firstReason = useRef<HTMLInputElement>(null);
  const t = useTranslate();

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
      setFailure({ kind: 'noReason' });
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
        onError: (err) =>
          isDemoRefusal(err)
            ? setDemo(true)
            : setFailure({
                kind: 'refused',
                text: errorMessage(err),
                aboutReason: err instanceof ApiError && err.status === 400,
              }),
      },
    );
  };

  const afterwards = afterwardsFor(target);
  return (
    <Modal
      title={titleFor(t, target, owner?.username ?? null)}
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
            <Message id="report.cancel" defaultMessage="Cancel" />
          </button>
          <Button type="submit" variant="danger" form={formId} disabled={send.isPending}>
            {send.isPending ? (
              <Message id="report.sending" defaultMessage="Sending..." />
            ) : (
              <Message id="report.send" defaultMessage="Send report" />
            )}
          </Button>
        </>
      }
    >
      <form id={formId} className="report-dialog__form" onSubmit={submit} noValidate>
        <fieldset className="report-dialog__reasons">
          <legend id={legendId} className="report-dialog__legend">
            <Message id="report.reasons.legend" defaultMessage="Why are you reporting it?" />
          </legend>
          <div role="radiogroup" aria-labelledby={legendId} aria-required="true">
            {REASONS.map((r, i) => (
              <label key={r} className="report-dialog__reason">
                <input
                  ref={i === 0 ? firstReason : undefined}
                  type="radio"
                  name="reason"
                  value={r}
                  checked={reason === r}
                  onChange={() => {
                    setReason(r);
                    if (failure?.kind === 'noReason' || (failure?.kind === 'refused' && failure.aboutReason))
                      setFailure(null);
                  }}
                />
                <span>{t(RULE_MESSAGES[r])}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <CountedTextarea
          label={t({
            id: 'report.note.label',
            defaultMessage: 'Anything the moderators should know (optional)',
          })}
          name="note"
          rows={3}
          max={REPORT_NOTE_MAX}
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
        {owner && (
          <label className="report-dialog__block">
            <input type="checkbox" checked={alsoBlock} onChange={(e) => setAlsoBlock(e.target.checked)} />
            <span>
              <Message
                id="report.alsoBlock"
                defaultMessage="Also block {username}"
                values={{ username: owner.username }}
              />
            </span>
          </label>
        )}
        {afterwards && <p className="report-dialog__afterwards">{t(afterwards)}</p>}
        {failure && (
          <p className="notice notice--error" role="alert">
            {failure.kind === 'noReason' ? t(NO_REASON) : failure.text}
          </p>
        )}
      </form>
    </Modal>
  );
}
