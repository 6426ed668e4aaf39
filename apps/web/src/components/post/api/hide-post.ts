import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth-store.ts';
import { removePostsFromCaches } from './post-cache.ts';

export const hidePost = (postId: string, currentUserId: string | null) =>
  api<unknown>(`/api/posts/hidePost/${encodeURIComponent(postId)}`, {
    method: 'PUT',
    body: { currentUserId },
  });

/** Hides a post for the viewer: it leaves every list at once (spec section 4). */
export function useHidePost() {
  const queryClient = useQueryClient();
  const { userId } = useAuth();
  return useMutation({
    mutationFn: (postId: string) => hidePost(postId, userId),
    onSuccess: (_data, postId) => removePostsFromCaches(queryClient, (p) => p._id === postId),
  });
}
