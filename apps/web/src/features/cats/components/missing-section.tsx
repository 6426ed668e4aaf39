import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import type { Cat, MissingAlert } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { LastSeenText } from '../../../components/cats/last-seen-text.tsx';
import { AlertIcon } from '../../../components/icons.tsx';
import { errorMessage, isDemoRefusal } from '../../../components/post/api/errors.ts';
import { showToast } from '../../../components/toast.tsx';
import { dateTimeFormat } from '../../../i18n/intl-formatters.ts';
import { dateLocale } from '../../../lib/relative-time.ts';
import { Message, useLanguage, useTranslate } from '../../../i18n/message.tsx';
import { useMarkFound, useRenewAlert } from '../api/missing-alert.ts';
import { useMissingReports } from '../api/missing-reports.ts';
import { MarkMissingDialog } from './mark-missing-dialog.tsx';
import { CONTACT_SENTENCES } from './missing-labels.ts';
import { MissingReports } from './missing-reports.tsx';
import { ReportSightingDialog } from './report-sighting-dialog.tsx';

// Leaflet is a chunk of its own: loaded only when a cat is missing.
const MissingMap = lazy(() => import('./missing-map.tsx'));

interface Props {
  cat: Cat;
  onDemoRefused: () => void;
}

/** 'Mark as missing', for the caretakers of a cat that is not missing (issue 26). */
export function MarkMissingButton({ cat, onDemoRefused }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="danger" size="sm" onClick={() => setOpen(true)}>
        <Message id="missing.mark.submit" defaultMessage="Mark as missing" />
      </Button>
      {open && <MarkMissingDialog cat={cat} onClose={() => setOpen(false)} onDemoRefused={onDemoRefused} />}
    </>
  );
}

/**
 * A missing cat's alert on its page (issue 26): last seen when and roughly where, the note, how to
 * help, and 'I saw this cat'; for the caretakers 'Renew alert', 'Mark as found' and every report, on a
 * list and on the map.
 */
export function MissingAlertPanel({ cat, alert, onDemoRefused }: Props & { alert: MissingAlert }) {
  const [reporting, setReporting] = useState(false);
  return (
    <>
      <MissingAlertView
        cat={cat}
        alert={alert}
        onReport={() => (alert.viewer.canReport ? setReporting(true) : onDemoRefused())}
        onDemoRefused={onDemoRefused}
      />
      {reporting && (
        <ReportSightingDialog
          catId={cat._id}
          catName={cat.name}
          onClose={() => setReporting(false)}
          onDemoRefused={onDemoRefused}
        />
      )}
    </>
  );
}

function MissingAlertView({
  cat,
  alert,
  onReport,
  onDemoRefused,
}: {
  cat: Cat;
  alert: MissingAlert;
  onReport: () => void;
  onDemoRefused: () => void;
}) {
  const caretaker = alert.viewer.isCaretaker;
  const reports = useMissingReports(cat._id, caretaker);
  const renew = useRenewAlert(cat._id);
  const markFound = useMarkFound(cat._id);
  const [failure, setFailure] = useState<string | null>(null);
  const refused = (err: unknown) => (isDemoRefusal(err) ? onDemoRefused() : setFailure(errorMessage(err)));
  const t = useTranslate();
  const language = useLanguage();
  const ends = dateTimeFormat(dateLocale(language), { day: 'numeric', month: 'long' }).format(
    new Date(alert.expiresAt),
  );

  return (
    <section className="cat-page__missing missing-alert" aria-labelledby="missing-alert-title">
      <header className="missing-alert__header">
        <AlertIcon size={24} />
        <h2 id="missing-alert-title" className="missing-alert__title">
          <Message id="missing.alert.title" defaultMessage="{cat} is missing" values={{ cat: cat.name }} />
        </h2>
      </header>
      <p className="missing-alert__when">
        <LastSeenText at={alert.lastSeenAt} />
      </p>
      <p className="missing-alert__where">
        {alert.place.locationPrecision === 'exact' ? (
          <Message
            id="missing.alert.whereExact"
            defaultMessage="The map shows the exact place you gave. Everyone else sees an area of about 500 m around it."
          />
        ) : (
          <Message
            id="missing.alert.whereArea"
            defaultMessage="The map shows the area of about 500 m where {cat} was last seen."
            values={{ cat: cat.name }}
          />
        )}
      </p>
      {alert.note && (
        <blockquote className="missing-alert__note">
          <p>{alert.note}</p>
        </blockquote>
      )}
      <p className="missing-alert__contact">{t(CONTACT_SENTENCES[alert.contact], { name: cat.name })}</p>
      <Suspense fallback={<div className="cat-map cat-map--loading" aria-hidden="true" />}>
        <MissingMap
          catName={cat.name}
          lastSeen={alert.place}
          lastSeenAt={alert.lastSeenAt}
          reports={caretaker ? (reports.data ?? []) : []}
        />
      </Suspense>
      {caretaker && (reports.data?.length ?? 0) > 0 && (
        <p className="missing-alert__legend">
          <Message
            id="missing.alert.legend"
            defaultMessage="Red marks where {cat} was last seen. Purple marks where neighbours saw {cat}."
            values={{ cat: cat.name }}
          />
        </p>
      )}
      <p className="missing-alert__expiry">
        {caretaker ? (
          <Message
            id="missing.alert.endsOwn"
            defaultMessage="The alert ends on {date} unless you renew it."
            values={{ date: ends }}
          />
        ) : (
          <Message
            id="missing.alert.endsOthers"
            defaultMessage="The alert ends on {date} unless the caretakers renew it."
            values={{ date: ends }}
          />
        )}
      </p>
      <div className="missing-alert__actions">
        <Button variant="danger" onClick={onReport}>
          <Message id="missing.alert.sawIt" defaultMessage="I saw this cat" />
        </Button>
        {caretaker && (
          <>
            <Button
              variant="secondary"
              disabled={renew.isPending}
              onClick={() => {
                setFailure(null);
                renew.mutate(undefined, {
                  onSuccess: (data) => showToast({ message: data.message }),
                  onError: refused,
                });
              }}
            >
              <Message id="missing.alert.renew" defaultMessage="Renew alert" />
            </Button>
            <Button
              variant="accent"
              disabled={markFound.isPending}
              onClick={() => {
                setFailure(null);
                markFound.mutate(undefined, {
                  // 'Back home!': the alert is gone from the page with the server's answer.
                  onSuccess: (data) => showToast({ message: data.message }),
                  onError: refused,
                });
              }}
            >
              <Message id="missing.alert.found" defaultMessage="Mark as found" />
            </Button>
          </>
        )}
      </div>
      {failure && (
        <p className="missing-alert__error" role="alert">
          {failure}
        </p>
      )}
      {caretaker && (
        <section className="missing-reports" aria-labelledby="missing-reports-title">
          <h3 id="missing-reports-title" className="missing-reports__title">
            <Message id="missing.reports.title" defaultMessage="Reports from neighbours" />
          </h3>
          {reports.isPending ? (
            <p className="cat-page__status">
              <Message id="missing.reports.loading" defaultMessage="Loading the reports..." />
            </p>
          ) : reports.isError ? (
            <p className="notice notice--error" role="alert">
              <Message
                id="cats.page.error"
                defaultMessage="Error: {reason}"
                values={{ reason: errorMessage(reports.error) }}
              />
            </p>
          ) : (
            <MissingReports catName={cat.name} reports={reports.data} />
          )}
        </section>
      )}
      {!caretaker && alert.raisedBy && (
        <p className="missing-alert__by">
          <Message
            id="missing.alert.raisedBy"
            defaultMessage="The alert was raised by <link>{who}</link>."
            values={{
              who: alert.raisedBy.username,
              link: (chunks) => (
                <Link to={`/profile/${encodeURIComponent(alert.raisedBy?._id ?? '')}`}>{chunks}</Link>
              ),
            }}
          />
        </p>
      )}
    </section>
  );
}
