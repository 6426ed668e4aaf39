import { Link } from 'react-router';
import type { Post } from '@cats/contracts';
import { Message } from '../../i18n/message.tsx';

/**
 * Issue 27, on the owner's own post: reports have hidden it from everyone else until a moderator reviews
 * it, or a moderator hid its location (which the owner cannot switch back on until the decision is
 * restored). The server sends `moderation` and `locationLocked` to the owner alone, so nobody else ever
 * sees these notices.
 */
export function ModerationNotice({
  post,
  className,
}: {
  post: Pick<Post, 'moderation' | 'locationLocked'>;
  className?: string;
}) {
  const classes = ['moderation-notice', className].filter(Boolean).join(' ');
  return (
    <>
      {post.moderation === 'pending_review' && (
        <p role="status" className={classes}>
          <Message
            id="post.moderation.pending"
            defaultMessage="Hidden from others while moderators review reports about it."
          />
        </p>
      )}
      {post.locationLocked && (
        <p role="status" className={classes}>
          <Message
            id="post.moderation.locationLocked"
            defaultMessage="A moderator hid the location of this picture. <link>Read why or appeal</link>"
            values={{ link: (chunks) => <Link to="/settings/moderation">{chunks}</Link> }}
          />
        </p>
      )}
    </>
  );
}
