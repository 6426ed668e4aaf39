import { Link } from 'react-router';
import type { MissingReport } from '@cats/contracts';
import { LastSeenText } from '../../../components/cats/last-seen-text.tsx';
import { PostImage } from '../../../components/post/post-image.tsx';

const SOMEONE = 'Someone';

/**
 * The answers to a missing cat's alert, for its caretakers (issue 26): newest sighting first, each a
 * whole sentence (who saw the cat, with or without a photo), when, and the reporter's note.
 */
export function MissingReports({ catName, reports }: { catName: string; reports: MissingReport[] }) {
  if (reports.length === 0) {
    return (
      <p className="cat-page__status">
        No reports yet. When someone answers &apos;I saw this cat&apos;, it shows here and on the map.
      </p>
    );
  }
  return (
    <ol className="missing-reports__list">
      {reports.map((report) => {
        const who = report.reporter?.username ?? SOMEONE;
        return (
          <li key={report._id} className="missing-report" data-report-id={report._id}>
            {report.post && (
              <Link className="missing-report__photo" to={`/posts/${encodeURIComponent(report.post._id)}`}>
                <PostImage
                  image={report.post.image}
                  fallbackSrc={report.post.image.variants['300'] ?? ''}
                  alt={report.post.altText ?? `Photo of ${catName} by ${who}`}
                  sizes="72px"
                  aspectRatio="1 / 1"
                />
              </Link>
            )}
            <div className="missing-report__text">
              <p className="missing-report__who">
                {report.kind === 'photo' ? `${who} posted a photo of ${catName}.` : `${who} saw ${catName}.`}
              </p>
              <p className="missing-report__when">
                <LastSeenText at={report.seenAt} kind="one" />{' '}
                {report.place === null
                  ? 'No place is shown.'
                  : report.place.locationPrecision === 'exact'
                    ? 'The exact place is on the map.'
                    : 'An area of about 500 m is on the map.'}
              </p>
              {report.note && <p className="missing-report__note">{report.note}</p>}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
