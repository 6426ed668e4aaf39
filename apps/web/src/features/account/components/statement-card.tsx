import { useId, useState, type FormEvent } from 'react';
import { APPEAL_MAX, type Statement } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { CountedTextarea } from '../../../components/counted-textarea.tsx';
import { isDemoDisabledError } from '../../../components/message-modal.tsx';
import { useSendAppeal } from '../api/moderation-statements.ts';
import { RULE_LABELS, decisionSentence, formatDay } from '../../../components/moderation/moderation-wording.ts';
import { errorText } from './settings-card.tsx';

/** Where the appeal stands, or whether one can still be made, in one sentence. */
function AppealState({ statement }: { statement: Statement }) {
  const { appeal } = statement;
  if (appeal) {
    if (appeal.outcome === 'overturned')
      return <p className="statement__appeal">Your appeal was accepted: the decision is undone.</p>;
    if (appeal.outcome === 'upheld')
      return <p className="statement__appeal">Your appeal was declined: the decision stands.</p>;
    return (
      <p className="statement__appeal">
        You appealed on <time dateTime={appeal.createdAt}>{formatDay(appeal.createdAt)}</time>. Waiting for a
        moderator.
      </p>
    );
  }
  if (statement.canAppeal)
    return (
      <p className="statement__appeal muted">
        You can appeal until{' '}
        <time dateTime={statement.appealDeadline}>{formatDay(statement.appealDeadline)}</time>.
      </p>
    );
  if (statement.reverted) return null;
  return <p className="statement__appeal muted">The time to appeal this decision has passed.</p>;
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

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (body.trim() === '') return setError('Write why the decision should change.');
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
        label="Why should this decision change?"
        value={body}
        max={APPEAL_MAX}
        rows={4}
        error={error}
        onChange={(e) => setBody(e.target.value)}
      />
      <div className="statement__buttons">
        <Button type="submit" variant="primary" disabled={send.isPending}>
          {send.isPending ? 'Sending...' : 'Send appeal'}
        </Button>
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
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
        {statement.reverted && <span className="statement__undone">Undone</span>}
      </p>
      {(statement.thumbnailUrl || statement.excerpt) && (
        <div className="statement__content">
          {statement.thumbnailUrl && (
            <img
              className="statement__thumbnail"
              src={statement.thumbnailUrl}
              alt="Your picture, as it was reported"
              width={72}
              height={72}
            />
          )}
          {statement.excerpt && <blockquote className="statement__excerpt">{statement.excerpt}</blockquote>}
        </div>
      )}
      {statement.rule && <p className="statement__rule">Rule: {RULE_LABELS[statement.rule]}</p>}
      {statement.explanation && <p className="statement__why">Why: {statement.explanation}</p>}
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
            Appeal
          </Button>
        ))}
    </article>
  );
}
