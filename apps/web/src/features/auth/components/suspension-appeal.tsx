import { useState, type FormEvent } from 'react';
import { APPEAL_MAX, type Statement, type StatementsResponse } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { CountedTextarea } from '../../../components/counted-textarea.tsx';
import { RULE_MESSAGES, decisionSentence } from '../../../components/moderation/moderation-wording.ts';
import { formatDay } from '../../../lib/relative-time.ts';
import { api, ApiError, noServerResponse } from '../../../lib/api-client.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import './suspension-appeal.css';

interface Credentials {
  email: string;
  password: string;
}

const failure = (err: unknown) =>
  err instanceof ApiError && err.status !== null ? err.message : noServerResponse();

/**
 * Issue 27: a suspended person cannot sign in, so the login page lets them read why and appeal with the
 * email and password they just typed (POST /api/login/suspension, /api/login/suspension/appeal).
 */
export function SuspensionAppeal({ credentials }: { credentials: Credentials }) {
  const [statements, setStatements] = useState<Statement[] | null>(null);
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(false);

  const load = async () => {
    setLoading(true);
    setError('');
    try {
      const answer = await api<StatementsResponse>('/api/login/suspension', {
        method: 'POST',
        body: credentials,
        anonymous: true,
      });
      setStatements(answer.statements);
    } catch (err) {
      setError(failure(err));
    } finally {
      setLoading(false);
    }
  };

  if (!statements) {
    return (
      <div className="suspension-appeal">
        <Button variant="secondary" onClick={() => void load()} disabled={loading}>
          <Message id="auth.suspension.read" defaultMessage="Read why and appeal" />
        </Button>
        {error ? (
          <p className="suspension-appeal__error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <section className="suspension-appeal" aria-labelledby="suspension-appeal-title">
      <h2 id="suspension-appeal-title" className="suspension-appeal__title">
        <Message id="auth.suspension.title" defaultMessage="Why your account is suspended" />
      </h2>
      {statements.length === 0 ? (
        <p>
          <Message id="auth.suspension.none" defaultMessage="No moderator has acted on your content." />
        </p>
      ) : null}
      {statements.map((statement) => (
        <SuspensionStatement key={statement._id} statement={statement} credentials={credentials} />
      ))}
    </section>
  );
}

function SuspensionStatement({ statement, credentials }: { statement: Statement; credentials: Credentials }) {
  const [current, setCurrent] = useState(statement);
  const [body, setBody] = useState('');
  const [error, setError] = useState('');
  const [sent, setSent] = useState('');
  const [sending, setSending] = useState(false);
  const t = useTranslate();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (body.trim() === '')
      return setError(
        t({ id: 'auth.suspension.appealEmpty', defaultMessage: 'Write why the decision should change.' }),
      );
    setSending(true);
    setError('');
    try {
      const answer = await api<{ appeal: NonNullable<Statement['appeal']>; message: string }>(
        '/api/login/suspension/appeal',
        { method: 'POST', body: { ...credentials, actionId: current._id, body }, anonymous: true },
      );
      setCurrent({ ...current, appeal: answer.appeal, canAppeal: false });
      setSent(answer.message);
    } catch (err) {
      setError(failure(err));
    } finally {
      setSending(false);
    }
  };

  return (
    <article className="suspension-appeal__statement">
      <h3 className="suspension-appeal__sentence">{decisionSentence(current)}</h3>
      <p className="muted">
        <time dateTime={current.createdAt}>{formatDay(current.createdAt)}</time>
      </p>
      {current.rule ? (
        <p>
          <Message
            id="auth.suspension.rule"
            defaultMessage="Rule: {rule}"
            values={{ rule: t(RULE_MESSAGES[current.rule]) }}
          />
        </p>
      ) : null}
      {current.explanation ? (
        <p>
          <Message
            id="auth.suspension.why"
            defaultMessage="Why: {explanation}"
            values={{ explanation: current.explanation }}
          />
        </p>
      ) : null}
      {current.appeal ? (
        <p>
          {current.appeal.outcome === 'overturned' ? (
            <Message
              id="auth.suspension.appealAccepted"
              defaultMessage="Your appeal was accepted: the decision is undone."
            />
          ) : current.appeal.outcome === 'upheld' ? (
            <Message
              id="auth.suspension.appealDeclined"
              defaultMessage="Your appeal was declined: the decision stands."
            />
          ) : (
            <Message
              id="auth.suspension.appealWaiting"
              defaultMessage="You appealed. Waiting for a moderator."
            />
          )}
        </p>
      ) : null}
      {sent ? (
        <p className="suspension-appeal__sent" role="status">
          {sent}
        </p>
      ) : null}
      {current.canAppeal ? (
        <form onSubmit={(e) => void onSubmit(e)} className="suspension-appeal__form">
          <CountedTextarea
            label={t({ id: 'auth.suspension.appealLabel', defaultMessage: 'Your appeal' })}
            value={body}
            max={APPEAL_MAX}
            maxLength={APPEAL_MAX}
            rows={4}
            error={error || null}
            onChange={(e) => setBody(e.target.value)}
          />
          <p className="muted">
            <Message
              id="auth.suspension.appealUntil"
              defaultMessage="You can appeal until {day}."
              values={{
                day: <time dateTime={current.appealDeadline}>{formatDay(current.appealDeadline)}</time>,
              }}
            />
          </p>
          <Button type="submit" variant="primary" disabled={sending}>
            <Message id="auth.suspension.send" defaultMessage="Send appeal" />
          </Button>
        </form>
      ) : !current.appeal && !current.reverted ? (
        <p className="muted">
          <Message
            id="auth.suspension.appealClosed"
            defaultMessage="The time to appeal this decision has passed."
          />
        </p>
      ) : null}
      {!current.canAppeal && error ? (
        <p className="suspension-appeal__error" role="alert">
          {error}
        </p>
      ) : null}
    </article>
  );
}
