import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ReportReason, ReportReceipt, ReportTargetType } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { showToast } from '../../toast.tsx';
import type { CommentPages } from '../../post/api/get-comments.ts';
import { removePostsFromCaches, updatePostInCaches } from '../../post/api/post-cache.ts';
import { commentKeys } from '../../post/api/query-keys.ts';

/** What is reported, with what the app needs to take it off the screen afterwards. */
export type ReportTarget =
  | { type: 'post'; id: string }
  /** postId: the post the comment is under, whose comment list and count change. */
  | { type: 'comment'; id: string; postId: string }
  | { type: 'user'; id: string }
  | { type: 'cat'; id: string };

export interface ReportRequest {
  target: ReportTarget;
  reason: ReportReason;
  note: string;
  /** Also block this user (the author, the person, the cat's creator), or null for no block. */
  blockUserId: string | null;
}

export const sendReport = ({ target, reason, note, blockUserId }: ReportRequest) =>
  api<ReportReceipt>('/api/reports', {
    method: 'POST',
    body: {
      targetType: target.type satisfies ReportTargetType,
      targetId: target.id,
      reason,
      note,
      blockAuthor: blockUserId !== null,
    },
  });

/** Takes a comment out of its post's loaded pages, and one off the count every card of the post shows. */
function dropComment(queryClient: QueryClient, postId: string, commentId: string) {
  let removed = false;
  queryClient.setQueryData<CommentPages>(commentKeys.post(postId), (data) => {
    if (!data) return data;
    return {
      ...data,
      pages: data.pages.map((page) => {
        const comments = page.comments.filter((c) => c._id !== commentId);
        if (comments.length === page.comments.length) return page;
        removed = true;
        return { ...page, comments, commentCount: Math.max(0, page.commentCount - 1) };
      }),
    };
  });
  if (removed) {
    updatePostInCaches(queryClient, postId, (p) => ({ ...p, commentCount: Math.max(0, p.commentCount - 1) }));
  }
}

/**
 * Issue 27, "Reporting": sends a report. The reporter stops seeing a reported post or comment at once
 * (the server hides it for them too), and everything of a user they blocked in the same step leaves
 * the lists, as a block from the menu does. The server's thank-you is shown as a toast.
 */
export function useSendReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendReport,
    onSuccess: (receipt, { target, blockUserId }) => {
      if (target.type === 'post') removePostsFromCaches(queryClient, (p) => p._id === target.id);
      if (target.type === 'comment') dropComment(queryClient, target.postId, target.id);
      if (receipt.blocked && blockUserId) {
        removePostsFromCaches(queryClient, (p) => p.user._id === blockUserId);
        void queryClient.invalidateQueries({ queryKey: commentKeys.all });
      }
      showToast({ message: receipt.message });
    },
  });
}
