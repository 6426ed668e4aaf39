import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeletePostResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { showToast } from '../../toast.tsx';
import { holdsPosts, removePostsFromCaches } from './post-cache.ts';
import { restorePost } from './restore-post.ts';
import { trashKeys } from './trash-keys.ts';
import { undoWith } from './undo.ts';

export const deletePost = (postId: string) =>
  api<DeletePostResponse>(`/api/posts/${encodeURIComponent(postId)}`, { method: 'DELETE' });

/**
 * Moves one's own post to the trash: it leaves every cached list at once (feed, profiles, groups, map),
 * and a toast says so with an Undo that restores it (issue 24, like hide and block). The trash stays
 * reachable from Settings for the 30 days.
 */
export function useDeletePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePost,
    onSuccess: (_data, postId) => {
      removePostsFromCaches(queryClient, (p) => p._id === postId);
      // What is not a list of posts may still show it: the map's markers, a profile's count. The lists
      // themselves are patched above, not reloaded (an infinite feed would fetch all its pages again).
      void queryClient.invalidateQueries({ predicate: (q) => !holdsPosts(q.state.data) });
      void queryClient.invalidateQueries({ queryKey: trashKeys.all });
      showToast({
        message: 'Picture moved to the trash. You can restore it from Settings for 30 days.',
        action: { label: 'Undo', onAction: () => void undoWith(queryClient, () => restorePost(postId)) },
      });
    },
  });
}
