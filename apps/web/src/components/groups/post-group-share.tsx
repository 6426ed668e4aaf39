import { useId, useState } from 'react';
import type { Post } from '@cats/contracts';
import { Button } from '../button.tsx';
import { GroupsIcon } from '../icons.tsx';
import { Modal } from '../modal.tsx';
import { errorMessage, isDemoRefusal } from '../post/api/errors.ts';
import { DemoModal } from '../post/post-modal.tsx';
import { useSharePost } from './api/share-post.ts';
import { GroupSharePicker } from './group-share-picker.tsx';
import { Message, useTranslate } from '../../i18n/message.tsx';

/**
 * The groups an existing own post is shared with, as ticks (issue 7 point 4). Each tick saves at once;
 * the server's answer becomes the post's groupIds in every cached list, so `post` follows it.
 */
function PostGroupSharePicker({ post, legend }: { post: Post; legend?: string }) {
  const [demo, setDemo] = useState(false);
  const share = useSharePost();
  return (
    <>
      <GroupSharePicker
        // While a tick saves it shows as asked; then as the server has it (a failed save unticks again).
        selected={share.isPending ? share.variables.groupIds : (post.groupIds ?? [])}
        disabled={share.isPending}
        legend={legend}
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
      <DemoModal open={demo} onClose={() => setDemo(false)} />
    </>
  );
}

/** On the own profile's cards: says how widely a picture is shared and opens the ticks in place. */
export function PostGroupShare({ post }: { post: Post }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const count = post.groupIds?.length ?? 0;

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
          {count === 0 ? (
            <Message id="groups.share.open" defaultMessage="Share with groups" />
          ) : (
            <Message
              id="groups.share.sharedWith"
              defaultMessage="Shared with {count, plural, one {# group} other {# groups}}"
              values={{ count }}
            />
          )}
        </span>
      </button>
      {open && (
        <div id={panelId} className="post-group-share__panel">
          <PostGroupSharePicker post={post} />
        </div>
      )}
    </div>
  );
}

/** The own-post menu's 'Share with groups' (issue 24): the same ticks, in a dialog, from any list. */
export function ShareWithGroupsDialog({ post, onClose }: { post: Post; onClose: () => void }) {
  const t = useTranslate();
  return (
    <Modal
      title={t({ id: 'groups.share.open', defaultMessage: 'Share with groups' })}
      onClose={onClose}
      actions={
        <Button variant="primary" onClick={onClose}>
          <Message id="groups.share.done" defaultMessage="Done" />
        </Button>
      }
    >
      <PostGroupSharePicker
        post={post}
        legend={t({ id: 'groups.share.yourGroups', defaultMessage: 'Your groups' })}
      />
    </Modal>
  );
}
