import { Button } from '../../../components/button.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { InfiniteList } from '../../../components/post/infinite-list.tsx';
import { PostCard } from '../../../components/post/post-card.tsx';
import { PostGroupShare } from '../../../components/groups/post-group-share.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { flattenPages } from '../../../components/post/api/post-cache.ts';
import { useUserPosts } from '../api/get-user-posts.ts';
import { LoadingSkeleton, PostListSkeleton } from '../../../components/skeleton/skeleton.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';

interface ProfilePostsProps {
  userId: string;
  own: boolean;
  /** The comments toggle, as on the feed's cards (another user's profile, issue 28). */
  showComments?: boolean;
  emptyText: string;
}

/**
 * A profile's pictures with like (and, on one's own profile, the location toggle; on another's, the
 * comments), infinite scroll.
 */
export function ProfilePosts({ userId, own, showComments = false, emptyText }: ProfilePostsProps) {
  const posts = useUserPosts(userId);
  const items = flattenPages(posts.data);
  const t = useTranslate();
  return (
    <>
      {posts.isPending && (
        <LoadingSkeleton label={t({ id: 'profiles.posts.loading', defaultMessage: 'Loading pictures...' })}>
          <PostListSkeleton count={2} />
        </LoadingSkeleton>
      )}
      {posts.isError && !posts.isFetchNextPageError && (
        <LoadError error={posts.error} onRetry={() => void posts.refetch()} />
      )}
      {posts.data && items.length === 0 && <p className="profile-page__status">{emptyText}</p>}
      {items.length > 0 && (
        <InfiniteList
          label={t({ id: 'profiles.posts.label', defaultMessage: 'Pictures' })}
          className="profile-page__posts"
          items={items}
          getKey={(p) => p._id}
          renderItem={(post) => (
            <PostCard
              post={post}
              showAuthor={false}
              showComments={showComments}
              showLocationToggle={own}
              imageSizes="(min-width: 641px) 310px, 100vw"
              ownerActions={own ? <PostGroupShare post={post} /> : undefined}
            />
          )}
          hasNextPage={posts.hasNextPage}
          isFetchingNextPage={posts.isFetchingNextPage}
          fetchNextPage={posts.fetchNextPage}
        />
      )}
      {posts.isFetchNextPageError && (
        <p className="profile-page__error" role="alert">
          <Message
            id="profiles.posts.error"
            defaultMessage="Error: {message}"
            values={{ message: errorMessage(posts.error) }}
          />
        </p>
      )}
      {posts.isFetchNextPageError && (
        <Button className="profile-page__retry" onClick={() => void posts.fetchNextPage()}>
          <Message id="profiles.posts.retry" defaultMessage="Try again" />
        </Button>
      )}
    </>
  );
}
