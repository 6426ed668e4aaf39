import { buttonClass } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { usePostHistory } from '../api/get-post-history.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The post's earlier versions (issue 24), newest first, as Mastodon shows a status's edits. */
export function PostHistoryDialog({ postId, onClose }: { postId: string; onClose: () => void }) {
  const history = usePostHistory(postId);
  return (
    <Modal
      title="Edit history"
      className="post-history"
      onClose={onClose}
      actions={
        <button type="button" className={buttonClass('secondary')} onClick={onClose}>
          Close
        </button>
      }
    >
      {history.isPending ? (
        <p role="status">Loading history...</p>
      ) : history.isError ? (
        <p className="notice notice--error" role="alert">
          Error: {errorMessage(history.error)}
        </p>
      ) : (
        <ol className="post-history__list">
          {history.data.versions.map((v) => (
            <li key={v.version} className="post-history__version">
              <p className="post-history__when">
                <time dateTime={v.createdAt}>{dateFormat.format(new Date(v.createdAt))}</time>
                {v.current ? (
                  <span className="post-history__tag">Current</span>
                ) : v.version === 1 ? (
                  <span className="post-history__tag">Original</span>
                ) : null}
              </p>
              {v.catName && <p className="post-history__cat-name">{v.catName}</p>}
              {v.caption ? (
                <p className="post-history__caption">{v.caption}</p>
              ) : (
                <p className="post-history__empty">No caption</p>
              )}
              {v.altText && (
                <p className="post-history__alt">
                  <span className="post-history__alt-label">Description:</span> {v.altText}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
    </Modal>
  );
}
