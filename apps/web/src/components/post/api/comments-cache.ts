import type { QueryClient } from '@tanstack/react-query';
import type { CommentsResponse } from '@cats/contracts';
import { replaceQueryData } from '../../../lib/replace-query-data.ts';
import type { CommentPages } from './get-comments.ts';
import { commentKeys } from './query-keys.ts';
import { updatePostInCaches } from './post-cache.ts';

/**
 * Spec section 4: after a comment is added or deleted, the post's list becomes the server's answer
 * (never the answer of a load that started before the write), and every card shows the new count.
 * The answer is the newest page (issue 24): earlier pages loaded before are dropped with the rest, and
 * 'Show earlier comments' continues from the answer's own cursor.
 */
export async function replaceComments(
  queryClient: QueryClient,
  postId: string,
  data: CommentsResponse,
): Promise<void> {
  await replaceQueryData<CommentPages>(queryClient, commentKeys.post(postId), {
    pages: [data],
    pageParams: [null],
  });
  updatePostInCaches(queryClient, postId, (p) => ({ ...p, commentCount: data.commentCount }));
}
