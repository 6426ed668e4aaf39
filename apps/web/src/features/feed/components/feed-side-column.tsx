import { Link } from 'react-router';
import { MISSING_BANNER_SHOWN, type GroupSummary } from '@cats/contracts';
import { CatThumb } from '../../../components/cats/cat-thumb.tsx';
import { LastSeenText } from '../../../components/cats/last-seen-text.tsx';
import { useMyGroups } from '../../../components/groups/api/get-my-groups.ts';
import { useMissingNear } from '../../../components/missing/api/get-missing-near.ts';
import { Bone, LoadingSkeleton } from '../../../components/skeleton/skeleton.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';

/**
 * Issue 28: on a desktop the feed has a side column: the reader's groups, and the missing cats near
 * them (the banner's own request, so no second one).
 */
export function FeedSideColumn() {
  const t = useTranslate();
  return (
    <aside
      className="feed-side"
      aria-label={t({ id: 'feed.side.label', defaultMessage: 'Your groups and missing cats' })}
    >
      <YourGroups />
      <MissingNearby />
    </aside>
  );
}

function YourGroups() {
  const groups = useMyGroups();
  const t = useTranslate();
  const all: GroupSummary[] = groups.data ? [...groups.data.ownedGroups, ...groups.data.memberGroups] : [];
  return (
    <section className="feed-side__section" aria-labelledby="feed-side-groups">
      <h2 id="feed-side-groups" className="feed-side__title">
        <Message id="feed.side.groups" defaultMessage="Your groups" />
      </h2>
      {groups.isPending && (
        <LoadingSkeleton
          label={t({ id: 'feed.side.groupsLoading', defaultMessage: 'Loading your groups...' })}
        >
          <div className="feed-side__bones">
            <Bone width="70%" height={16} />
            <Bone width="55%" height={16} />
            <Bone width="62%" height={16} />
          </div>
        </LoadingSkeleton>
      )}
      {groups.isError && (
        <p className="feed-side__note">
          <Message id="feed.side.groupsError" defaultMessage="Your groups could not be loaded." />
        </p>
      )}
      {groups.data && all.length === 0 && (
        <p className="feed-side__note">
          <Message id="feed.side.noGroups" defaultMessage="You are not in any group yet." />
        </p>
      )}
      {all.length > 0 && (
        <ul className="feed-side__list">
          {all.map((group) => (
            <li key={group._id}>
              <Link className="feed-side__group" to={`/groups/${encodeURIComponent(group._id)}`}>
                <span className="feed-side__initial" aria-hidden="true">
                  {group.groupName.trim().charAt(0).toUpperCase()}
                </span>
                <span className="feed-side__group-name">{group.groupName}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {groups.data && (
        <Link className="feed-side__more" to="/groups">
          {all.length === 0 ? (
            <Message id="feed.side.joinGroup" defaultMessage="Join or start a group" />
          ) : (
            <Message id="feed.side.allGroups" defaultMessage="See all groups" />
          )}
        </Link>
      )}
    </section>
  );
}

function MissingNearby() {
  const missing = useMissingNear(MISSING_BANNER_SHOWN);
  const alerts = missing.data?.alerts ?? [];
  const t = useTranslate();
  return (
    <section className="feed-side__section" aria-labelledby="feed-side-missing">
      <h2 id="feed-side-missing" className="feed-side__title">
        <Message id="feed.side.missing" defaultMessage="Missing in your area" />
      </h2>
      {missing.isPending ? (
        <LoadingSkeleton
          label={t({
            id: 'feed.side.missingLoading',
            defaultMessage: 'Loading the missing cats near you...',
          })}
        >
          <div className="feed-side__bones">
            <Bone width="80%" height={16} />
            <Bone width="60%" height={16} />
          </div>
        </LoadingSkeleton>
      ) : alerts.length === 0 ? (
        <p className="feed-side__note">
          <Message id="feed.side.noMissing" defaultMessage="No cat is missing near you. Good news!" />
        </p>
      ) : (
        <ul className="feed-side__list">
          {alerts.map((alert) => (
            <li key={alert._id}>
              <Link className="feed-side__cat" to={`/cats/${encodeURIComponent(alert.cat._id)}`}>
                <CatThumb cover={alert.cat.cover} size={40} />
                <span className="feed-side__cat-text">
                  <span className="feed-side__cat-name">{alert.cat.name}</span>
                  <LastSeenText className="feed-side__when" at={alert.lastSeenAt} />
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {alerts.length > 0 && (
        <Link className="feed-side__more" to="/explore">
          <Message id="feed.side.seeMap" defaultMessage="See them on the map" />
        </Link>
      )}
    </section>
  );
}
