import { useId, useState } from 'react';
import { MODERATION_EXPLANATION_MAX, type ModeratorAppeal } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { CountedTextarea } from '../../../components/counted-textarea.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useAppeals, useDecideAppeal } from '../api/appeals.ts';
import { ACTION_LABELS, TARGET_LABELS } from './labels.ts';
import { RULE_MESSAGES } from '../../../components/moderation/moderation-wording.ts';

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
  const t = useTranslate();
  // None once the post is purged (issue 46); one that fails to load all the same is left out.
  const [pictureFailed, setPictureFailed] = useState(false);
  const picture = pictureFailed ? null : decision.thumbnailUrl;

  const answer = (outcome: 'upheld' | 'overturned') => {
    setError(null);
    decide.mutate(
      { appealId: appeal._id, body: { outcome, explanation } },
      {
        onSuccess: () =>
          onDecided(
            outcome === 'overturned'
              ? t(
                  {
                    id: 'moderation.appeal.overturned',
                    defaultMessage: 'The decision is undone and {username} is told.',
                  },
                  { username: appeal.appellant.username },
                )
              : t(
                  {
                    id: 'moderation.appeal.upheld',
                    defaultMessage: 'The decision stands and {username} is told.',
                  },
                  { username: appeal.appellant.username },
                ),
          ),
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  return (
    <article className="appeal-card card" aria-labelledby={headingId} data-appeal-id={appeal._id}>
      <header className="queue-card__header">
        <h3 id={headingId} className="queue-card__title">
          <Message
            id="moderation.appeal.title"
            defaultMessage="Appeal by {username}"
            values={{ username: appeal.appellant.username }}
          />
        </h3>
        <p className="queue-card__meta muted">
          <RelativeTime value={appeal.createdAt} />
        </p>
      </header>
      <section
        className="queue-card__section"
        aria-label={t({ id: 'moderation.appeal.decision', defaultMessage: 'The decision' })}
      >
        <p className="queue-card__meta">
          {decision.rule ? (
            <Message
              id="moderation.appeal.decisionLine"
              defaultMessage="<strong>{action}</strong> · {target} · {rule} · by {username}, {when}"
              values={{
                strong: (chunks) => <strong>{chunks}</strong>,
                action: t(ACTION_LABELS[decision.action]),
                target: t(TARGET_LABELS[decision.targetType]),
                rule: t(RULE_MESSAGES[decision.rule]),
                username: decision.moderator.username,
                when: <RelativeTime value={decision.createdAt} className="muted" />,
              }}
            />
          ) : (
            <Message
              id="moderation.appeal.decisionLineNoRule"
              defaultMessage="<strong>{action}</strong> · {target} · by {username}, {when}"
              values={{
                strong: (chunks) => <strong>{chunks}</strong>,
                action: t(ACTION_LABELS[decision.action]),
                target: t(TARGET_LABELS[decision.targetType]),
                username: decision.moderator.username,
                when: <RelativeTime value={decision.createdAt} className="muted" />,
              }}
            />
          )}
        </p>
        {appeal.decidedByYou && (
          <p className="appeal-card__own muted">
            <Message id="moderation.appeal.yours" defaultMessage="You took this decision." />
          </p>
        )}
        {(picture || decision.excerpt) && (
          <div className="queue-card__snapshot">
            {picture && (
              <img
                className="queue-card__picture"
                src={picture}
                alt={t({ id: 'moderation.appeal.picture', defaultMessage: 'The picture, as reported' })}
                onError={() => setPictureFailed(true)}
              />
            )}
            {decision.excerpt && <blockquote className="queue-card__quote">{decision.excerpt}</blockquote>}
          </div>
        )}
        {decision.explanation && (
          <p className="queue-card__text">
            <Message
              id="moderation.why"
              defaultMessage="Why: {explanation}"
              values={{ explanation: decision.explanation }}
            />
          </p>
        )}
      </section>
      <section
        className="queue-card__section"
        aria-label={t({ id: 'moderation.appeal.body', defaultMessage: 'The appeal' })}
      >
        <h4 className="queue-card__heading">
          <Message id="moderation.appeal.body" defaultMessage="The appeal" />
        </h4>
        <blockquote className="queue-card__quote appeal-card__body">{appeal.body}</blockquote>
      </section>
      <div className="actions-form">
        <CountedTextarea
          label={t({
            id: 'moderation.appeal.explanation',
            defaultMessage: 'Explanation for the person who appealed',
          })}
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
            <Message id="moderation.appeal.overturn" defaultMessage="Undo the decision" />
          </Button>
          <Button variant="secondary" disabled={decide.isPending} onClick={() => answer('upheld')}>
            <Message id="moderation.appeal.uphold" defaultMessage="Keep the decision" />
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
      <h2 id="appeals-heading">
        <Message id="moderation.appeals.heading" defaultMessage="Appeals" />
      </h2>
      {status && (
        <p className="notice notice--success" role="status">
          {status}
        </p>
      )}
      {appeals.isPending ? (
        <p className="loading-text">
          <Message id="moderation.loading" defaultMessage="Loading..." />
        </p>
      ) : appeals.isError ? (
        <p className="notice notice--error">
          <Message
            id="moderation.error"
            defaultMessage="Error: {message}"
            values={{ message: errorMessage(appeals.error) }}
          />
        </p>
      ) : appeals.data.appeals.length === 0 ? (
        <p className="muted">
          <Message id="moderation.appeals.none" defaultMessage="No appeal is waiting." />
        </p>
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
