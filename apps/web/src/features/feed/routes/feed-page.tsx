import { Link } from 'react-router';
import { Button, buttonClass } from '../../../components/button.tsx';
import { InfiniteList } from '../../../components/post/infinite-list.tsx';
import { PostCard } from '../../../components/post/post-card.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { flattenPages } from '../../../components/post/api/post-cache.ts';
import { useFeed } from '../api/get-feed.ts';
import '../feed.css';

/** Spec section 2, Feed: every visible post, newest first, loading more as the reader scrolls. */
export default function FeedPage() {
  const feed = useFeed();
  const posts = flattenPages(feed.data);

  return (
    <div className="feed-page">
      <h1 className="feed-page__title">Feed</h1>
      {feed.isPending && (
        <p className="feed-page__status" role="status">
          Loading cats...
        </p>
      )}
      {feed.isError && !feed.isFetchNextPageError && (
        <p className="feed-page__error" role="alert">
          Error: {errorMessage(feed.error)}
        </p>
      )}
      {!feed.isPending && !feed.data && <p className="feed-page__status">Can&apos;t connect to server</p>}
      {feed.data && posts.length === 0 && (
        <div className="feed-page__empty">
          <p>No cats in your feed yet.</p>
          <Link to="/spot" className={buttonClass('primary', 'md', 'feed-page__cta')}>
            Snap the first cat
          </Link>
        </div>
      )}
      {posts.length > 0 && (
        <InfiniteList
          label="Posts"
          items={posts}
          getKey={(p) => p._id}
          renderItem={(post, index) => <PostCard post={post} eager={index === 0} />}
          hasNextPage={feed.hasNextPage}
          isFetchingNextPage={feed.isFetchingNextPage}
          fetchNextPage={feed.fetchNextPage}
          endMessage="You have seen every cat. Go out and spot a new one!"
        />
      )}
      {feed.isFetchNextPageError && (
        <p className="feed-page__error" role="alert">
          Error: {errorMessage(feed.error)}
        </p>
      )}
      {feed.isFetchNextPageError && (
        <Button className="feed-page__retry" onClick={() => void feed.fetchNextPage()}>
          Try again
        </Button>
      )}
    </div>
  );
}
