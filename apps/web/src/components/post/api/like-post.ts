import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Post } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth-store.ts';
import { logFailure } from './errors.ts';
import { findCachedPost, updatePostInCaches } from './post-cache.ts';

interface LikeResponse {
  updatedPost: { _id: string; greatCat: string[] };
}

export const likePost = (postId: string, currentUserId: string | null) =>
  api<LikeResponse>(`/api/posts/likePost/${encodeURIComponent(postId)}`, {
    method: 'PUT',
    body: { currentUserId },
  });

/**
 * Toggles the viewer's like. The count changes at once; a failure puts the previous likes back, and
 * the server's answer replaces greatCat (spec section 4: "replaced by the server's updated post").
 */
export function useLikePost(post: Post) {
  const queryClient = useQueryClient();
  const { userId } = useAuth();
  return useMutation({
    mutationFn: () => likePost(post._id, userId),
    onMutate: () => {
      const previous = findCachedPost(queryClient, post._id)?.greatCat ?? post.greatCat;
      const liked = userId !== null && previous.includes(userId);
      const next = liked ? previous.filter((id) => id !== userId) : userId ? [...previous, userId] : previous;
      updatePostInCaches(queryClient, post._id, (p) => ({ ...p, greatCat: next }));
      return { previous };
    },
    onError: (err, _vars, context) => {
      if (context) updatePostInCaches(queryClient, post._id, (p) => ({ ...p, greatCat: context.previous }));
      logFailure('Like failed', err);
    },
    onSuccess: ({ updatedPost }) =>
      updatePostInCaches(queryClient, updatedPost._id, (p) => ({ ...p, greatCat: updatedPost.greatCat })),
  });
}
