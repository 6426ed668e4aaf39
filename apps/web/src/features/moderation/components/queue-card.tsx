import { useId } from 'react';
import { Link } from 'react-router';
import type { QueueGroup } from '@cats/contracts';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { ActionsForm } from './actions-form.tsx';
import { ModerationNotes } from './moderation-notes.tsx';
import { ACTION_LABELS, REASON_LABELS, TARGET_LABELS } from './labels.ts';

/** Where the reported thing lives now (it may be gone: the snapshot is what counts). */
function targetLink(group: QueueGroup): string | null {
  switch (group.targetType) {
    case 'post':
      return `/posts/${group.targetId}`;
    case 'user':
      return `/profile/${group.targetId}`;
    case 'cat':
      return `/cats/${group.targetId}`;
    case 'comment':
      return null;
  }
}

/** The reported content as it was when reported. */
function Snapshot({ group }: { group: QueueGroup }) {
  const { snapshot } = group;
  const alt =
    snapshot.altText ?? (snapshot.catName ? `Photo of ${snapshot.catName}` : 'The reported picture');
  return (
    <div className="queue-card__snapshot">
      {snapshot.pictureUrl && <img className="queue-card__picture" src={snapshot.pictureUrl} alt={alt} />}
      <div className="queue-card__snapshot-text">
        {snapshot.name && <p className="queue-card__name">{snapshot.name}</p>}
        {snapshot.catName && <p className="queue-card__name">{snapshot.catName}</p>}
        {snapshot.caption && <p className="queue-card__text">{snapshot.caption}</p>}
        {snapshot.text && <blockquote className="queue-card__quote">{snapshot.text}</blockquote>}
        {snapshot.description && <p className="queue-card__text">{snapshot.description}</p>}
        {group.targetType === 'user' && snapshot.username && (
          <p className="queue-card__name">{snapshot.username}</p>
        )}
        {!snapshot.pictureUrl &&
          !snapshot.caption &&
          !snapshot.text &&
          !snapshot.name &&
          !snapshot.catName &&
          !snapshot.description &&
          !snapshot.username && <p className="muted">The report kept no copy of the content.</p>}
      </div>
    </div>
  );
}

/**
 * One reported thing in the queue (issue 27): the content as reported, who reported it and why, the
 * author's earlier strikes, notes between moderators, and the decision.
 */
export function QueueCard({ group, onDecided }: { group: QueueGroup; onDecided: (message: string) => void }) {
  const headingId = useId();
  const link = targetLink(group);
  const count = group.reports.length;

  return (
    <article className="queue-card card" aria-labelledby={headingId} data-report-id={group.reportId}>
      <header className="queue-card__header">
        <h2 id={headingId} className="queue-card__title">
          {TARGET_LABELS[group.targetType]}
          {group.author ? ` by ${group.author.username}` : ''}
        </h2>
        <p className="queue-card__meta muted">
          {count === 1 ? '1 report' : `${count} reports`}, the first{' '}
          <RelativeTime value={group.oldestReportAt} />
          {link && (
            <>
              {' · '}
              <Link to={link}>Open</Link>
            </>
          )}
        </p>
      </header>

      <Snapshot group={group} />

      <section className="queue-card__section" aria-labelledby={`${headingId}-reports`}>
        <h3 id={`${headingId}-reports`} className="queue-card__heading">
          Reports
        </h3>
        <ul className="queue-card__list">
          {group.reports.map((report) => (
            <li key={report._id} className="queue-card__report">
              <p className="queue-card__meta">
                <strong>{report.reporter.username}</strong> · {REASON_LABELS[report.reason]} ·{' '}
                <RelativeTime value={report.updatedAt} className="muted" />
              </p>
              {report.note && <p className="queue-card__text">{report.note}</p>}
            </li>
          ))}
        </ul>
      </section>

      <section className="queue-card__section" aria-labelledby={`${headingId}-strikes`}>
        <h3 id={`${headingId}-strikes`} className="queue-card__heading">
          {group.strikeCount === 0
            ? 'No earlier strikes'
            : group.strikeCount === 1
              ? '1 earlier strike'
              : `${group.strikeCount} earlier strikes`}
        </h3>
        {group.strikes.length > 0 && (
          <ul className="queue-card__list">
            {group.strikes.map((strike) => (
              <li key={strike._id} className="queue-card__strike">
                <p className="queue-card__meta">
                  <strong>{ACTION_LABELS[strike.action]}</strong>
                  {strike.rule ? ` · ${REASON_LABELS[strike.rule]}` : ''} ·{' '}
                  <RelativeTime value={strike.createdAt} className="muted" />
                </p>
                {strike.explanation && <p className="queue-card__text">{strike.explanation}</p>}
              </li>
            ))}
          </ul>
        )}
      </section>

      <ModerationNotes targetType={group.targetType} targetId={group.targetId} notes={group.notes} />

      <ActionsForm group={group} onDone={onDecided} />
    </article>
  );
}
