import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
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
    onSuccess: ({ updatedPost }) => showLinkedCat(queryClient, updatedPost),
  });
}

/**
 * A post's new cat (a link, or an accepted 'This is Luna') wherever the post is cached, with whether
 * that cat is missing, as the card says it; the cats' pages reload.
 */
export function showLinkedCat(queryClient: QueryClient, updatedPost: LinkPostCatResponse['updatedPost']) {
  const { cat } = updatedPost;
  const linked = cat && { _id: cat._id, name: cat.name, missing: cat.missing };
  updatePostInCaches(queryClient, updatedPost._id, (post) => ({ ...post, cat: linked }));
  void queryClient.invalidateQueries({ queryKey: catKeys.all });
}
