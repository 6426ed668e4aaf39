import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { DemoDisabledModal } from '../../../components/message-modal.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useOwnReports, useStatements } from '../api/moderation-statements.ts';
import { OwnReports } from '../components/own-reports.tsx';
import { LoadErrorText } from '../components/settings-card.tsx';
import { StatementCard } from '../components/statement-card.tsx';
import './settings-page.css';

/**
 * /settings/moderation (issue 27, the author's side): a statement of reasons for each decision that
 * affected the viewer, with the appeal, and what came of the viewer's own reports. Notifications lead
 * here, to #decision-<id> or #reports.
 */
export default function ModerationDecisionsPage() {
  const statements = useStatements();
  const reports = useOwnReports();
  const { hash } = useLocation();
  const target = decodeURIComponent(hash.replace(/^#/, ''));
  const [demoRefused, setDemoRefused] = useState(false);
  const loaded = statements.isSuccess && reports.isSuccess;
  const t = useTranslate();

  // Once the lists are on screen, bring the decision (or the reports) the link named into view.
  useEffect(() => {
    if (!loaded || !target) return;
    const element = document.getElementById(target);
    element?.scrollIntoView?.({ block: 'start' });
    element?.focus({ preventScroll: true });
  }, [loaded, target]);

  return (
    <div className="page settings moderation-decisions">
      <title>
        {t({
          id: 'settings.moderation.pageTitle',
          defaultMessage: 'Moderation decisions · Neighbourhood Cats',
        })}
      </title>
      <p className="moderation-decisions__back">
        <Link to="/profile/settings">
          <Message id="settings.page.heading" defaultMessage="Settings" />
        </Link>
      </p>
      <h1>
        <Message id="settings.moderation.heading" defaultMessage="Moderation decisions" />
      </h1>
      <section aria-labelledby="decisions-heading" className="moderation-decisions__section">
        <h2 id="decisions-heading">
          <Message id="settings.moderation.decisions" defaultMessage="Decisions about your content" />
        </h2>
        {statements.isPending ? (
          <p className="loading-text">
            <Message id="settings.loading" defaultMessage="Loading..." />
          </p>
        ) : statements.isError ? (
          <LoadErrorText error={statements.error} />
        ) : statements.data.statements.length === 0 ? (
          <p className="muted">
            <Message id="settings.moderation.none" defaultMessage="No moderator has acted on your content." />
          </p>
        ) : (
          <ul className="statements">
            {statements.data.statements.map((statement) => (
              <li key={statement._id}>
                <StatementCard
                  statement={statement}
                  highlighted={target === `decision-${statement._id}`}
                  onDemoRefused={() => setDemoRefused(true)}
                />
              </li>
            ))}
          </ul>
        )}
      </section>
      <section
        id="reports"
        tabIndex={-1}
        aria-labelledby="reports-heading"
        className="moderation-decisions__section"
      >
        <h2 id="reports-heading">
          <Message id="settings.moderation.reports" defaultMessage="Your reports" />
        </h2>
        {reports.isPending ? (
          <p className="loading-text">
            <Message id="settings.loading" defaultMessage="Loading..." />
          </p>
        ) : reports.isError ? (
          <LoadErrorText error={reports.error} />
        ) : (
          <OwnReports reports={reports.data.reports} />
        )}
      </section>
      {demoRefused && <DemoDisabledModal onClose={() => setDemoRefused(false)} />}
    </div>
  );
}
