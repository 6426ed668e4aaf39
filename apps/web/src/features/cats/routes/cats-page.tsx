import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { CAT_PROFILE_NAME_MAX, type CatListItem } from '@cats/contracts';
import { CatThumb } from '../../../components/cats/cat-thumb.tsx';
import { LastSeenText } from '../../../components/cats/last-seen-text.tsx';
import { MissingTag } from '../../../components/cats/missing-tag.tsx';
import { Checkbox, SelectField, TextField } from '../../../components/form-field.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { useLastSpot } from '../../../components/location-picker/api/get-last-spot.ts';
import {
  currentPosition,
  GeolocationError,
  type Coordinates,
  type GeolocationFailure,
} from '../../../components/location-picker/geolocation.ts';
import { InfiniteList } from '../../../components/post/infinite-list.tsx';
import { defineMessage, type MessageDescriptor } from '../../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useMyProfile } from '../../../lib/my-profile.ts';
import { useCatsList } from '../api/list-cats.ts';
import '../../../components/cats/cats.css';
import '../cats.css';

/** Typing pauses this long before the list asks the server again. */
const SEARCH_DELAY_MS = 250;

/** Where the list is measured from, or none (then the most recently seen come first). */
type Order = 'home' | 'spot' | 'here' | 'recent';

const ORDER_LABELS: Record<Order, MessageDescriptor> = {
  home: defineMessage({ id: 'cats.list.order.home', defaultMessage: 'Nearest to my home area' }),
  spot: defineMessage({ id: 'cats.list.order.spot', defaultMessage: 'Nearest to my last picture' }),
  here: defineMessage({ id: 'cats.list.order.here', defaultMessage: 'Nearest to where I am' }),
  recent: defineMessage({ id: 'cats.list.order.recent', defaultMessage: 'Most recently seen' }),
};

const GEOLOCATION_FAILURES: Record<GeolocationFailure, MessageDescriptor> = {
  denied: defineMessage({
    id: 'cats.list.here.denied',
    defaultMessage:
      'Location access is off for this site. Allow it in your browser to see the cats near you.',
  }),
  unavailable: defineMessage({
    id: 'cats.list.here.unavailable',
    defaultMessage: 'Your location could not be found. Try again, or choose another order.',
  }),
  timeout: defineMessage({
    id: 'cats.list.here.timeout',
    defaultMessage: 'Finding your location took too long. Try again, or choose another order.',
  }),
  unsupported: defineMessage({
    id: 'cats.list.here.unsupported',
    defaultMessage: 'This browser cannot tell where you are. Choose another order.',
  }),
};

/**
 * /cats: the neighbourhood's cats, to browse and search by name. Nearest first to the member's home
 * area (Settings), else to their newest located picture, or to where they are when they ask; the most
 * recently seen first without any of those. Nearness is the server's (GET /api/cats?near=): measured
 * from where the viewer may see each cat, never closer than its sighting's own post shows them.
 */
export default function CatsPage() {
  const t = useTranslate();
  const profile = useMyProfile();
  const lastSpot = useLastSpot(true);
  const homeArea = profile.data?.homeArea ?? null;
  const spot = lastSpot.data ?? null;
  const [chosen, setChosen] = useState<Order | null>(null);
  const [here, setHere] = useState<Coordinates | null>(null);
  const [locating, setLocating] = useState(false);
  const [locateFailure, setLocateFailure] = useState<GeolocationFailure | null>(null);
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [caredFor, setCaredFor] = useState(false);

  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);

  // The first order is decided once the member's places are known (a failed read leaves that place out).
  const placesKnown = !profile.isPending && !lastSpot.isPending;
  const available: Order[] = [
    ...(homeArea ? (['home'] as const) : []),
    ...(spot ? (['spot'] as const) : []),
    'here',
    'recent',
  ];
  const fallback: Order = homeArea ? 'home' : spot ? 'spot' : 'recent';
  const order: Order = chosen && available.includes(chosen) ? chosen : fallback;
  const near = order === 'home' ? homeArea : order === 'spot' ? spot : order === 'here' ? here : null;
  // 'Where I am' lists nothing until the browser has said where that is.
  const ready = placesKnown && (order !== 'here' || here !== null);

  const list = useCatsList({ q, near, caredFor }, ready);

  const locate = async () => {
    setLocating(true);
    setLocateFailure(null);
    try {
      const position = await currentPosition();
      setHere({ latitude: position.latitude, longitude: position.longitude });
    } catch (err) {
      setLocateFailure(err instanceof GeolocationError ? err.reason : 'unavailable');
    } finally {
      setLocating(false);
    }
  };

  const choose = (next: Order) => {
    setChosen(next);
    if (next === 'here' && !here && !locating) void locate();
  };

  const cats = list.data?.pages.flatMap((page) => page.cats) ?? [];

  return (
    <div className="page cats-page">
      <title>
        {t({ id: 'cats.list.documentTitle', defaultMessage: 'Neighbourhood cats · Neighbourhood Cats' })}
      </title>
      <h1>
        <Message id="cats.list.title" defaultMessage="Neighbourhood cats" />
      </h1>
      <p className="cats-page__intro">
        <Message
          id="cats.list.intro"
          defaultMessage="Every cat someone has given a profile. Open one to see where and when it was seen."
        />
      </p>
      <div className="cats-page__filters">
        <TextField
          label={t({ id: 'cats.list.search', defaultMessage: 'Search by name' })}
          type="search"
          autoComplete="off"
          maxLength={CAT_PROFILE_NAME_MAX}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <SelectField
          label={<Message id="cats.list.order" defaultMessage="Order" />}
          value={order}
          options={available}
          labels={ORDER_LABELS}
          onChange={choose}
          disabled={!placesKnown}
        />
        <Checkbox
          className="cats-page__cared-for"
          label={t({ id: 'cats.list.caredFor', defaultMessage: 'Only cats I care for' })}
          checked={caredFor}
          onChange={(e) => setCaredFor(e.target.checked)}
        />
      </div>

      {order === 'here' && locating && (
        <p className="cats-page__status" role="status">
          <Message id="cats.list.here.locating" defaultMessage="Finding where you are..." />
        </p>
      )}
      {order === 'here' && locateFailure && !locating && (
        <div className="notice notice--error cats-page__locate-failure" role="alert">
          <p>{t(GEOLOCATION_FAILURES[locateFailure])}</p>
          {locateFailure !== 'unsupported' && (
            <button type="button" className="cats-page__retry" onClick={() => void locate()}>
              <Message id="cats.list.here.retry" defaultMessage="Try again" />
            </button>
          )}
        </div>
      )}

      <CatsListBody ready={ready} list={list} cats={cats} q={q} caredFor={caredFor} />
    </div>
  );
}

function CatsListBody({
  ready,
  list,
  cats,
  q,
  caredFor,
}: {
  ready: boolean;
  list: ReturnType<typeof useCatsList>;
  cats: CatListItem[];
  q: string;
  caredFor: boolean;
}) {
  const t = useTranslate();
  if (!ready) return null;
  if (list.isError && cats.length === 0) {
    return <LoadError error={list.error} onRetry={() => void list.refetch()} />;
  }
  if (list.isPending) {
    return (
      <p className="cats-page__status" role="status">
        <Message id="cats.list.loading" defaultMessage="Looking for cats..." />
      </p>
    );
  }
  if (cats.length === 0) {
    return (
      <p className="cats-page__empty" role="status">
        {q ? (
          <Message id="cats.list.noMatch" defaultMessage="No cat’s name contains “{q}”." values={{ q }} />
        ) : caredFor ? (
          <Message
            id="cats.list.noneCaredFor"
            defaultMessage="You don't care for any cat yet. Whoever created a cat's profile can add you as a caretaker."
          />
        ) : (
          <Message
            id="cats.list.none"
            defaultMessage="No cats yet. When you share a picture, say which cat it shows, and the cat will be listed here."
          />
        )}
      </p>
    );
  }
  return (
    <div aria-busy={list.isFetching}>
      <InfiniteList
        items={cats}
        getKey={(cat) => cat._id}
        className="cats-page__list"
        label={t({ id: 'cats.list.label', defaultMessage: 'Cats' })}
        hasNextPage={list.hasNextPage}
        isFetchingNextPage={list.isFetchingNextPage}
        fetchNextPage={list.fetchNextPage}
        loadingMessage={t({ id: 'cats.list.loadingMore', defaultMessage: 'Loading more cats...' })}
        endMessage={t({ id: 'cats.list.end', defaultMessage: "That's every cat." })}
        renderItem={(cat) => (
          <Link className="cats-page__cat" to={`/cats/${encodeURIComponent(cat._id)}`}>
            <CatThumb cover={cat.cover} size={64} />
            <span className="cats-page__cat-text">
              <span>
                <span className="cats-page__name">{cat.name}</span>
                {cat.missing && <MissingTag />}
              </span>
              <LastSeenText at={cat.lastSeenAt} className="cats-page__seen" />
            </span>
          </Link>
        )}
      />
    </div>
  );
}
