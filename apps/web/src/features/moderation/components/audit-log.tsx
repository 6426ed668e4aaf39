import { useState, type ReactNode } from 'react';
import { MODERATION_EXPLANATION_MAX, type ModerationAction } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { CountedTextarea } from '../../../components/counted-textarea.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useAuditLog, useRestoreAction } from '../api/audit-log.ts';
import { ACTION_LABELS, TARGET_LABELS } from './labels.ts';
import { RULE_MESSAGES } from '../../../components/moderation/moderation-wording.ts';

/** The actions a moderator can undo from the log (a dismissal changed nothing; a restore is the undoing). */
const UNDOABLE = new Set<ModerationAction['action']>(['remove', 'strip_location', 'warn', 'suspend']);

/** One entry: who did what to what, why and when, and 'Undo' while it stands. */
function LogEntry({ entry, onUndone }: { entry: ModerationAction; onUndone: (message: string) => void }) {
  const [undoing, setUndoing] = useState(false);
  const [explanation, setExplanation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const restore = useRestoreAction();
  const t = useTranslate();
  const action =
    entry.action !== 'suspend'
      ? t(ACTION_LABELS[entry.action])
      : entry.suspendDays === null
        ? t({ id: 'moderation.log.suspendedForGood', defaultMessage: 'Suspended for good' })
        : t(
            {
              id: 'moderation.log.suspendedForDays',
              defaultMessage: '{count, plural, one {Suspended for # day} other {Suspended for # days}}',
            },
            { count: entry.suspendDays },
          );
  const strong = (chunks: ReactNode[]) => <strong>{chunks}</strong>;
  const when = <RelativeTime value={entry.createdAt} className="muted" />;

  return (
    <li className="audit-log__entry" data-action-id={entry._id}>
      <p className="queue-card__meta">
        {entry.rule ? (
          <Message
            id="moderation.log.line"
            defaultMessage="<strong>{username}</strong> · {action} · {target} · {rule} · {when}"
            values={{
              strong,
              username: entry.moderator.username,
              action,
              target: t(TARGET_LABELS[entry.targetType]),
              rule: t(RULE_MESSAGES[entry.rule]),
              when,
            }}
          />
        ) : (
          <Message
            id="moderation.log.lineNoRule"
            defaultMessage="<strong>{username}</strong> · {action} · {target} · {when}"
            values={{
              strong,
              username: entry.moderator.username,
              action,
              target: t(TARGET_LABELS[entry.targetType]),
              when,
            }}
          />
        )}
        {entry.reverted && (
          <span className="audit-log__undone">
            <Message id="moderation.log.undone" defaultMessage="undone" />
          </span>
        )}
      </p>
      {entry.explanation && (
        <p className="queue-card__text">
          <Message
            id="moderation.why"
            defaultMessage="Why: {explanation}"
            values={{ explanation: entry.explanation }}
          />
        </p>
      )}
      {UNDOABLE.has(entry.action) &&
        !entry.reverted &&
        (undoing ? (
          <div className="actions-form">
            <CountedTextarea
              label={t({
                id: 'moderation.log.undoWhy',
                defaultMessage: 'Why undo it (the person affected reads this)',
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
              <Button
                variant="primary"
                size="sm"
                disabled={restore.isPending}
                onClick={() => {
                  setError(null);
                  restore.mutate(
                    { actionId: entry._id, explanation },
                    {
                      onSuccess: () => {
                        setUndoing(false);
                        onUndone(
                          t({
                            id: 'moderation.log.undoneStatus',
                            defaultMessage: 'The action is undone and the person affected is told.',
                          }),
                        );
                      },
                      onError: (err) => setError(errorMessage(err)),
                    },
                  );
                }}
              >
                <Message id="moderation.log.confirmUndo" defaultMessage="Confirm undo" />
              </Button>
              <Button variant="secondary" size="sm" onClick={() => setUndoing(false)}>
                <Message id="moderation.log.cancel" defaultMessage="Cancel" />
              </Button>
            </div>
          </div>
        ) : (
          <Button variant="secondary" size="sm" onClick={() => setUndoing(true)}>
            <Message id="moderation.log.undo" defaultMessage="Undo" />
          </Button>
        ))}
    </li>
  );
}

/** The audit log (issue 27): every action, newest first, loaded only when a moderator opens it. */
export function AuditLog() {
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const log = useAuditLog(open);
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];

  return (
    <section className="audit-log" aria-labelledby="audit-log-heading">
      <h2 id="audit-log-heading">
        <Message id="moderation.log.heading" defaultMessage="Audit log" />
      </h2>
      {!open ? (
        <Button variant="secondary" onClick={() => setOpen(true)}>
          <Message id="moderation.log.show" defaultMessage="Show the audit log" />
        </Button>
      ) : (
        <>
          {status && (
            <p className="notice notice--success" role="status">
              {status}
            </p>
          )}
          {log.isPending ? (
            <p className="loading-text">
              <Message id="moderation.loading" defaultMessage="Loading..." />
            </p>
          ) : log.isError ? (
            <p className="notice notice--error">
              <Message
                id="moderation.error"
                defaultMessage="Error: {message}"
                values={{ message: errorMessage(log.error) }}
              />
            </p>
          ) : entries.length === 0 ? (
            <p className="muted">
              <Message id="moderation.log.empty" defaultMessage="No moderator has acted yet." />
            </p>
          ) : (
            <ul className="audit-log__list card">
              {entries.map((entry) => (
                <LogEntry key={entry._id} entry={entry} onUndone={setStatus} />
              ))}
            </ul>
          )}
          {log.hasNextPage && (
            <Button
              variant="secondary"
              disabled={log.isFetchingNextPage}
              onClick={() => void log.fetchNextPage()}
            >
              {log.isFetchingNextPage ? (
                <Message id="moderation.loading" defaultMessage="Loading..." />
              ) : (
                <Message id="moderation.log.more" defaultMessage="Show more" />
              )}
            </Button>
          )}
        </>
      )}
    </section>
  );
}
