import { useObjectUrl } from '../post/crop/use-object-url.ts';
import { Button } from '../button.tsx';
import { useOnline } from '../../lib/use-online.ts';
import {
  uploadQueue,
  useUploadQueue,
  type QueueEntry,
  type UploadQueue,
} from '../../lib/upload-queue/upload-queue.ts';
import { Message, useTranslate } from '../../i18n/message.tsx';
import './upload-queue.css';

function StateText({ entry, online }: { entry: QueueEntry; online: boolean }) {
  const { state } = entry;
  switch (state.kind) {
    case 'waiting':
      if (!online) return <Message id="uploads.waiting.offline" defaultMessage="Waiting for a connection." />;
      if (state.serverTrouble)
        return (
          <Message
            id="uploads.waiting.serverTrouble"
            defaultMessage="The server could not take it just now. It will be sent again by itself."
          />
        );
      return <Message id="uploads.waiting.queued" defaultMessage="Waiting to be sent." />;
    case 'sending':
      return (
        <Message
          id="uploads.sending"
          defaultMessage="Sending: {progress, number, ::percent} done."
          values={{ progress: state.progress }}
        />
      );
    case 'sent':
      return <Message id="uploads.sent" defaultMessage="Sent" />;
    case 'failed':
      // The server's refusal, in the language it was sent in.
      return (
        <Message id="uploads.failed" defaultMessage="Not sent. {reason}" values={{ reason: state.message }} />
      );
  }
}

function Row({ entry, online, queue }: { entry: QueueEntry; online: boolean; queue: UploadQueue }) {
  const url = useObjectUrl(entry.image);
  const { state } = entry;
  const t = useTranslate();
  return (
    <li className={`uploads-waiting__item uploads-waiting__item--${state.kind}`}>
      {url && <img src={url} alt="" width={56} height={56} className="uploads-waiting__thumb" />}
      <div className="uploads-waiting__text">
        <p className="uploads-waiting__state">
          <StateText entry={entry} online={online} />
        </p>
        {state.kind === 'sending' && (
          <progress
            max={1}
            value={state.progress}
            aria-label={t({ id: 'uploads.progress', defaultMessage: 'Upload progress' })}
          />
        )}
      </div>
      <div className="uploads-waiting__actions">
        {state.kind === 'waiting' && online && (
          <Button variant="secondary" onClick={() => void queue.retryNow()}>
            <Message id="uploads.tryNow" defaultMessage="Try now" />
          </Button>
        )}
        {(state.kind === 'failed' || state.kind === 'waiting') && (
          <Button variant="secondary" onClick={() => void queue.discard(entry.id)}>
            <Message id="uploads.discard" defaultMessage="Discard" />
          </Button>
        )}
        {state.kind === 'sent' && (
          <Button variant="secondary" onClick={() => void queue.discard(entry.id)}>
            <Message id="uploads.hide" defaultMessage="Hide" />
          </Button>
        )}
      </div>
    </li>
  );
}

/**
 * Issue 28: the signed-in user's sightings that wait to be sent, with their thumbnails and state
 * (waiting, sending n %, sent, or the server's refusal with a way to discard it). Nothing when empty.
 */
export function UploadsWaiting({ queue = uploadQueue }: { queue?: UploadQueue }) {
  const entries = useUploadQueue(queue);
  const online = useOnline();
  if (entries.length === 0) return null;
  const unsent = entries.filter((e) => e.state.kind !== 'sent').length;
  return (
    <section className="uploads-waiting" aria-labelledby="uploads-waiting-title">
      <h2 id="uploads-waiting-title" className="uploads-waiting__title">
        <Message id="uploads.title" defaultMessage="Uploads waiting" />
      </h2>
      {unsent === 0 && (
        <p className="uploads-waiting__summary">
          <Message id="uploads.allSent" defaultMessage="All your pictures are sent." />
        </p>
      )}
      <ul className="uploads-waiting__list" aria-live="polite">
        {entries.map((entry) => (
          <Row key={entry.id} entry={entry} online={online} queue={queue} />
        ))}
      </ul>
    </section>
  );
}
