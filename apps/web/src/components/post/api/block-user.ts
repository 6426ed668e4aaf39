import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Post } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth-store.ts';
import { commentKeys } from './query-keys.ts';
import { removePostsFromCaches } from './post-cache.ts';

export const blockUser = (currentUserId: string | null, blockedUser: Post['user'], postId: string) =>
  api<unknown>('/api/profile/blockUser/', { method: 'PUT', body: { currentUserId, blockedUser, postId } });

/** Blocks a post's author: all of their posts leave every list, and their comments are reloaded away. */
export function useBlockUser() {
  const queryClient = useQueryClient();
  const { userId } = useAuth();
  return useMutation({
    mutationFn: (post: Post) => blockUser(userId, post.user, post._id),
    onSuccess: (_data, post) => {
      removePostsFromCaches(queryClient, (p) => p.user._id === post.user._id);
      void queryClient.invalidateQueries({ queryKey: commentKeys.all });
    },
  });
}
