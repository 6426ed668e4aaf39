import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { COMMENT_MAX } from '@cats/contracts';
import { commentsInOrder, useComments } from './api/get-comments.ts';
import { useCreateComment } from './api/create-comment.ts';
import { useDeleteComment } from './api/delete-comment.ts';
import { isDemoRefusal, logFailure } from './api/errors.ts';
import { Avatar } from '../avatar.tsx';
import { RelativeTime } from '../relative-time.tsx';
import { Button } from '../button.tsx';
import { DemoDisabledModal } from '../message-modal.tsx';
import { ReportDialog } from '../report/report-dialog.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import type { Comment } from '@cats/contracts';
import { Message, useTranslate } from '../../i18n/message.tsx';

/** Spec section 2: the comments of one post (author avatar, username, text) and an add-comment form. */
/** Between a comment's author and its date: not a word to translate. */
const SPACE = ' ';

export function CommentsPanel({ postId, id }: { postId: string; id?: string }) {
  const t = useTranslate();
  const comments = useComments(postId, true);
  const create = useCreateComment(postId);
  const remove = useDeleteComment(postId);
  const [draft, setDraft] = useState('');
  const [demo, setDemo] = useState(false);
  const [reporting, setReporting] = useState<Comment | null>(null);
  const { userId } = useAuth();
  const inputId = useId();

  const onFailure = (what: string) => (err: unknown) => {
    if (isDemoRefusal(err)) setDemo(true);
    else logFailure(what, err);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const text = draft.trim();
    if (!text) return;
    create.mutate(text, { onSuccess: () => setDraft(''), onError: onFailure('Comment failed') });
  };

  const list = comments.data && commentsInOrder(comments.data);
  return (
    <section
      className="post-comments"
      id={id}
      aria-label={t({ id: 'comments.label', defaultMessage: 'Comments' })}
    >
      {comments.isPending && (
        <p className="post-comments__status">
          <Message id="comments.loading" defaultMessage="Loading comments..." />
        </p>
      )}
      {list && list.length === 0 && (
        <p className="post-comments__status">
          <Message id="comments.empty" defaultMessage="No comments yet." />
        </p>
      )}
      {/* Issue 24: the newest 20 come first; earlier pages load on demand, above them. */}
      {comments.hasNextPage && (
        <button
          type="button"
          className="post-comments__earlier"
          disabled={comments.isFetchingNextPage}
          onClick={() => void comments.fetchNextPage()}
        >
          {comments.isFetchingNextPage ? (
            <Message id="comments.earlier.loading" defaultMessage="Loading earlier comments..." />
          ) : (
            <Message id="comments.earlier.show" defaultMessage="Show earlier comments" />
          )}
        </button>
      )}
      {list && list.length > 0 && (
        <ul className="post-comments__list">
          {list.map((c) => (
            <li key={c._id} className="post-comments__item">
              <Link
                to={`/profile/${c.user._id}`}
                className="post-comments__avatar"
                tabIndex={-1}
                aria-hidden="true"
              >
                <Avatar src={c.user.avatarUrl ?? c.user.profilePicUrl} size={32} />
              </Link>
              <div className="post-comments__content">
                <Link to={`/profile/${c.user._id}`} className="post-comments__user">
                  {c.user.username}
                </Link>
                {SPACE}
                <RelativeTime value={c.createdAt} className="post-comments__date" />
                <p className="post-comments__text">{c.comment}</p>
              </div>
              {/* Issue 27: anyone's comment but one's own can be reported. */}
              {c.user._id !== userId && (
                <button
                  type="button"
                  className="post-comments__report"
                  aria-label={t(
                    { id: 'comments.report.label', defaultMessage: 'Report comment by {username}' },
                    { username: c.user.username },
                  )}
                  onClick={() => setReporting(c)}
                >
                  <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
                    <path d="M5 3h2v18H5zm3 1h10l-2 4 2 4H8z" />
                  </svg>
                </button>
              )}
              {c.canDelete && (
                <button
                  type="button"
                  className="post-comments__delete"
                  aria-label={t(
                    { id: 'comments.delete.label', defaultMessage: 'Delete comment by {username}' },
                    { username: c.user.username },
                  )}
                  disabled={remove.isPending && remove.variables === c._id}
                  onClick={() => remove.mutate(c._id, { onError: onFailure('Delete comment failed') })}
                >
                  <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
                    <path d="M9 3h6l1 2h4v2H4V5h4zm-3 6h12l-1 12H7z" />
                  </svg>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <form className="post-comments__form" onSubmit={submit}>
        <label htmlFor={inputId} className="post-visually-hidden">
          <Message id="comments.add.label" defaultMessage="Add a comment" />
        </label>
        <input
          id={inputId}
          name="newComment"
          placeholder={t({ id: 'comments.add.placeholder', defaultMessage: 'Add a comment...' })}
          required
          maxLength={COMMENT_MAX}
          autoComplete="off"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
        <Button type="submit" disabled={create.isPending}>
          <Message id="comments.add.submit" defaultMessage="Post" />
        </Button>
      </form>
      {reporting && (
        <ReportDialog
          target={{ type: 'comment', id: reporting._id, postId }}
          owner={reporting.user}
          onClose={() => setReporting(null)}
        />
      )}
      {demo && <DemoDisabledModal onClose={() => setDemo(false)} />}
    </section>
  );
}
