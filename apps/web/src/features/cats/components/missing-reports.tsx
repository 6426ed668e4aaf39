import { Link } from 'react-router';
import type { MissingReport } from '@cats/contracts';
import { LastSeenText } from '../../../components/cats/last-seen-text.tsx';
import { PostImage } from '../../../components/post/post-image.tsx';
import { defineMessage } from '../../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';

const SOMEONE = defineMessage({ id: 'missing.reports.someone', defaultMessage: 'Someone' });

/**
 * The answers to a missing cat's alert, for its caretakers (issue 26): newest sighting first, each a
 * whole sentence (who saw the cat, with or without a photo), when, and the reporter's note.
 */
export function MissingReports({ catName, reports }: { catName: string; reports: MissingReport[] }) {
  const t = useTranslate();
  if (reports.length === 0) {
    return (
      <p className="cat-page__status">
        <Message
          id="missing.reports.none"
          defaultMessage="No reports yet. When someone answers 'I saw this cat', it shows here and on the map."
        />
      </p>
    );
  }
  return (
    <ol className="missing-reports__list">
      {reports.map((report) => {
        const who = report.reporter?.username ?? t(SOMEONE);
        return (
          <li key={report._id} className="missing-report" data-report-id={report._id}>
            {report.post && (
              <Link className="missing-report__photo" to={`/posts/${encodeURIComponent(report.post._id)}`}>
                <PostImage
                  image={report.post.image}
                  fallbackSrc={report.post.image.variants['300'] ?? ''}
                  alt={
                    report.post.altText ??
                    t(
                      { id: 'missing.reports.photoAlt', defaultMessage: 'Photo of {cat} by {who}' },
                      { cat: catName, who },
                    )
                  }
                  sizes="72px"
                  aspectRatio="1 / 1"
                />
              </Link>
            )}
            <div className="missing-report__text">
              <p className="missing-report__who">
                {report.kind === 'photo' ? (
                  <Message
                    id="missing.reports.photo"
                    defaultMessage="{who} posted a photo of {cat}."
                    values={{ who, cat: catName }}
                  />
                ) : (
                  <Message
                    id="missing.reports.saw"
                    defaultMessage="{who} saw {cat}."
                    values={{ who, cat: catName }}
                  />
                )}
              </p>
              <p className="missing-report__when">
                <Message
                  id="missing.reports.when"
                  defaultMessage="{seen} {place, select, exact {The exact place is on the map.} approximate {An area of about 500 m is on the map.} other {No place is shown.}}"
                  values={{
                    seen: <LastSeenText at={report.seenAt} kind="one" />,
                    place: report.place?.locationPrecision ?? 'none',
                  }}
                />
              </p>
              {report.note && <p className="missing-report__note">{report.note}</p>}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
