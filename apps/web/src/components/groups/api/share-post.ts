import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SharePostResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { updatePostInCaches } from '../../post/api/post-cache.ts';
import { groupKeys } from './query-keys.ts';

export const sharePost = (postId: string, groupIds: string[]) =>
  api<SharePostResponse>(`/api/posts/${encodeURIComponent(postId)}/groups`, {
    method: 'PUT',
    body: { groupIds },
  });

/**
 * Shares an own post with exactly these groups (an empty list unshares it everywhere). The server's
 * answer replaces the post's groupIds in every cached list; group feeds and maps reload.
 */
export function useSharePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ postId, groupIds }: { postId: string; groupIds: string[] }) => sharePost(postId, groupIds),
    onSuccess: ({ groupIds }, { postId }) => {
      updatePostInCaches(queryClient, postId, (p) => ({ ...p, groupIds }));
      void queryClient.invalidateQueries({ queryKey: groupKeys.allPosts });
      void queryClient.invalidateQueries({ queryKey: groupKeys.allMaps });
    },
  });
}
