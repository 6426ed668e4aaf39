import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditPostRequest, EditPostResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { groupKeys } from '../../groups/api/query-keys.ts';
import { updatePostInCaches } from './post-cache.ts';

export const editPost = (postId: string, changes: EditPostRequest) =>
  api<EditPostResponse>(`/api/posts/${encodeURIComponent(postId)}`, { method: 'PATCH', body: changes });

/** PATCH /api/posts/{postId}: the server's post replaces the card in every cached list (and the post page). */
export function useEditPost(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: EditPostRequest) => editPost(postId, changes),
    onSuccess: ({ post }) => {
      // Spread over the cached copy: the post page's copy also carries the viewer's permissions.
      updatePostInCaches(queryClient, post._id, (cached) => ({ ...cached, ...post }));
      // The history gained a version.
      void queryClient.invalidateQueries({ queryKey: ['post-history', post._id] });
    },
    onSettled: (_data, _error, changes) => {
      // A moved or removed place: the maps, which hold positions rather than posts, load again.
      if (changes.latitude !== undefined) {
        void queryClient.invalidateQueries({ queryKey: ['explore'] });
        void queryClient.invalidateQueries({ queryKey: groupKeys.allMaps });
      }
    },
  });
}
