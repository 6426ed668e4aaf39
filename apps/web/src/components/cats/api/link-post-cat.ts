import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LinkPostCatResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { updatePostInCaches } from '../../post/api/post-cache.ts';
import { catKeys } from './query-keys.ts';

export const linkPostCat = (postId: string, catId: string | null) =>
  api<LinkPostCatResponse>(`/api/posts/${encodeURIComponent(postId)}/cat`, {
    method: 'PUT',
    body: { catId },
  });

/**
 * PUT /api/posts/{postId}/cat: the author says which cat the picture shows, or none (null). The card
 * shows the server's answer wherever the post is cached; the cats' pages (sightings, map, counts) reload.
 */
export function useLinkPostCat(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (catId: string | null) => linkPostCat(postId, catId),
    onSuccess: ({ updatedPost }) => {
      const cat = updatedPost.cat && { _id: updatedPost.cat._id, name: updatedPost.cat.name };
      updatePostInCaches(queryClient, updatedPost._id, (post) => ({ ...post, cat }));
      void queryClient.invalidateQueries({ queryKey: catKeys.all });
    },
  });
}
