import { Link } from 'react-router';
import { Avatar } from '../avatar.tsx';
import { Button } from '../button.tsx';
import { Modal } from '../modal.tsx';
import { errorMessage } from './api/errors.ts';
import { useLikers } from './api/get-likers.ts';
import { Message, useTranslate } from '../../i18n/message.tsx';

/**
 * Issue 24, 'Liked by': who liked a post, newest like first, 20 at a time. The server leaves out the
 * users the viewer shares a block with; each name leads to the profile.
 */
export function LikedByDialog({ postId, onClose }: { postId: string; onClose: () => void }) {
  const likers = useLikers(postId);
  const users = likers.data?.pages.flatMap((p) => p.users);
  const t = useTranslate();
  return (
    <Modal
      title={t({ id: 'post.likedBy.title', defaultMessage: 'Liked by' })}
      onClose={onClose}
      className="liked-by"
      actions={
        <Button variant="secondary" onClick={onClose}>
          <Message id="post.likedBy.close" defaultMessage="Close" />
        </Button>
      }
    >
      {likers.isPending && (
        <p className="liked-by__status">
          <Message id="post.likedBy.loading" defaultMessage="Loading..." />
        </p>
      )}
      {likers.isError && !users && (
        <p className="liked-by__status">
          <Message
            id="post.likedBy.error"
            defaultMessage="Error: {message}"
            values={{ message: errorMessage(likers.error) }}
          />
        </p>
      )}
      {users && users.length === 0 && (
        <p className="liked-by__status">
          <Message id="post.likedBy.empty" defaultMessage="No likes yet." />
        </p>
      )}
      {users && users.length > 0 && (
        <ul className="liked-by__list">
          {users.map((user) => (
            <li key={user._id}>
              <Link to={`/profile/${user._id}`} className="liked-by__user" onClick={onClose}>
                <Avatar src={user.avatarUrl ?? user.profilePicUrl} size={36} />
                <span className="liked-by__name">{user.username}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {likers.hasNextPage && (
        <Button
          variant="ghost"
          className="liked-by__more"
          disabled={likers.isFetchingNextPage}
          onClick={() => void likers.fetchNextPage()}
        >
          {likers.isFetchingNextPage
            ? t({ id: 'post.likedBy.loading', defaultMessage: 'Loading...' })
            : t({ id: 'post.likedBy.more', defaultMessage: 'Show more' })}
        </Button>
      )}
    </Modal>
  );
}
