import type { QueryClient } from '@tanstack/react-query';
import type { CommentsResponse } from '@cats/contracts';
import { replaceQueryData } from '../../../lib/replace-query-data.ts';
import { commentKeys } from './query-keys.ts';
import { updatePostInCaches } from './post-cache.ts';

/**
 * Spec section 4: after a comment is added or deleted, the post's list becomes the server's answer
 * (never the answer of a load that started before the write), and every card shows the new count.
 */
export async function replaceComments(
  queryClient: QueryClient,
  postId: string,
  data: CommentsResponse,
): Promise<void> {
  await replaceQueryData<CommentsResponse>(queryClient, commentKeys.post(postId), data);
  updatePostInCaches(queryClient, postId, (p) => ({ ...p, commentCount: data.comments.length }));
}
