import { Link } from 'react-router';
import type { Post } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { LastSeenText } from '../../../components/cats/last-seen-text.tsx';
import { InfiniteList } from '../../../components/post/infinite-list.tsx';
import { PostImage } from '../../../components/post/post-image.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { flattenPages } from '../../../components/post/api/post-cache.ts';
import { imageAlt } from '../../../components/post/post-alt.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useCatSightings } from '../api/get-cat-sightings.ts';

/** Every sighting the viewer may see, newest first, with infinite scroll: photo, who, when, where. */
export function SightingsTimeline({ catId }: { catId: string }) {
  const sightings = useCatSightings(catId);
  const items = flattenPages(sightings.data);
  const t = useTranslate();

  if (sightings.isPending) {
    return (
      <p className="cat-page__status" role="status">
        <Message id="cats.edit.loadingSightings" defaultMessage="Loading sightings..." />
      </p>
    );
  }
  // A later page that fails keeps the pages shown (with 'Try again' below); only a first page's failure shows here.
  if (!sightings.data) {
    return (
      <p className="notice notice--error" role="alert">
        <Message
          id="cats.page.error"
          defaultMessage="Error: {reason}"
          values={{ reason: errorMessage(sightings.error) }}
        />
      </p>
    );
  }
  if (items.length === 0) {
    return (
      <p className="cat-page__status">
        <Message id="cats.sightings.none" defaultMessage="No sightings you can see yet." />
      </p>
    );
  }
  return (
    <>
      <InfiniteList
        label={t({ id: 'cats.page.sightingsTitle', defaultMessage: 'Sightings' })}
        className="cat-sightings"
        items={items}
        getKey={(p) => p._id}
        renderItem={(post) => <Sighting post={post} />}
        hasNextPage={sightings.hasNextPage}
        isFetchingNextPage={sightings.isFetchingNextPage}
        fetchNextPage={sightings.fetchNextPage}
        loadingMessage={t({ id: 'cats.sightings.loadingMore', defaultMessage: 'Loading more sightings...' })}
        endMessage={t({ id: 'cats.sightings.end', defaultMessage: 'That is every sighting you can see.' })}
      />
      {sightings.isFetchNextPageError && (
        <Button variant="secondary" onClick={() => void sightings.fetchNextPage()}>
          <Message id="cats.sightings.retry" defaultMessage="Try again" />
        </Button>
      )}
    </>
  );
}

function Sighting({ post }: { post: Post }) {
  const href = `/posts/${encodeURIComponent(post._id)}`;
  const t = useTranslate();
  return (
    <article
      className="cat-sighting"
      aria-label={t(
        { id: 'cats.sightings.label', defaultMessage: 'Sighting by {who}' },
        { who: post.user.username },
      )}
    >
      <Link to={href} className="cat-sighting__photo" tabIndex={-1} aria-hidden="true">
        <PostImage
          image={post.image}
          fallbackSrc={post.imageUrl}
          alt={imageAlt(post)}
          sizes="96px"
          aspectRatio="1 / 1"
        />
      </Link>
      <div className="cat-sighting__text">
        <p className="cat-sighting__who">
          <Message
            id="cats.sightings.by"
            defaultMessage="Spotted by <link>{who}</link>"
            values={{
              who: post.user.username,
              link: (chunks) => <Link to={`/profile/${encodeURIComponent(post.user._id)}`}>{chunks}</Link>,
            }}
          />
        </p>
        <p className="cat-sighting__when">
          <Link to={href} className="cat-sighting__open">
            <Message
              id="cats.sightings.open"
              defaultMessage="{seen}<hidden> (open this sighting)</hidden>"
              values={{
                seen: <LastSeenText at={post.createdAt} kind="one" />,
                hidden: (chunks) => <span className="visually-hidden">{chunks}</span>,
              }}
            />
          </Link>
        </p>
        <p className="cat-sighting__where">
          <Message
            id="cats.sightings.where"
            defaultMessage="{place, select, exact {Exact spot on the map.} approximate {Area of about 500 m on the map.} other {No place shown.}}"
            values={{
              place:
                post.latitude === null
                  ? 'none'
                  : post.locationPrecision === 'exact'
                    ? 'exact'
                    : 'approximate',
            }}
          />
        </p>
        {post.caption && <p className="cat-sighting__caption">{post.caption}</p>}
      </div>
    </article>
  );
}
