import { buttonClass } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { usePostHistory } from '../api/get-post-history.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { formatShortMoment } from '../../../lib/relative-time.ts';

/** The post's earlier versions (issue 24), newest first, as Mastodon shows a status's edits. */
export function PostHistoryDialog({ postId, onClose }: { postId: string; onClose: () => void }) {
  const t = useTranslate();
  const history = usePostHistory(postId);
  return (
    <Modal
      title={t({ id: 'post.history.title', defaultMessage: 'Edit history' })}
      className="post-history"
      onClose={onClose}
      actions={
        <button type="button" className={buttonClass('secondary')} onClick={onClose}>
          <Message id="post.history.close" defaultMessage="Close" />
        </button>
      }
    >
      {history.isPending ? (
        <p role="status">
          <Message id="post.history.loading" defaultMessage="Loading history..." />
        </p>
      ) : history.isError ? (
        <p className="notice notice--error" role="alert">
          <Message
            id="post.history.error"
            defaultMessage="Error: {message}"
            values={{ message: errorMessage(history.error) }}
          />
        </p>
      ) : (
        <ol className="post-history__list">
          {history.data.versions.map((v) => (
            <li key={v.version} className="post-history__version">
              <p className="post-history__when">
                <time dateTime={v.createdAt}>{formatShortMoment(v.createdAt)}</time>
                {v.current ? (
                  <span className="post-history__tag">
                    <Message id="post.history.current" defaultMessage="Current" />
                  </span>
                ) : v.version === 1 ? (
                  <span className="post-history__tag">
                    <Message id="post.history.original" defaultMessage="Original" />
                  </span>
                ) : null}
              </p>
              {v.catName && <p className="post-history__cat-name">{v.catName}</p>}
              {v.caption ? (
                <p className="post-history__caption">{v.caption}</p>
              ) : (
                <p className="post-history__empty">
                  <Message id="post.history.noCaption" defaultMessage="No caption" />
                </p>
              )}
              {v.altText && (
                <p className="post-history__alt">
                  <Message
                    id="post.history.altText"
                    defaultMessage="<label>Description:</label> {text}"
                    values={{
                      text: v.altText,
                      label: (chunks) => <span className="post-history__alt-label">{chunks}</span>,
                    }}
                  />
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
    </Modal>
  );
}
