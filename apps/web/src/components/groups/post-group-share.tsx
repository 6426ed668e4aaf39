import { useId, useState } from 'react';
import type { Post } from '@cats/contracts';
import { GroupsIcon } from '../icons.tsx';
import { errorMessage, isDemoRefusal } from '../post/api/errors.ts';
import { DemoModal } from '../post/post-modal.tsx';
import { useSharePost } from './api/share-post.ts';
import { GroupSharePicker } from './group-share-picker.tsx';

/**
 * Share or unshare an existing own post with groups (the own profile's pictures, issue 7 point 4).
 * Each tick saves at once; the server's answer becomes the post's groupIds.
 */
export function PostGroupShare({ post }: { post: Post }) {
  const [open, setOpen] = useState(false);
  const [demo, setDemo] = useState(false);
  const panelId = useId();
  const share = useSharePost();
  const current = post.groupIds ?? [];
  const count = current.length;

  return (
    <div className="post-group-share">
      <button
        type="button"
        className="post-group-share__toggle"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <GroupsIcon size={20} />
        <span>
          {count === 0 ? 'Share with groups' : `Shared with ${count} ${count === 1 ? 'group' : 'groups'}`}
        </span>
      </button>
      {open && (
        <div id={panelId} className="post-group-share__panel">
          <GroupSharePicker
            selected={current}
            disabled={share.isPending}
            onChange={(groupIds) =>
              share.mutate(
                { postId: post._id, groupIds },
                { onError: (err) => (isDemoRefusal(err) ? setDemo(true) : undefined) },
              )
            }
          />
          {share.isError && !isDemoRefusal(share.error) && (
            <p className="post-group-share__error" role="alert">
              {errorMessage(share.error)}
            </p>
          )}
        </div>
      )}
      <DemoModal open={demo} onClose={() => setDemo(false)} />
    </div>
  );
}
