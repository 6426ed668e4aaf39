import { Link } from 'react-router';
import { MISSING_BANNER_SHOWN, type MissingAlert, type MissingNearResponse } from '@cats/contracts';
import { defineMessage, type MessageDescriptor } from '../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../i18n/message.tsx';
import { CatThumb } from '../cats/cat-thumb.tsx';
import { LastSeenText } from '../cats/last-seen-text.tsx';
import { useMissingNear } from './api/get-missing-near.ts';
import './missing.css';

/** Where the viewer's area comes from, as a whole sentence each. */
const AREA_SENTENCES: Record<NonNullable<MissingNearResponse['area']>, MessageDescriptor> = {
  home: defineMessage({
    id: 'missing.banner.area.home',
    defaultMessage: 'Less than 2 km from your home area.',
  }),
  posts: defineMessage({
    id: 'missing.banner.area.posts',
    defaultMessage: 'Less than 2 km from where you last posted a picture.',
  }),
  near: defineMessage({ id: 'missing.banner.area.near', defaultMessage: 'Less than 2 km from here.' }),
};

/**
 * Issue 26, "Missing cats": missing cats near the viewer at the top of the feed, each linking to its
 * page (photo, name, when it was last seen). Nothing at all while there are none, or while loading.
 */
export function MissingBanner() {
  const query = useMissingNear(MISSING_BANNER_SHOWN);
  const t = useTranslate();
  const alerts = query.data?.alerts ?? [];
  if (alerts.length === 0) return null;
  const area = query.data?.area ?? 'home';
  const shown = alerts.slice(0, MISSING_BANNER_SHOWN);
  const more = (query.data?.total ?? 0) - shown.length;
  return (
    <section className="missing-banner" aria-labelledby="missing-banner-title">
      <h2 id="missing-banner-title" className="visually-hidden">
        <Message id="missing.banner.title" defaultMessage="Missing cats near you" />
      </h2>
      <ul className="missing-banner__list">
        {shown.map((alert) => (
          <li key={alert._id}>
            <MissingBannerItem alert={alert} areaSentence={t(AREA_SENTENCES[area])} />
          </li>
        ))}
      </ul>
      {more > 0 && (
        <p className="missing-banner__more">
          <Message
            id="missing.banner.more"
            defaultMessage="{more, plural, one {One more cat is missing near you: see it on Explore.} other {# more cats are missing near you: see them on Explore.}}"
            values={{ more }}
          />
        </p>
      )}
    </section>
  );
}

function MissingBannerItem({ alert, areaSentence }: { alert: MissingAlert; areaSentence: string }) {
  return (
    <Link className="missing-banner__item" to={`/cats/${encodeURIComponent(alert.cat._id)}`}>
      <CatThumb cover={alert.cat.cover} size={64} />
      <span className="missing-banner__text">
        <Message
          id="missing.banner.cat"
          defaultMessage="<title>Missing: {cat}.</title> {seen} {where}"
          values={{
            cat: alert.cat.name,
            title: (chunks) => <strong className="missing-banner__title">{chunks}</strong>,
            seen: <LastSeenText className="missing-banner__when" at={alert.lastSeenAt} />,
            where: <span className="missing-banner__where">{areaSentence}</span>,
          }}
        />
      </span>
    </Link>
  );
}
