import type { Post } from '@cats/contracts';

/**
 * Issue 27: the owner's own post that reports have hidden from everyone else until a moderator reviews
 * it. The server sends `moderation` to the owner alone, so nobody else ever sees this notice.
 */
export function ModerationNotice({
  post,
  className,
}: {
  post: Pick<Post, 'moderation'>;
  className?: string;
}) {
  if (post.moderation !== 'pending_review') return null;
  return (
    <p role="status" className={['moderation-notice', className].filter(Boolean).join(' ')}>
      Hidden from others while moderators review reports about it.
    </p>
  );
}
