import { lazy, Suspense, useState } from 'react';
import type { Post } from '@cats/contracts';
import { useHidePost } from './api/hide-post.ts';
import { useBlockUser } from './api/block-user.ts';
import { DemoDisabledModal } from '../message-modal.tsx';
import { MenuItem, PopupMenu } from '../popup-menu.tsx';
import { isDemoRefusal, logFailure } from './api/errors.ts';
import { BlockUserDialog } from './block-user-dialog.tsx';
import { ReportDialog } from '../report/report-dialog.tsx';
import { Message, useTranslate } from '../../i18n/message.tsx';

// Its own chunk: the cat search loads when the dialog first opens.
const SuggestCatDialog = lazy(() => import('../cats/suggest-cat-dialog.tsx'));

/**
 * The card's popup menu on others' posts: 'This is…' (issue 26: suggest which cat it shows), hide
 * post, report (issue 27), block user. Hiding acts at once (with an Undo toast); reporting and blocking
 * ask first. `onReported`: the post page leaves, since the picture is no longer there for the reporter.
 */
export function PostMenu({ post, onReported }: { post: Post; onReported?: () => void }) {
  const t = useTranslate();
  const [demo, setDemo] = useState(false);
  const [confirmBlock, setConfirmBlock] = useState(false);
  const [suggesting, setSuggesting] = useState(false);
  const [reporting, setReporting] = useState(false);
  const hide = useHidePost();
  const block = useBlockUser();

  const onFailure = (what: string) => (err: unknown) => {
    if (isDemoRefusal(err)) setDemo(true);
    else logFailure(what, err);
  };

  return (
    <>
      <PopupMenu label={t({ id: 'post.menu.label', defaultMessage: 'Post options' })}>
        <MenuItem onSelect={() => setSuggesting(true)}>
          <Message id="post.menu.suggestCat" defaultMessage="This is…" />
        </MenuItem>
        <MenuItem onSelect={() => hide.mutate(post._id, { onError: onFailure('Hide post failed') })}>
          <Message id="post.menu.hide" defaultMessage="Hide post" />
        </MenuItem>
        <MenuItem onSelect={() => setReporting(true)}>
          <Message id="post.menu.report" defaultMessage="Report" />
        </MenuItem>
        <MenuItem onSelect={() => setConfirmBlock(true)}>
          <Message id="post.menu.block" defaultMessage="Block user" />
        </MenuItem>
      </PopupMenu>
      {confirmBlock && (
        <BlockUserDialog
          username={post.user.username}
          pending={block.isPending}
          onCancel={() => setConfirmBlock(false)}
          onConfirm={() =>
            block.mutate(
              { user: post.user, postId: post._id },
              {
                onSettled: () => setConfirmBlock(false),
                onError: onFailure('Block user failed'),
              },
            )
          }
        />
      )}
      {suggesting && (
        <Suspense fallback={null}>
          <SuggestCatDialog
            post={post}
            onClose={() => setSuggesting(false)}
            onDemoRefused={() => setDemo(true)}
          />
        </Suspense>
      )}
      {reporting && (
        <ReportDialog
          target={{ type: 'post', id: post._id }}
          owner={post.user}
          onClose={() => setReporting(false)}
          onReported={onReported}
        />
      )}
      {demo && <DemoDisabledModal onClose={() => setDemo(false)} />}
    </>
  );
}
