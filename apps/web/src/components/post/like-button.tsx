import { useState } from 'react';
import type { Post } from '@cats/contracts';
import { useAuth } from '../../lib/auth-store.ts';
import { useLikePost } from './api/like-post.ts';
import { LikedByDialog } from './liked-by-dialog.tsx';
import { useTranslate } from '../../i18n/message.tsx';

/**
 * Spec: greatCat holds the ids of users who liked the post; the count shown is its length. The heart
 * toggles the viewer's like; the count opens the 'Liked by' list (issue 24).
 */
export function LikeButton({ post }: { post: Post }) {
  const { userId } = useAuth();
  const like = useLikePost(post);
  const [likersOpen, setLikersOpen] = useState(false);
  const t = useTranslate();
  const liked = userId !== null && post.greatCat.includes(userId);
  const count = post.greatCat.length;
  return (
    <span className="post-like-group">
      <button
        type="button"
        className="post-like"
        aria-pressed={liked}
        aria-label={t(
          { id: 'post.like.button', defaultMessage: 'Like, {count, plural, one {# like} other {# likes}}' },
          { count },
        )}
        onClick={() => like.mutate()}
      >
        <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" className="post-like__icon">
          <path d="M12 21s-7.5-4.6-9.6-9.2C.9 8.4 3 4.5 6.7 4.5c2.1 0 3.6 1.1 4.3 2.4h2c.7-1.3 2.2-2.4 4.3-2.4 3.7 0 5.8 3.9 4.3 7.3C19.5 16.4 12 21 12 21z" />
        </svg>
      </button>
      <button
        type="button"
        className="post-like__count"
        aria-haspopup="dialog"
        aria-label={t(
          {
            id: 'post.like.likers',
            defaultMessage: 'See who liked: {count, plural, one {# person} other {# people}}',
          },
          { count },
        )}
        disabled={count === 0}
        onClick={() => setLikersOpen(true)}
      >
        {count}
      </button>
      {likersOpen && <LikedByDialog postId={post._id} onClose={() => setLikersOpen(false)} />}
    </span>
  );
}
