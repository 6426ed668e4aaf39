import { Link } from 'react-router';
import { MISSING_BANNER_SHOWN } from '@cats/contracts';
import { Button, buttonClass } from '../../../components/button.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { InfiniteList } from '../../../components/post/infinite-list.tsx';
import { PostCard } from '../../../components/post/post-card.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { flattenPages } from '../../../components/post/api/post-cache.ts';
import { MissingBanner } from '../../../components/missing/missing-banner.tsx';
import { useMissingNear } from '../../../components/missing/api/get-missing-near.ts';
import { LoadingSkeleton, PostListSkeleton } from '../../../components/skeleton/skeleton.tsx';
import { DESKTOP_QUERY, useMediaQuery } from '../../../lib/use-media-query.ts';
import { useFeed } from '../api/get-feed.ts';
import { FeedSideColumn } from '../components/feed-side-column.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import '../feed.css';

/** Spec section 2, Feed: every visible post, newest first, loading more as the reader scrolls. */
export default function FeedPage() {
  const feed = useFeed();
  // The posts wait for the missing cats above them (both requests start together): a banner arriving
  // after them would push every card down (the feed's layout-shift budget, e2e/budgets.e2e.ts).
  const missing = useMissingNear(MISSING_BANNER_SHOWN);
  const posts = missing.isPending ? [] : flattenPages(feed.data);
  const pending = feed.isPending || missing.isPending;
  // Issue 28: a desktop shows a side column beside the posts (not fetched at all on a phone).
  const desktop = useMediaQuery(DESKTOP_QUERY);
  const t = useTranslate();

  return (
    <div className="feed-layout">
      <div className="feed-page">
        <h1 className="feed-page__title">
          <Message id="feed.page.title" defaultMessage="Feed" />
        </h1>
        {/* Issue 26: missing cats near the reader come before every post, shown with them. */}
        {!pending && <MissingBanner />}
        {pending && (
          <LoadingSkeleton label={t({ id: 'feed.page.loading', defaultMessage: 'Loading cats...' })}>
            <PostListSkeleton count={2} />
          </LoadingSkeleton>
        )}
        {feed.isError && !feed.isFetchNextPageError && (
          <LoadError error={feed.error} onRetry={() => void feed.refetch()} />
        )}
        {feed.data && !pending && posts.length === 0 && (
          <div className="feed-page__empty">
            <p>
              <Message id="feed.page.empty" defaultMessage="No cats in your feed yet." />
            </p>
            <Link to="/spot" className={buttonClass('primary', 'md', 'feed-page__cta')}>
              <Message id="feed.page.snapFirst" defaultMessage="Snap the first cat" />
            </Link>
          </div>
        )}
        {posts.length > 0 && (
          <InfiniteList
            label={t({ id: 'feed.page.posts', defaultMessage: 'Posts' })}
            items={posts}
            getKey={(p) => p._id}
            renderItem={(post, index) => <PostCard post={post} eager={index === 0} />}
            hasNextPage={feed.hasNextPage}
            isFetchingNextPage={feed.isFetchingNextPage}
            fetchNextPage={feed.fetchNextPage}
            endMessage={t({
              id: 'feed.page.end',
              defaultMessage: 'You have seen every cat. Go out and spot a new one!',
            })}
          />
        )}
        {feed.isFetchNextPageError && (
          <p className="feed-page__error" role="alert">
            <Message
              id="feed.page.error"
              defaultMessage="Error: {message}"
              values={{ message: errorMessage(feed.error) }}
            />
          </p>
        )}
        {feed.isFetchNextPageError && (
          <Button className="feed-page__retry" onClick={() => void feed.fetchNextPage()}>
            <Message id="feed.page.retry" defaultMessage="Try again" />
          </Button>
        )}
      </div>
      {desktop && <FeedSideColumn />}
    </div>
  );
}
