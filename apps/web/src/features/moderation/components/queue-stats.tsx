import { QUEUE_WARNING_HOURS, type ModerationStats } from '@cats/contracts';

/** A duration in words: '45 minutes', '3 hours', '2 days'. */
export function durationText(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return hours === 1 ? '1 hour' : `${hours} hours`;
  const days = Math.round(hours / 24);
  return `${days} days`;
}

/** The health of the queue, with a warning when the oldest report has waited too long. */
export function QueueStats({ stats }: { stats: ModerationStats }) {
  const late =
    stats.oldestOpenReportAgeSeconds !== null &&
    stats.oldestOpenReportAgeSeconds > QUEUE_WARNING_HOURS * 3600;
  return (
    <section className="queue-stats" aria-label="Health of the queue">
      {late && (
        <p className="notice notice--error" role="alert">
          The oldest report has waited more than {QUEUE_WARNING_HOURS} hours.
        </p>
      )}
      <dl className="queue-stats__grid">
        <div className="queue-stats__item card">
          <dt>Open reports</dt>
          <dd>{stats.openReports}</dd>
        </div>
        <div className="queue-stats__item card">
          <dt>Oldest waiting</dt>
          <dd>
            {stats.oldestOpenReportAgeSeconds === null
              ? 'None'
              : durationText(stats.oldestOpenReportAgeSeconds)}
          </dd>
        </div>
        <div className="queue-stats__item card">
          <dt>Median time to a first action (30 days)</dt>
          <dd>
            {stats.medianSecondsToFirstAction === null
              ? 'No actions yet'
              : durationText(stats.medianSecondsToFirstAction)}
          </dd>
        </div>
      </dl>
    </section>
  );
}
