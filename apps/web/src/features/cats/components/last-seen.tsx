import { Link } from 'react-router';
import type { Cat } from '@cats/contracts';
import { LastSeenText } from '../../../components/cats/last-seen-text.tsx';

/**
 * 'Last seen 3 h ago.', where (only as precisely as that sighting's post shows it to this viewer; the
 * map below marks it), and how often this week.
 */
export function LastSeen({ cat }: { cat: Cat }) {
  const seen = cat.lastSeen;
  const week = cat.sightingsThisWeek;
  return (
    <div className="cat-last-seen">
      <p className="cat-last-seen__when">
        <LastSeenText at={seen?.at ?? null} />
      </p>
      {seen && (
        <p className="cat-last-seen__where">
          {seen.locationPrecision === 'exact'
            ? 'The spot is marked in orange on the map.'
            : seen.locationPrecision === 'approximate'
              ? 'The area is marked in orange on the map, to about 500 m.'
              : 'Where is not shown.'}{' '}
          <Link to={`/posts/${encodeURIComponent(seen.postId)}`}>See that sighting</Link>
        </p>
      )}
      <p className="cat-last-seen__week">
        {week === 0
          ? 'Not seen this week.'
          : week === 1
            ? 'Seen once this week.'
            : `Seen ${week} times this week.`}
      </p>
    </div>
  );
}
