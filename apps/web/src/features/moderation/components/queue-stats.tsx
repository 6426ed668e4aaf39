import { QUEUE_WARNING_HOURS, type ModerationStats } from '@cats/contracts';
import { translate } from '../../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';

/** A duration in words, in the current language: '45 minutes', '3 hours', '2 days'. */
export function durationText(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 1)
    return translate({ id: 'moderation.duration.underMinute', defaultMessage: 'less than a minute' });
  if (minutes < 60)
    return translate(
      {
        id: 'moderation.duration.minutes',
        defaultMessage: '{count, plural, one {# minute} other {# minutes}}',
      },
      { count: minutes },
    );
  const hours = Math.round(minutes / 60);
  if (hours < 48)
    return translate(
      { id: 'moderation.duration.hours', defaultMessage: '{count, plural, one {# hour} other {# hours}}' },
      { count: hours },
    );
  const days = Math.round(hours / 24);
  return translate(
    { id: 'moderation.duration.days', defaultMessage: '{count, plural, one {# day} other {# days}}' },
    { count: days },
  );
}

/** The health of the queue, with a warning when the oldest report has waited too long. */
export function QueueStats({ stats }: { stats: ModerationStats }) {
  const late =
    stats.oldestOpenReportAgeSeconds !== null &&
    stats.oldestOpenReportAgeSeconds > QUEUE_WARNING_HOURS * 3600;
  const t = useTranslate();
  return (
    <section
      className="queue-stats"
      aria-label={t({ id: 'moderation.stats.label', defaultMessage: 'Health of the queue' })}
    >
      {late && (
        <p className="notice notice--error" role="alert">
          <Message
            id="moderation.stats.late"
            defaultMessage="The oldest report has waited more than {count, plural, one {# hour} other {# hours}}."
            values={{ count: QUEUE_WARNING_HOURS }}
          />
        </p>
      )}
      <dl className="queue-stats__grid">
        <div className="queue-stats__item card">
          <dt>
            <Message id="moderation.stats.open" defaultMessage="Open reports" />
          </dt>
          <dd>{stats.openReports}</dd>
        </div>
        <div className="queue-stats__item card">
          <dt>
            <Message id="moderation.stats.oldest" defaultMessage="Oldest waiting" />
          </dt>
          <dd>
            {stats.oldestOpenReportAgeSeconds === null ? (
              <Message id="moderation.stats.oldestNone" defaultMessage="None" />
            ) : (
              durationText(stats.oldestOpenReportAgeSeconds)
            )}
          </dd>
        </div>
        <div className="queue-stats__item card">
          <dt>
            <Message id="moderation.stats.median" defaultMessage="Median time to a first action (30 days)" />
          </dt>
          <dd>
            {stats.medianSecondsToFirstAction === null ? (
              <Message id="moderation.stats.medianNone" defaultMessage="No actions yet" />
            ) : (
              durationText(stats.medianSecondsToFirstAction)
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}
