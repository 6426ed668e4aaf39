import { useQuery } from '@tanstack/react-query';
import type { PostHistoryResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';

export const getPostHistory = (postId: string, signal?: AbortSignal) =>
  api<PostHistoryResponse>(`/api/posts/${encodeURIComponent(postId)}/history`, { signal });

/** GET /api/posts/{postId}/history: every version of the post's text, newest first. */
export function usePostHistory(postId: string) {
  return useQuery({
    // Edits made on this device invalidate it (components/post/api/edit-post.ts).
    queryKey: ['post-history', postId],
    queryFn: ({ signal }) => getPostHistory(postId, signal),
  });
}
