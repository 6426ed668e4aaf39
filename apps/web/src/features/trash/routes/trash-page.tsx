import { useState } from 'react';
import { Link } from 'react-router';
import type { TrashedPost } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { DemoDisabledModal } from '../../../components/message-modal.tsx';
import { errorMessage, isDemoRefusal } from '../../../components/post/api/errors.ts';
import { useRestorePost } from '../../../components/post/api/restore-post.ts';
import { imageAlt } from '../../../components/post/post-alt.ts';
import { Message, useLanguage, useTranslate } from '../../../i18n/message.tsx';
import { useTrash } from '../api/get-trash.ts';
import './trash-page.css';
import { formatMoment } from '../../../lib/relative-time.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long until the sweep may purge it, in days begun (30 right after deleting, 1 on the last day). */
function DaysLeft({ purgeAt, now }: { purgeAt: string; now: number }) {
  const days = Math.ceil((Date.parse(purgeAt) - now) / DAY_MS);
  if (days >= 1)
    return (
      <Message
        id="trash.daysLeft"
        defaultMessage="{count, plural, one {# day left} other {# days left}}"
        values={{ count: days }}
      />
    );
  return <Message id="trash.lastDay" defaultMessage="Deleted for good within a day" />;
}

/** /profile/trash (issue 24): deleted pictures wait here 30 days, and can be put back as they were. */
export default function TrashPage() {
  const trash = useTrash();
  const restore = useRestorePost();
  const [status, setStatus] = useState<{ kind: 'success' } | { kind: 'error'; text: string } | null>(null);
  const [demo, setDemo] = useState(false);
  const [now] = useState(() => Date.now());
  const t = useTranslate();
  useLanguage(); // the dates are written in the reader's language: follow it

  const onRestore = (post: TrashedPost) => {
    setStatus(null);
    restore.mutate(post._id, {
      onSuccess: () => setStatus({ kind: 'success' }),
      onError: (err) =>
        isDemoRefusal(err) ? setDemo(true) : setStatus({ kind: 'error', text: errorMessage(err) }),
    });
  };

  return (
    <div className="page trash">
      <title>{t({ id: 'trash.page.title', defaultMessage: 'Trash · Neighbourhood Cats' })}</title>
      <h1>
        <Message id="trash.page.heading" defaultMessage="Trash" />
      </h1>
      <p className="trash__intro">
        <Message
          id="trash.intro"
          defaultMessage="Pictures you delete stay here for 30 days, then they are deleted for good. Restore one to put it back where it was, with its likes and comments."
        />
      </p>
      <p className="notice notice--success trash__status" role="status" hidden={status?.kind !== 'success'}>
        {status?.kind === 'success' && (
          <span>
            <Message
              id="trash.restored"
              defaultMessage="Picture restored to your profile. <link>View your profile</link>"
              values={{ link: (chunks) => <Link to="/profile/me">{chunks}</Link> }}
            />
          </span>
        )}
      </p>
      {status?.kind === 'error' && (
        <p className="notice notice--error" role="alert">
          {status.text}
        </p>
      )}
      {trash.isPending ? (
        <p className="loading-text">
          <Message id="trash.loading" defaultMessage="Loading..." />
        </p>
      ) : trash.isError ? (
        <p className="notice notice--error">
          <Message
            id="trash.error"
            defaultMessage="Error: {message}"
            values={{ message: errorMessage(trash.error) }}
          />
        </p>
      ) : trash.data.posts.length === 0 ? (
        <div className="trash__empty card">
          <p>
            <Message id="trash.empty" defaultMessage="Your trash is empty." />
          </p>
          <p className="muted">
            <Message
              id="trash.emptyHint"
              defaultMessage="Pictures you delete from your cards show up here for 30 days."
            />
          </p>
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
                    <time dateTime={post.purgeAt} title={formatMoment(post.purgeAt)}>
                      <DaysLeft purgeAt={post.purgeAt} now={now} />
                    </time>
                  </p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  className="trash__restore"
                  disabled={restoring}
                  aria-label={
                    post.catName
                      ? t(
                          { id: 'trash.restoreCat', defaultMessage: 'Restore Photo of {name}' },
                          { name: post.catName },
                        )
                      : t(
                          { id: 'trash.restoreBy', defaultMessage: 'Restore Cat photo by {username}' },
                          { username: post.user.username },
                        )
                  }
                  onClick={() => onRestore(post)}
                >
                  <Message id="trash.restore" defaultMessage="Restore" />
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <p className="trash__back">
        <Link to="/profile/settings">
          <Message id="trash.back" defaultMessage="Back to settings" />
        </Link>
      </p>
      {demo && <DemoDisabledModal onClose={() => setDemo(false)} />}
    </div>
  );
}
