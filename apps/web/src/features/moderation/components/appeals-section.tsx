import { useId, useState } from 'react';
import { MODERATION_EXPLANATION_MAX, type ModeratorAppeal } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { CountedTextarea } from '../../../components/counted-textarea.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { useAppeals, useDecideAppeal } from '../api/appeals.ts';
import { ACTION_LABELS, REASON_LABELS, TARGET_LABELS } from './labels.ts';

/** One open appeal: the decision as taken, the appellant's words, and the answer. */
function AppealCard({
  appeal,
  onDecided,
}: {
  appeal: ModeratorAppeal;
  onDecided: (message: string) => void;
}) {
  const headingId = useId();
  const [explanation, setExplanation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const decide = useDecideAppeal();
  const { decision } = appeal;

  const answer = (outcome: 'upheld' | 'overturned') => {
    setError(null);
    decide.mutate(
      { appealId: appeal._id, body: { outcome, explanation } },
      {
        onSuccess: () =>
          onDecided(
            outcome === 'overturned'
              ? `The decision is undone and ${appeal.appellant.username} is told.`
              : `The decision stands and ${appeal.appellant.username} is told.`,
          ),
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  return (
    <article className="appeal-card card" aria-labelledby={headingId} data-appeal-id={appeal._id}>
      <header className="queue-card__header">
        <h3 id={headingId} className="queue-card__title">
          Appeal by {appeal.appellant.username}
        </h3>
        <p className="queue-card__meta muted">
          <RelativeTime value={appeal.createdAt} />
        </p>
      </header>
      <section className="queue-card__section" aria-label="The decision">
        <p className="queue-card__meta">
          <strong>{ACTION_LABELS[decision.action]}</strong> · {TARGET_LABELS[decision.targetType]}
          {decision.rule ? ` · ${REASON_LABELS[decision.rule]}` : ''} · by {decision.moderator.username},{' '}
          <RelativeTime value={decision.createdAt} className="muted" />
        </p>
        {appeal.decidedByYou && <p className="appeal-card__own muted">You took this decision.</p>}
        {(decision.thumbnailUrl || decision.excerpt) && (
          <div className="queue-card__snapshot">
            {decision.thumbnailUrl && (
              <img
                className="queue-card__picture"
                src={decision.thumbnailUrl}
                alt="The picture, as reported"
              />
            )}
            {decision.excerpt && <blockquote className="queue-card__quote">{decision.excerpt}</blockquote>}
          </div>
        )}
        {decision.explanation && <p className="queue-card__text">Why: {decision.explanation}</p>}
      </section>
      <section className="queue-card__section" aria-label="The appeal">
        <h4 className="queue-card__heading">The appeal</h4>
        <blockquote className="queue-card__quote appeal-card__body">{appeal.body}</blockquote>
      </section>
      <div className="actions-form">
        <CountedTextarea
          label="Explanation for the person who appealed"
          value={explanation}
          max={MODERATION_EXPLANATION_MAX}
          rows={2}
          onChange={(e) => setExplanation(e.target.value)}
        />
        {error && (
          <p className="notice notice--error" role="alert">
            {error}
          </p>
        )}
        <div className="appeal-card__buttons">
          <Button variant="primary" disabled={decide.isPending} onClick={() => answer('overturned')}>
            Undo the decision
          </Button>
          <Button variant="secondary" disabled={decide.isPending} onClick={() => answer('upheld')}>
            Keep the decision
          </Button>
        </div>
      </div>
    </article>
  );
}

/**
 * Open appeals (issue 27): a moderator other than the one who decided answers where one exists; the
 * server refuses otherwise and its sentence is shown.
 */
export function AppealsSection() {
  const appeals = useAppeals(true);
  const [status, setStatus] = useState<string | null>(null);

  return (
    <section className="appeals-section" aria-labelledby="appeals-heading">
      <h2 id="appeals-heading">Appeals</h2>
      {status && (
        <p className="notice notice--success" role="status">
          {status}
        </p>
      )}
      {appeals.isPending ? (
        <p className="loading-text">Loading...</p>
      ) : appeals.isError ? (
        <p className="notice notice--error">Error: {errorMessage(appeals.error)}</p>
      ) : appeals.data.appeals.length === 0 ? (
        <p className="muted">No appeal is waiting.</p>
      ) : (
        <ul className="moderation__queue">
          {appeals.data.appeals.map((appeal) => (
            <li key={appeal._id}>
              <AppealCard appeal={appeal} onDecided={setStatus} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
