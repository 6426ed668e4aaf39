import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { PostDetail } from '@cats/contracts';
import { Avatar } from '../../../components/avatar.tsx';
import { buttonClass } from '../../../components/button.tsx';
import { CommentsPanel } from '../../../components/post/comments-panel.tsx';
import { AltTextBadge } from '../../../components/post/alt-text-badge.tsx';
import { EditedMark } from '../../../components/post/edited-mark.tsx';
import { ModerationNotice } from '../../../components/post/moderation-notice.tsx';
import { FullSizeImage } from '../../../components/post/full-size-image.tsx';
import { LikeButton } from '../../../components/post/like-button.tsx';
import { LocationToggle } from '../../../components/post/location-toggle.tsx';
import { PostImage } from '../../../components/post/post-image.tsx';
import { OwnPostMenu } from '../../../components/post/own-post-menu.tsx';
import { PostMenu } from '../../../components/post/post-menu.tsx';
import { ShareButton } from '../../../components/post/share-button.tsx';
import { catNameOf, imageAlt, postLabel } from '../../../components/post/post-alt.ts';
import { CatName } from '../../../components/cats/cat-name.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { usePost } from '../api/get-post.ts';
import { CatSuggestions } from '../components/cat-suggestions.tsx';
import { PostHistoryDialog } from '../components/post-history-dialog.tsx';
// The shared post UI's styles (like, menu, comments), which come with the feed's card elsewhere.
import '../../../components/post/post.css';
import '../post-page.css';
import { LoadingSkeleton, PostPageSkeleton } from '../../../components/skeleton/skeleton.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { formatMoment } from '../../../lib/relative-time.ts';

const LocationMap = lazy(() => import('../components/location-map.tsx'));

/** Large on a wide screen (the photo column is at most 720 px), the whole width on a phone. */
const PAGE_IMAGE_SIZES = '(min-width: 900px) 720px, 100vw';

/** Issue 24, "A page per post": one picture with everything about it, at an address one can share. */
export default function PostPage() {
  const { postId = '' } = useParams();
  return <PostView key={postId} postId={postId} />;
}

function PostView({ postId }: { postId: string }) {
  const t = useTranslate();
  const query = usePost(postId);
  const post = query.data;
  // Unknown, hidden, blocked (the server's 404), or hidden from this page just now (the cache lost it).
  const gone = (query.error instanceof ApiError && query.error.status === 404) || post === null;
  if (gone) return <NotAvailable />;
  if (query.isError) {
    return (
      <div className="post-page">
        <p className="post-page__status" role="alert">
          <Message
            id="post.page.error"
            defaultMessage="Error: {message}"
            values={{ message: errorMessage(query.error) }}
          />
        </p>
      </div>
    );
  }
  if (!post) {
    return (
      <div className="post-page">
        <LoadingSkeleton label={t({ id: 'post.page.loading', defaultMessage: 'Loading picture...' })}>
          <PostPageSkeleton />
        </LoadingSkeleton>
      </div>
    );
  }
  return <PostDetails post={post} />;
}

function PostDetails({ post }: { post: PostDetail }) {
  const t = useTranslate();
  const [fullSize, setFullSize] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const navigate = useNavigate();
  const label = postLabel(post);
  const alt = imageAlt(post);
  const created = new Date(post.createdAt);
  const located = post.latitude !== null && post.longitude !== null;

  return (
    <article className="post-page" aria-label={label} data-post-id={post._id}>
      <title>
        {catNameOf(post)
          ? t(
              { id: 'post.page.titleNamed', defaultMessage: '{name} · Neighbourhood Cats' },
              { name: catNameOf(post)! },
            )
          : t({ id: 'post.page.titleUnnamed', defaultMessage: 'A cat · Neighbourhood Cats' })}
      </title>
      <div className="post-page__photo">
        <button
          type="button"
          className="post-photo-button"
          aria-label={t({ id: 'post.card.viewFullSize', defaultMessage: 'View full size' })}
          onClick={() => setFullSize(true)}
        >
          <PostImage
            image={post.image}
            fallbackSrc={post.imageUrl}
            alt={alt}
            sizes={PAGE_IMAGE_SIZES}
            eager
          />
        </button>
        <AltTextBadge altText={post.altText} />
      </div>
      <div className="post-page__details">
        <header className="post-page__header">
          <Link to={`/profile/${post.user._id}`} className="post-author">
            <Avatar src={post.user.avatarUrl ?? post.user.profilePicUrl} size={40} />
            <span className="post-author__name">{post.user.username}</span>
          </Link>
          <span className="post-page__when">
            <time className="post-page__date" dateTime={post.createdAt} title={created.toISOString()}>
              {formatMoment(created)}
            </time>
            {post.editedAt && (
              // Opens the earlier versions; the mark itself carries the time of the last edit on hover.
              <button type="button" className="post-page__edited" onClick={() => setHistoryOpen(true)}>
                <EditedMark editedAt={post.editedAt} />
                <span className="visually-hidden">
                  <Message id="post.page.seeHistory" defaultMessage=" (see earlier versions)" />
                </span>
              </button>
            )}
          </span>
        </header>
        <ModerationNotice post={post} />
        {(post.cat || post.catName) && (
          <h1 className="post-page__cat-name">
            <CatName post={post} />
          </h1>
        )}
        {post.caption && <p className="post-page__caption">{post.caption}</p>}
        <div className="post-actions">
          <LikeButton post={post} />
          <ShareButton post={post} />
          {post.isOwn && <LocationToggle post={post} />}
          {post.canHide && (
            <PostMenu post={post} onReported={() => void navigate('/feed', { replace: true })} />
          )}
          {post.canDelete && (
            // Deleted from its own page: the page has nothing left to show, the profile does (Undo
            // in the toast brings the picture back there).
            <OwnPostMenu post={post} onDeleted={() => void navigate('/profile/me', { replace: true })} />
          )}
        </div>
        {/* 'This is Luna' by others (issue 26): the author answers here. */}
        {post.isOwn && <CatSuggestions postId={post._id} />}
        {located && (
          <section className="post-page__location" aria-labelledby="post-page-location">
            <h2 id="post-page-location" className="post-page__section-title">
              <Message id="post.page.where" defaultMessage="Where it was spotted" />
            </h2>
            <Suspense fallback={<div className="post-page__map post-page__map--loading" />}>
              <LocationMap
                // A map keeps the centre it opened on: a place moved in Edit draws a new one.
                key={`${post.latitude},${post.longitude}`}
                latitude={post.latitude!}
                longitude={post.longitude!}
                approximate={post.locationPrecision === 'approximate'}
              />
            </Suspense>
            {post.locationPrecision === 'approximate' && (
              <p className="post-page__location-note">
                <Message id="post.page.approximate" defaultMessage="Approximate location (about 500 m)" />
              </p>
            )}
          </section>
        )}
        {/* Not a landmark of its own: the panel inside is the 'Comments' region (axe landmark-unique). */}
        <div className="post-page__comments">
          <h2 id="post-page-comments" className="post-page__section-title">
            <Message id="comments.label" defaultMessage="Comments" />
          </h2>
          <CommentsPanel postId={post._id} />
        </div>
      </div>
      {historyOpen && <PostHistoryDialog postId={post._id} onClose={() => setHistoryOpen(false)} />}
      {fullSize && <FullSizeImage image={post.image} alt={alt} onClose={() => setFullSize(false)} />}
    </article>
  );
}

function NotAvailable() {
  const t = useTranslate();
  return (
    <div className="post-page post-page--gone">
      <title>
        {t({ id: 'post.page.goneTitle', defaultMessage: 'Picture not available · Neighbourhood Cats' })}
      </title>
      <div className="post-page__gone-card">
        <h1>
          <Message id="post.page.gone" defaultMessage="This picture is not available" />
        </h1>
        <p>
          <Message
            id="post.page.goneText"
            defaultMessage="It may have been removed, or it is not shown to you."
          />
        </p>
        <Link className={buttonClass('primary')} to="/feed">
          <Message id="post.page.back" defaultMessage="Back to the feed" />
        </Link>
      </div>
    </div>
  );
}
