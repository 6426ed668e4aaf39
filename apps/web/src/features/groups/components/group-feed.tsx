import { InfiniteList } from '../../../components/post/infinite-list.tsx';
import { PostCard } from '../../../components/post/post-card.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { flattenPages } from '../../../components/post/api/post-cache.ts';
import { useGroupPosts } from '../api/get-group-posts.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';

/** The pictures shared with the group, newest first, loading more as the reader scrolls. */
export function GroupFeed({ groupId }: { groupId: string }) {
  const feed = useGroupPosts(groupId);
  const t = useTranslate();
  const posts = flattenPages(feed.data);
  if (feed.isPending) {
    return (
      <p className="loading-text" role="status">
        <Message id="groups.feed.loading" defaultMessage="Loading the group's pictures..." />
      </p>
    );
  }
  if (feed.isError && !feed.data) {
    return (
      <p className="notice notice--error" role="alert">
        <Message
          id="groups.error.message"
          defaultMessage="Error: {message}"
          values={{ message: errorMessage(feed.error) }}
        />
      </p>
    );
  }
  if (posts.length === 0) return <EmptyPictures />;
  return (
    <>
      <InfiniteList
        label={t({ id: 'groups.feed.label', defaultMessage: 'Pictures shared with the group' })}
        className="groups-feed"
        items={posts}
        getKey={(p) => p._id}
        renderItem={(post, index) => (
          <PostCard post={post} eager={index === 0} imageSizes="(min-width: 1000px) 640px, 100vw" />
        )}
        hasNextPage={feed.hasNextPage}
        isFetchingNextPage={feed.isFetchingNextPage}
        fetchNextPage={feed.fetchNextPage}
        endMessage={t({
          id: 'groups.feed.end',
          defaultMessage: 'That is every picture shared with this group.',
        })}
      />
      {feed.isFetchNextPageError && (
        <p className="notice notice--error" role="alert">
          <Message
            id="groups.error.message"
            defaultMessage="Error: {message}"
            values={{ message: errorMessage(feed.error) }}
          />
        </p>
      )}
    </>
  );
}

export function EmptyPictures() {
  return (
    <div className="groups-empty">
      <p>
        <Message id="groups.feed.empty" defaultMessage="No pictures shared with this group yet." />
      </p>
      <p className="muted">
        <Message
          id="groups.feed.emptyHint"
          defaultMessage="Tick the group when you spot a cat, or share one of your pictures from your profile."
        />
      </p>
    </div>
  );
}
