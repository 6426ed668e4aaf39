import { Link } from 'react-router';
import type { Cat } from '@cats/contracts';
import { LastSeenText } from '../../../components/cats/last-seen-text.tsx';
import { Message } from '../../../i18n/message.tsx';

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
          <Message
            id="cats.lastSeen.where"
            defaultMessage="{precision, select, exact {The spot is marked in orange on the map.} approximate {The area is marked in orange on the map, to about 500 m.} other {Where is not shown.}} <link>See that sighting</link>"
            values={{
              precision: seen.locationPrecision ?? 'hidden',
              link: (chunks) => <Link to={`/posts/${encodeURIComponent(seen.postId)}`}>{chunks}</Link>,
            }}
          />
        </p>
      )}
      <p className="cat-last-seen__week">
        <Message
          id="cats.lastSeen.week"
          defaultMessage="{week, plural, =0 {Not seen this week.} one {Seen once this week.} other {Seen # times this week.}}"
          values={{ week }}
        />
      </p>
    </div>
  );
}
