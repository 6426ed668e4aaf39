import { useId } from 'react';
import { Link } from 'react-router';
import type { QueueGroup } from '@cats/contracts';
import { useObjectUrl } from '../../../components/post/crop/use-object-url.ts';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useReportPicture } from '../api/get-report-picture.ts';
import { ActionsForm } from './actions-form.tsx';
import { ModerationNotes } from './moderation-notes.tsx';
import { ACTION_LABELS, TARGET_LABELS } from './labels.ts';
import { RULE_MESSAGES } from '../../../components/moderation/moderation-wording.ts';

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

/**
 * The reported picture, fetched with the moderator's token (an <img> cannot send it, issue 46) and
 * shown from memory; the box keeps its place while it loads.
 */
function ReportPicture({ url, alt }: { url: string; alt: string }) {
  const picture = useReportPicture(url);
  const src = useObjectUrl(picture.data ?? null);
  if (picture.isError) {
    return (
      <p className="queue-card__picture queue-card__picture--missing muted">
        <Message id="moderation.snapshot.pictureFailed" defaultMessage="The picture could not be loaded." />
      </p>
    );
  }
  if (!src) return <div className="queue-card__picture" aria-busy="true" />;
  return <img className="queue-card__picture" src={src} alt={alt} />;
}

/** The reported content as it was when reported. */
function Snapshot({ group }: { group: QueueGroup }) {
  const { snapshot } = group;
  const t = useTranslate();
  const alt =
    snapshot.altText ??
    (snapshot.catName
      ? t(
          { id: 'moderation.snapshot.catPhoto', defaultMessage: 'Photo of {name}' },
          { name: snapshot.catName },
        )
      : t({ id: 'moderation.snapshot.picture', defaultMessage: 'The reported picture' }));
  return (
    <div className="queue-card__snapshot">
      {snapshot.pictureUrl && <ReportPicture url={snapshot.pictureUrl} alt={alt} />}
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
          !snapshot.username && (
            <p className="muted">
              <Message
                id="moderation.snapshot.none"
                defaultMessage="The report kept no copy of the content."
              />
            </p>
          )}
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
  const t = useTranslate();

  return (
    <article className="queue-card card" aria-labelledby={headingId} data-report-id={group.reportId}>
      <header className="queue-card__header">
        <h2 id={headingId} className="queue-card__title">
          {group.author ? (
            <Message
              id="moderation.card.titleBy"
              defaultMessage="{target} by {username}"
              values={{ target: t(TARGET_LABELS[group.targetType]), username: group.author.username }}
            />
          ) : (
            t(TARGET_LABELS[group.targetType])
          )}
        </h2>
        <p className="queue-card__meta muted">
          {link ? (
            <Message
              id="moderation.card.reportCountOpen"
              defaultMessage="{count, plural, one {# report} other {# reports}}, the first {when} · <link>Open</link>"
              values={{
                count,
                when: <RelativeTime value={group.oldestReportAt} />,
                link: (chunks) => <Link to={link}>{chunks}</Link>,
              }}
            />
          ) : (
            <Message
              id="moderation.card.reportCount"
              defaultMessage="{count, plural, one {# report} other {# reports}}, the first {when}"
              values={{ count, when: <RelativeTime value={group.oldestReportAt} /> }}
            />
          )}
        </p>
      </header>

      <Snapshot group={group} />

      <section className="queue-card__section" aria-labelledby={`${headingId}-reports`}>
        <h3 id={`${headingId}-reports`} className="queue-card__heading">
          <Message id="moderation.card.reports" defaultMessage="Reports" />
        </h3>
        <ul className="queue-card__list">
          {group.reports.map((report) => (
            <li key={report._id} className="queue-card__report">
              <p className="queue-card__meta">
                <Message
                  id="moderation.card.reportLine"
                  defaultMessage="<strong>{username}</strong> · {reason} · {when}"
                  values={{
                    strong: (chunks) => <strong>{chunks}</strong>,
                    username: report.reporter.username,
                    reason: t(RULE_MESSAGES[report.reason]),
                    when: <RelativeTime value={report.updatedAt} className="muted" />,
                  }}
                />
              </p>
              {report.note && <p className="queue-card__text">{report.note}</p>}
            </li>
          ))}
        </ul>
      </section>

      <section className="queue-card__section" aria-labelledby={`${headingId}-strikes`}>
        <h3 id={`${headingId}-strikes`} className="queue-card__heading">
          <Message
            id="moderation.card.strikes"
            defaultMessage="{count, plural, =0 {No earlier strikes} one {# earlier strike} other {# earlier strikes}}"
            values={{ count: group.strikeCount }}
          />
        </h3>
        {group.strikes.length > 0 && (
          <ul className="queue-card__list">
            {group.strikes.map((strike) => (
              <li key={strike._id} className="queue-card__strike">
                <p className="queue-card__meta">
                  {strike.rule ? (
                    <Message
                      id="moderation.card.strikeLine"
                      defaultMessage="<strong>{action}</strong> · {rule} · {when}"
                      values={{
                        strong: (chunks) => <strong>{chunks}</strong>,
                        action: t(ACTION_LABELS[strike.action]),
                        rule: t(RULE_MESSAGES[strike.rule]),
                        when: <RelativeTime value={strike.createdAt} className="muted" />,
                      }}
                    />
                  ) : (
                    <Message
                      id="moderation.card.strikeLineNoRule"
                      defaultMessage="<strong>{action}</strong> · {when}"
                      values={{
                        strong: (chunks) => <strong>{chunks}</strong>,
                        action: t(ACTION_LABELS[strike.action]),
                        when: <RelativeTime value={strike.createdAt} className="muted" />,
                      }}
                    />
                  )}
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
