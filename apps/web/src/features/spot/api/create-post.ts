import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendPost, type NewPost } from '../../../lib/upload-queue/new-post.ts';
import { catKeys } from '../../../components/cats/api/query-keys.ts';

export { decimalText, toFormData, type NewPost } from '../../../lib/upload-queue/new-post.ts';

/**
 * POST /api/posts/createPost with the sighting's idempotency key (issue 28); afterwards the feed starts
 * again from the top, where the new post is, and a cat it shows has a new sighting (its page, counts and
 * the suggestions load again).
 */
export function useCreatePost(onProgress: (fraction: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ post, key }: { post: NewPost; key: string }) => sendPost(post, key, onProgress),
    onSuccess: async (_answer, { post: { catId } }) => {
      await queryClient.resetQueries({ queryKey: ['feed'] });
      await queryClient.invalidateQueries({ queryKey: ['profile-posts'] });
      await queryClient.invalidateQueries({ queryKey: ['explore'] });
      if (catId) await queryClient.invalidateQueries({ queryKey: catKeys.all });
    },
  });
}
