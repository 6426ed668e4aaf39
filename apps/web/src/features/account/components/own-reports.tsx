import type { OwnReport } from '@cats/contracts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import {
  RULE_MESSAGES,
  REPORTED_TARGET_MESSAGES,
  outcomeSentence,
} from '../../../components/moderation/moderation-wording.ts';
import { formatDay } from '../../../lib/relative-time.ts';

/** What came of one report: 'Waiting for review', or a sentence per action taken. */
function ReportStatus({ report }: { report: OwnReport }) {
  if (report.status === 'open')
    return (
      <p className="own-report__status">
        <Message id="settings.reports.waiting" defaultMessage="Waiting for review" />
      </p>
    );
  const taken = report.outcomes.filter((o) => o !== 'dismiss');
  if (taken.length === 0)
    return (
      <p className="own-report__status">
        <Message
          id="settings.reports.noRuleBroken"
          defaultMessage="We reviewed it and found no rule broken."
        />
      </p>
    );
  return (
    <>
      {taken.map((action, index) => (
        <p key={`${action}-${index}`} className="own-report__status">
          {outcomeSentence(action, report.targetType)}
        </p>
      ))}
    </>
  );
}

/** The viewer's own reports, newest first, and what came of each (issue 27). */
export function OwnReports({ reports }: { reports: OwnReport[] }) {
  const t = useTranslate();
  if (reports.length === 0)
    return (
      <p className="muted">
        <Message id="settings.reports.none" defaultMessage="You have not reported anything." />
      </p>
    );
  return (
    <ul className="own-reports">
      {reports.map((report) => (
        <li key={report._id} className="own-report card">
          <p className="own-report__what">
            <Message
              id="settings.reports.what"
              defaultMessage="<strong>{target}</strong> · {rule} · <time>{date}</time>"
              values={{
                target: t(REPORTED_TARGET_MESSAGES[report.targetType]),
                rule: t(RULE_MESSAGES[report.reason]),
                date: formatDay(report.createdAt),
                strong: (chunks) => <strong>{chunks}</strong>,
                time: (chunks) => <time dateTime={report.createdAt}>{chunks}</time>,
              }}
            />
          </p>
          {report.note && <p className="own-report__note muted">{report.note}</p>}
          <ReportStatus report={report} />
        </li>
      ))}
    </ul>
  );
}
