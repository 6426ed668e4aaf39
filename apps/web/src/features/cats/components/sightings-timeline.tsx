import { Link } from 'react-router';
import type { Post } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { LastSeenText } from '../../../components/cats/last-seen-text.tsx';
import { InfiniteList } from '../../../components/post/infinite-list.tsx';
import { PostImage } from '../../../components/post/post-image.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { flattenPages } from '../../../components/post/api/post-cache.ts';
import { imageAlt } from '../../../components/post/post-alt.ts';
import { useCatSightings } from '../api/get-cat-sightings.ts';

/** Every sighting the viewer may see, newest first, with infinite scroll: photo, who, when, where. */
export function SightingsTimeline({ catId }: { catId: string }) {
  const sightings = useCatSightings(catId);
  const items = flattenPages(sightings.data);

  if (sightings.isPending) {
    return (
      <p className="cat-page__status" role="status">
        Loading sightings...
      </p>
    );
  }
  // A later page that fails keeps the pages shown (with 'Try again' below); only a first page's failure shows here.
  if (!sightings.data) {
    return (
      <p className="notice notice--error" role="alert">
        Error: {errorMessage(sightings.error)}
      </p>
    );
  }
  if (items.length === 0) return <p className="cat-page__status">No sightings you can see yet.</p>;
  return (
    <>
      <InfiniteList
        label="Sightings"
        className="cat-sightings"
        items={items}
        getKey={(p) => p._id}
        renderItem={(post) => <Sighting post={post} />}
        hasNextPage={sightings.hasNextPage}
        isFetchingNextPage={sightings.isFetchingNextPage}
        fetchNextPage={sightings.fetchNextPage}
        loadingMessage="Loading more sightings..."
        endMessage="That is every sighting you can see."
      />
      {sightings.isFetchNextPageError && (
        <Button variant="secondary" onClick={() => void sightings.fetchNextPage()}>
          Try again
        </Button>
      )}
    </>
  );
}

function Sighting({ post }: { post: Post }) {
  const href = `/posts/${encodeURIComponent(post._id)}`;
  return (
    <article className="cat-sighting" aria-label={`Sighting by ${post.user.username}`}>
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
          Spotted by <Link to={`/profile/${encodeURIComponent(post.user._id)}`}>{post.user.username}</Link>
        </p>
        <p className="cat-sighting__when">
          <Link to={href} className="cat-sighting__open">
            <LastSeenText at={post.createdAt} kind="one" />
            <span className="visually-hidden"> (open this sighting)</span>
          </Link>
        </p>
        <p className="cat-sighting__where">
          {post.latitude === null
            ? 'No place shown.'
            : post.locationPrecision === 'exact'
              ? 'Exact spot on the map.'
              : 'Area of about 500 m on the map.'}
        </p>
        {post.caption && <p className="cat-sighting__caption">{post.caption}</p>}
      </div>
    </article>
  );
}
