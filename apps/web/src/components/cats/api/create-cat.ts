import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateCatRequest, CreateCatResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { updatePostInCaches } from '../../post/api/post-cache.ts';
import { catKeys } from './query-keys.ts';

export const createCat = (request: CreateCatRequest) =>
  api<CreateCatResponse>('/api/cats', { method: 'POST', body: request });

/**
 * POST /api/cats. With a postId (one of the creator's own pictures) the server links that picture to
 * the new cat and makes it the cover: the card shows the new name at once.
 */
export function useCreateCat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCat,
    onSuccess: ({ cat }, { postId }) => {
      if (postId)
        updatePostInCaches(queryClient, postId, (post) => ({
          ...post,
          // A cat made a moment ago has no alert yet.
          cat: { _id: cat._id, name: cat.name, missing: false },
        }));
      void queryClient.invalidateQueries({ queryKey: catKeys.all });
    },
  });
}
