import { useId, useState, type FormEvent } from 'react';
import { APPEAL_MAX, type Statement } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { CountedTextarea } from '../../../components/counted-textarea.tsx';
import { isDemoDisabledError } from '../../../components/message-modal.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useSendAppeal } from '../api/moderation-statements.ts';
import { RULE_MESSAGES, decisionSentence } from '../../../components/moderation/moderation-wording.ts';
import { formatDay } from '../../../lib/relative-time.ts';
import { errorText } from './settings-card.tsx';

/** Where the appeal stands, or whether one can still be made, in one sentence. */
function AppealState({ statement }: { statement: Statement }) {
  const { appeal } = statement;
  if (appeal) {
    if (appeal.outcome === 'overturned')
      return (
        <p className="statement__appeal">
          <Message
            id="settings.statement.appealAccepted"
            defaultMessage="Your appeal was accepted: the decision is undone."
          />
        </p>
      );
    if (appeal.outcome === 'upheld')
      return (
        <p className="statement__appeal">
          <Message
            id="settings.statement.appealDeclined"
            defaultMessage="Your appeal was declined: the decision stands."
          />
        </p>
      );
    return (
      <p className="statement__appeal">
        <Message
          id="settings.statement.appealed"
          defaultMessage="You appealed on <time>{date}</time>. Waiting for a moderator."
          values={{
            date: formatDay(appeal.createdAt),
            time: (chunks) => <time dateTime={appeal.createdAt}>{chunks}</time>,
          }}
        />
      </p>
    );
  }
  if (statement.canAppeal)
    return (
      <p className="statement__appeal muted">
        <Message
          id="settings.statement.canAppeal"
          defaultMessage="You can appeal until <time>{date}</time>."
          values={{
            date: formatDay(statement.appealDeadline),
            time: (chunks) => <time dateTime={statement.appealDeadline}>{chunks}</time>,
          }}
        />
      </p>
    );
  if (statement.reverted) return null;
  return (
    <p className="statement__appeal muted">
      <Message
        id="settings.statement.appealClosed"
        defaultMessage="The time to appeal this decision has passed."
      />
    </p>
  );
}

/** The appeal: why the decision should change, up to APPEAL_MAX characters, sent once. */
function AppealForm({
  statement,
  send,
  onSent,
  onCancel,
  onDemoRefused,
}: {
  statement: Statement;
  /** Owned by the card: the form unmounts once the appeal is stored, and the answer must still land. */
  send: ReturnType<typeof useSendAppeal>;
  onSent: (message: string) => void;
  onCancel: () => void;
  onDemoRefused: () => void;
}) {
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const t = useTranslate();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (body.trim() === '')
      return setError(
        t({ id: 'settings.statement.appealEmpty', defaultMessage: 'Write why the decision should change.' }),
      );
    setError(null);
    send.mutate(
      { actionId: statement._id, body },
      {
        onSuccess: ({ message }) => onSent(message),
        onError: (err) => (isDemoDisabledError(err) ? onDemoRefused() : setError(errorText(err))),
      },
    );
  };

  return (
    <form className="statement__form" onSubmit={onSubmit}>
      <CountedTextarea
        label={t({
          id: 'settings.statement.appealLabel',
          defaultMessage: 'Why should this decision change?',
        })}
        value={body}
        max={APPEAL_MAX}
        rows={4}
        error={error}
        onChange={(e) => setBody(e.target.value)}
      />
      <div className="statement__buttons">
        <Button type="submit" variant="primary" disabled={send.isPending}>
          {send.isPending ? (
            <Message id="settings.statement.sending" defaultMessage="Sending..." />
          ) : (
            <Message id="settings.statement.send" defaultMessage="Send appeal" />
          )}
        </Button>
        <Button type="button" variant="secondary" onClick={onCancel}>
          <Message id="settings.cancel" defaultMessage="Cancel" />
        </Button>
      </div>
    </form>
  );
}

/**
 * One statement of reasons (issue 27): what happened, to what, under which rule, why, when, and how to
 * appeal. Its anchor (decision-<id>) is where the notification about it leads.
 */
export function StatementCard({
  statement,
  highlighted,
  onDemoRefused,
}: {
  statement: Statement;
  highlighted: boolean;
  onDemoRefused: () => void;
}) {
  const headingId = useId();
  const [appealing, setAppealing] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const send = useSendAppeal();
  const t = useTranslate();
  // The server names no picture once the post is purged (issue 46); one that fails to load all the
  // same (a CDN's stale copy gone, the network) leaves the card as if it had none.
  const [pictureFailed, setPictureFailed] = useState(false);
  const picture = pictureFailed ? null : statement.thumbnailUrl;

  return (
    <article
      id={`decision-${statement._id}`}
      tabIndex={-1}
      className={`statement card${highlighted ? ' statement--highlighted' : ''}`}
      aria-labelledby={headingId}
    >
      <h3 id={headingId} className="statement__what">
        {decisionSentence(statement)}
      </h3>
      <p className="statement__meta muted">
        <time dateTime={statement.createdAt}>{formatDay(statement.createdAt)}</time>
        {statement.reverted && (
          <span className="statement__undone">
            <Message id="settings.statement.undone" defaultMessage="Undone" />
          </span>
        )}
      </p>
      {(picture || statement.excerpt) && (
        <div className="statement__content">
          {picture && (
            <img
              className="statement__thumbnail"
              src={picture}
              alt={t({
                id: 'settings.statement.thumbnailAlt',
                defaultMessage: 'Your picture, as it was reported',
              })}
              width={72}
              height={72}
              onError={() => setPictureFailed(true)}
            />
          )}
          {statement.excerpt && <blockquote className="statement__excerpt">{statement.excerpt}</blockquote>}
        </div>
      )}
      {statement.targetType === 'post' && !picture && (
        <p className="statement__no-picture muted">
          <Message id="settings.statement.noPicture" defaultMessage="This picture is no longer available." />
        </p>
      )}
      {statement.rule && (
        <p className="statement__rule">
          <Message
            id="settings.statement.rule"
            defaultMessage="Rule: {rule}"
            values={{ rule: t(RULE_MESSAGES[statement.rule]) }}
          />
        </p>
      )}
      {statement.explanation && (
        <p className="statement__why">
          <Message
            id="settings.statement.why"
            defaultMessage="Why: {explanation}"
            values={{ explanation: statement.explanation }}
          />
        </p>
      )}
      <AppealState statement={statement} />
      <div role="status" aria-live="polite">
        {sent && <p className="notice notice--success">{sent}</p>}
      </div>
      {statement.canAppeal &&
        !statement.appeal &&
        (appealing ? (
          <AppealForm
            statement={statement}
            send={send}
            onSent={(message) => {
              setAppealing(false);
              setSent(message);
            }}
            onCancel={() => setAppealing(false)}
            onDemoRefused={onDemoRefused}
          />
        ) : (
          <Button variant="secondary" size="sm" onClick={() => setAppealing(true)}>
            <Message id="settings.statement.appeal" defaultMessage="Appeal" />
          </Button>
        ))}
    </article>
  );
}
