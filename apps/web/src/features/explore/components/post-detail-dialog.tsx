import { useEffect, useRef, useState } from 'react';
import { MAP_DETAIL_IMAGE_WIDTH } from '@cats/contracts';
import { Button, buttonClass } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { PostCard } from '../../../components/post/post-card.tsx';
import { postLabel } from '../../../components/post/post-alt.ts';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { useClusterPosts } from '../api/get-cluster-posts.ts';
import { useExplorePosts } from '../api/get-explore-posts.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';

/**
 * What the card shows: a lone marker's post (with the marker's text, the dialog's name while the post
 * loads), or the posts of a stack.
 */
export type Selection = { postId: string; title: string } | { clusterId: string };

interface PostDetailDialogProps {
  selection: Selection;
  onClose: () => void;
}

/** Both queries are declared (hooks cannot be conditional); only the one that applies runs. */
function useSelectionPosts(selection: Selection) {
  const single = 'postId' in selection ? selection.postId : undefined;
  const postQuery = useExplorePosts(single ? [single] : []);
  const clusterQuery = useClusterPosts('clusterId' in selection ? selection.clusterId : null);
  return single ? postQuery : clusterQuery;
}

/**
 * The detail card (spec section 2, Explore): the 400 px picture, author, caption, like and comments,
 * with the feed's own components. It sits over the map, which does not move: closing it (Close,
 * Escape or the backdrop) shows the same view, with focus back on the marker that opened it.
 */
export function PostDetailDialog({ selection, onClose }: PostDetailDialogProps) {
  const t = useTranslate();
  const [index, setIndex] = useState(0);
  const query = useSelectionPosts(selection);
  const closeRef = useRef<HTMLButtonElement>(null);
  const posts = query.data?.posts ?? [];
  const at = Math.min(index, Math.max(0, posts.length - 1));
  const post = posts[at];

  // Hiding the post or blocking its author (the card's menu) takes it off the map: nothing left to show.
  const empty = query.isSuccess && posts.length === 0;
  useEffect(() => {
    if (empty) onClose();
  }, [empty, onClose]);

  const stack = posts.length > 1;
  return (
    <Modal
      title={
        post
          ? postLabel(post)
          : 'title' in selection
            ? selection.title
            : t({ id: 'explore.detail.title', defaultMessage: 'Spotted cat' })
      }
      hideTitle
      onClose={onClose}
      className="explore-detail"
      initialFocusRef={closeRef}
      actions={
        <>
          {stack && (
            <div className="explore-detail__pager">
              <Button variant="secondary" size="sm" disabled={at === 0} onClick={() => setIndex(at - 1)}>
                <Message id="explore.detail.previous" defaultMessage="Previous" />
              </Button>
              <span aria-live="polite">
                <Message
                  id="explore.detail.position"
                  defaultMessage="{at} of {count}"
                  values={{ at: at + 1, count: posts.length }}
                />
              </span>
              <Button
                variant="secondary"
                size="sm"
                disabled={at >= posts.length - 1}
                onClick={() => setIndex(at + 1)}
              >
                <Message id="explore.detail.next" defaultMessage="Next" />
              </Button>
            </div>
          )}
          <button ref={closeRef} type="button" className={buttonClass('primary')} onClick={onClose}>
            <Message id="explore.detail.close" defaultMessage="Close" />
          </button>
        </>
      }
    >
      {query.isPending && (
        <p className="loading-text">
          <Message id="explore.detail.loading" defaultMessage="Loading..." />
        </p>
      )}
      {query.isError && (
        <p role="alert">
          <Message
            id="explore.detail.error"
            defaultMessage="Error: {message}"
            values={{ message: errorMessage(query.error) }}
          />
        </p>
      )}
      {post && <PostCard key={post._id} post={post} eager imageSizes={`${MAP_DETAIL_IMAGE_WIDTH}px`} />}
    </Modal>
  );
}
