import { useState } from 'react';
import { MODERATION_EXPLANATION_MAX, type ModerationAction } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { CountedTextarea } from '../../../components/counted-textarea.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { useAuditLog, useRestoreAction } from '../api/audit-log.ts';
import { ACTION_LABELS, REASON_LABELS, TARGET_LABELS } from './labels.ts';

/** The actions a moderator can undo from the log (a dismissal changed nothing; a restore is the undoing). */
const UNDOABLE = new Set<ModerationAction['action']>(['remove', 'strip_location', 'warn', 'suspend']);

function suspensionText(days: number | null): string {
  if (days === null) return 'for good';
  return days === 1 ? 'for 1 day' : `for ${days} days`;
}

/** One entry: who did what to what, why and when, and 'Undo' while it stands. */
function LogEntry({ entry, onUndone }: { entry: ModerationAction; onUndone: (message: string) => void }) {
  const [undoing, setUndoing] = useState(false);
  const [explanation, setExplanation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const restore = useRestoreAction();

  return (
    <li className="audit-log__entry" data-action-id={entry._id}>
      <p className="queue-card__meta">
        <strong>{entry.moderator.username}</strong> · {ACTION_LABELS[entry.action]}
        {entry.action === 'suspend' ? ` ${suspensionText(entry.suspendDays)}` : ''} ·{' '}
        {TARGET_LABELS[entry.targetType]}
        {entry.rule ? ` · ${REASON_LABELS[entry.rule]}` : ''} ·{' '}
        <RelativeTime value={entry.createdAt} className="muted" />
        {entry.reverted && <span className="audit-log__undone">undone</span>}
      </p>
      {entry.explanation && <p className="queue-card__text">Why: {entry.explanation}</p>}
      {UNDOABLE.has(entry.action) &&
        !entry.reverted &&
        (undoing ? (
          <div className="actions-form">
            <CountedTextarea
              label="Why undo it (the person affected reads this)"
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
                        onUndone('The action is undone and the person affected is told.');
                      },
                      onError: (err) => setError(errorMessage(err)),
                    },
                  );
                }}
              >
                Confirm undo
              </Button>
              <Button variant="secondary" size="sm" onClick={() => setUndoing(false)}>
                Cancel
              </Button>
            </div>
          </div>
        ) : (
          <Button variant="secondary" size="sm" onClick={() => setUndoing(true)}>
            Undo
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
      <h2 id="audit-log-heading">Audit log</h2>
      {!open ? (
        <Button variant="secondary" onClick={() => setOpen(true)}>
          Show the audit log
        </Button>
      ) : (
        <>
          {status && (
            <p className="notice notice--success" role="status">
              {status}
            </p>
          )}
          {log.isPending ? (
            <p className="loading-text">Loading...</p>
          ) : log.isError ? (
            <p className="notice notice--error">Error: {errorMessage(log.error)}</p>
          ) : entries.length === 0 ? (
            <p className="muted">No moderator has acted yet.</p>
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
              {log.isFetchingNextPage ? 'Loading...' : 'Show more'}
            </Button>
          )}
        </>
      )}
    </section>
  );
}
