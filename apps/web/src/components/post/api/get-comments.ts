import { useQuery } from '@tanstack/react-query';
import type { CommentsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { commentKeys } from './query-keys.ts';

export const getComments = (postId: string, signal?: AbortSignal) =>
  api<CommentsResponse>(`/api/posts/getComments/${encodeURIComponent(postId)}`, { signal });

/** Comments load only once a card's comments are opened (spec section 2). */
export function useComments(postId: string, enabled: boolean) {
  return useQuery({
    queryKey: commentKeys.post(postId),
    queryFn: ({ signal }) => getComments(postId, signal),
    enabled,
  });
}
