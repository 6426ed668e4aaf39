import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CommentsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { replaceComments } from './comments-cache.ts';

export const createComment = (postId: string, newComment: string) =>
  api<CommentsResponse>(`/api/posts/createComment/${encodeURIComponent(postId)}`, {
    method: 'POST',
    body: { newComment },
  });

/** Spec section 4: on success the post's comment list is replaced by the server's list. */
export function useCreateComment(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (newComment: string) => createComment(postId, newComment),
    onSuccess: (data) => replaceComments(queryClient, postId, data),
  });
}
