import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RestorePostResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { removePostsFromCaches } from './post-cache.ts';
import { refetchAfterWrite } from '../../../lib/refetch-after-write.ts';

export const restorePost = (postId: string) =>
  api<RestorePostResponse>(`/api/posts/${encodeURIComponent(postId)}/restore`, { method: 'POST' });

/**
 * Takes a post out of the trash. It goes back among the lists at its own date, wherever that falls
 * (feed, profile, groups, map), so every cached list is reloaded rather than patched.
 */
export function useRestorePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restorePost,
    onSuccess: async (_data, postId) => {
      // The trash list is post-shaped too: out of it at once.
      removePostsFromCaches(queryClient, (p) => p._id === postId);
      await refetchAfterWrite(queryClient);
    },
  });
}
