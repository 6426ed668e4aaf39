import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Post } from '@cats/contracts';
import { useAuth } from '../../lib/auth-store.ts';
import { Avatar } from '../avatar.tsx';
import { CatName } from '../cats/cat-name.tsx';
import { RelativeTime } from '../relative-time.tsx';
import { AltTextBadge } from './alt-text-badge.tsx';
import { CommentsPanel } from './comments-panel.tsx';
import { EditedMark } from './edited-mark.tsx';
import { LikeButton } from './like-button.tsx';
import { LocationToggle } from './location-toggle.tsx';
import { ModerationNotice } from './moderation-notice.tsx';
import { FullSizeImage } from './full-size-image.tsx';
import { PostImage } from './post-image.tsx';
import { OwnPostMenu } from './own-post-menu.tsx';
import { PostMenu } from './post-menu.tsx';
import { imageAlt, postLabel } from './post-alt.ts';
import { Message, useTranslate } from '../../i18n/message.tsx';
import './post.css';

interface PostCardProps {
  post: Post;
  /** Hide the author header (on a profile page, where the author is the page). */
  showAuthor?: boolean;
  /** Offer the comments toggle (feed, map detail). */
  showComments?: boolean;
  /** Own profile only (spec section 6): the location switch. */
  showLocationToggle?: boolean;
  /** The first card on screen loads its image eagerly. */
  eager?: boolean;
  /** Layout width of the image for choosing among variants. */
  imageSizes?: string;
  /** Extra controls shown only to the post's owner (the own profile's group sharing). */
  ownerActions?: ReactNode;
}

/**
 * One post (spec section 2, Feed): author, image, caption, like, comments and the popup menu; one's own
 * posts get their own menu (issue 24: Delete) where the spec had none.
 */
/** Between the cat's name and the caption, and between the date and 'edited': not words to translate. */
const SPACE = ' ';
const SEPARATOR = ' · ';

export function PostCard({
  post,
  showAuthor = true,
  showComments = true,
  showLocationToggle = false,
  eager,
  imageSizes,
  ownerActions,
}: PostCardProps) {
  const { userId } = useAuth();
  const t = useTranslate();
  const [commentsOpen, setCommentsOpen] = useState(false);
  const [fullSize, setFullSize] = useState(false);
  const commentsId = useId();
  const own = post.user._id === userId;
  const label = postLabel(post);
  const commentLabel = t(
    { id: 'post.card.comments', defaultMessage: '{count, plural, one {# comment} other {# comments}}' },
    { count: post.commentCount },
  );

  return (
    <article className="post-card" aria-label={label} data-post-id={post._id}>
      {showAuthor && (
        <header className="post-card__header">
          <Link to={`/profile/${post.user._id}`} className="post-author">
            <Avatar
              src={post.user.avatarUrl ?? post.user.profilePicUrl}
              size={40}
              className="post-card__avatar"
            />
            <span className="post-author__name">{post.user.username}</span>
          </Link>
          {own ? <OwnPostMenu post={post} /> : <PostMenu post={post} />}
        </header>
      )}
      <div className="post-card__picture">
        {/* Tapping the photo opens it full size (1600 px), as on the post's own page (issue 24). */}
        <button
          type="button"
          className="post-photo-button"
          aria-label={t({ id: 'post.card.viewFullSize', defaultMessage: 'View full size' })}
          onClick={() => setFullSize(true)}
        >
          <PostImage
            image={post.image}
            fallbackSrc={post.imageUrl}
            alt={imageAlt(post)}
            eager={eager}
            sizes={imageSizes}
          />
        </button>
        <AltTextBadge altText={post.altText} />
      </div>
      <div className="post-card__body">
        <ModerationNotice post={post} />
        {(post.cat || post.catName || post.caption) && (
          <p className="post-card__caption">
            {/* The linked cat's name links to its page (issue 26); else the free-text name, as before. */}
            <CatName post={post} className="post-card__cat-name" />
            {(post.cat || post.catName) && post.caption && SPACE}
            {post.caption}
          </p>
        )}
        <div className="post-actions">
          <LikeButton post={post} />
          {showComments && (
            <button
              type="button"
              className="post-card__comments-toggle"
              aria-expanded={commentsOpen}
              aria-controls={commentsOpen ? commentsId : undefined}
              onClick={() => setCommentsOpen((o) => !o)}
            >
              <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
                <path d="M4 4h16v12H8l-4 4z" />
              </svg>
              <span>{commentLabel}</span>
            </button>
          )}
          {/* The post's own page (its address to share, the map, the full-size photo). */}
          <Link to={`/posts/${post._id}`} className="post-card__permalink">
            <Message id="post.card.view" defaultMessage="View" />
          </Link>
          {showLocationToggle && own && <LocationToggle post={post} />}
          {!showAuthor && (own ? <OwnPostMenu post={post} /> : <PostMenu post={post} />)}
        </div>
        <p className="post-card__date">
          <RelativeTime value={post.createdAt} />
          {post.editedAt && SEPARATOR}
          <EditedMark editedAt={post.editedAt} />
        </p>
        {own && ownerActions}
        {showComments && commentsOpen && <CommentsPanel postId={post._id} id={commentsId} />}
      </div>
      {fullSize && (
        <FullSizeImage image={post.image} alt={imageAlt(post)} onClose={() => setFullSize(false)} />
      )}
    </article>
  );
}
