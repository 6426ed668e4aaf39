import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CommentsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { replaceComments } from './comments-cache.ts';

export const deleteComment = (commentId: string) =>
  api<CommentsResponse>(`/api/posts/comments/${encodeURIComponent(commentId)}`, { method: 'DELETE' });

/** The post owner may delete any comment on their post, an author their own (issue 5, point 2). */
export function useDeleteComment(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteComment,
    onSuccess: (data) => replaceComments(queryClient, postId, data),
  });
}
