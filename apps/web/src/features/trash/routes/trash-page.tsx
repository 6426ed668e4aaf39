import { useState } from 'react';
import { Link } from 'react-router';
import type { TrashedPost } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { DemoDisabledModal } from '../../../components/message-modal.tsx';
import { errorMessage, isDemoRefusal } from '../../../components/post/api/errors.ts';
import { useRestorePost } from '../../../components/post/api/restore-post.ts';
import { useTrash } from '../api/get-trash.ts';
import './trash-page.css';
import { imageAlt } from '../../../components/post/post-alt.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long until the sweep may purge it, in days begun (30 right after deleting, 1 on the last day). */
function daysLeftText(purgeAt: string, now: number): string {
  const days = Math.ceil((Date.parse(purgeAt) - now) / DAY_MS);
  if (days >= 2) return `${days} days left`;
  if (days === 1) return '1 day left';
  return 'Deleted for good within a day';
}

function describe(post: TrashedPost): string {
  return post.catName ? `Photo of ${post.catName}` : `Cat photo by ${post.user.username}`;
}

/** /profile/trash (issue 24): deleted pictures wait here 30 days, and can be put back as they were. */
export default function TrashPage() {
  const trash = useTrash();
  const restore = useRestorePost();
  const [status, setStatus] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [demo, setDemo] = useState(false);
  const [now] = useState(() => Date.now());

  const onRestore = (post: TrashedPost) => {
    setStatus(null);
    restore.mutate(post._id, {
      onSuccess: () => setStatus({ kind: 'success', text: 'Picture restored to your profile.' }),
      onError: (err) =>
        isDemoRefusal(err) ? setDemo(true) : setStatus({ kind: 'error', text: errorMessage(err) }),
    });
  };

  return (
    <div className="page trash">
      <title>Trash · Neighbourhood Cats</title>
      <h1>Trash</h1>
      <p className="trash__intro">
        Pictures you delete stay here for 30 days, then they are deleted for good. Restore one to put it back
        where it was, with its likes and comments.
      </p>
      <p className="notice notice--success trash__status" role="status" hidden={status?.kind !== 'success'}>
        {status?.kind === 'success' && (
          <span>
            {status.text} <Link to="/profile/me">View your profile</Link>
          </span>
        )}
      </p>
      {status?.kind === 'error' && (
        <p className="notice notice--error" role="alert">
          {status.text}
        </p>
      )}
      {trash.isPending ? (
        <p className="loading-text">Loading...</p>
      ) : trash.isError ? (
        <p className="notice notice--error">Error: {errorMessage(trash.error)}</p>
      ) : trash.data.posts.length === 0 ? (
        <div className="trash__empty card">
          <p>Your trash is empty.</p>
          <p className="muted">Pictures you delete from your cards show up here for 30 days.</p>
        </div>
      ) : (
        <ul className="trash__list">
          {trash.data.posts.map((post) => {
            const restoring = restore.isPending && restore.variables === post._id;
            return (
              <li key={post._id} className="trash__item card" data-post-id={post._id}>
                <img
                  className="trash__image"
                  src={post.image.variants['300'] ?? post.imageUrl}
                  alt={imageAlt(post)}
                  width={96}
                  height={96}
                  loading="lazy"
                />
                <div className="trash__text">
                  {post.catName && <p className="trash__cat-name">{post.catName}</p>}
                  {post.caption && <p className="trash__caption">{post.caption}</p>}
                  <p className="trash__left muted">
                    <time dateTime={post.purgeAt} title={new Date(post.purgeAt).toLocaleString()}>
                      {daysLeftText(post.purgeAt, now)}
                    </time>
                  </p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  className="trash__restore"
                  disabled={restoring}
                  aria-label={`Restore ${describe(post)}`}
                  onClick={() => onRestore(post)}
                >
                  Restore
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <p className="trash__back">
        <Link to="/profile/settings">Back to settings</Link>
      </p>
      {demo && <DemoDisabledModal onClose={() => setDemo(false)} />}
    </div>
  );
}
