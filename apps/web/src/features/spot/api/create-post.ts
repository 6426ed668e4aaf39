import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Post } from '@cats/contracts';
import { apiUpload } from '../../../lib/api-client.ts';
import { catKeys } from '../../../components/cats/api/query-keys.ts';

export interface NewPost {
  image: Blob;
  catName: string;
  comment: string;
  /** The photo described for people who cannot see it; empty for none. */
  altText: string;
  /** Sent only when both are numbers and the switch is on (spec section 5). */
  coordinates: { latitude: number; longitude: number } | null;
  showLocation: boolean;
  exifData: Record<string, unknown>;
  groupIds: string[];
  /** The cat the picture shows, chosen in 'Which cat is this?' (issue 26); null for none. */
  catId: string | null;
}

export function toFormData(post: NewPost): FormData {
  const form = new FormData();
  // Fields first: the server reads them before the file streams in.
  form.append('catName', post.catName.trim());
  form.append('comment', post.comment.trim());
  form.append('altText', post.altText.trim());
  form.append('latitude', post.coordinates ? decimalText(post.coordinates.latitude) : '');
  form.append('longitude', post.coordinates ? decimalText(post.coordinates.longitude) : '');
  form.append('showLocation', String(post.coordinates !== null && post.showLocation));
  form.append('exifData', JSON.stringify(post.exifData));
  if (post.groupIds.length > 0) form.append('groupIds', JSON.stringify(post.groupIds));
  if (post.catId) form.append('catId', post.catId);
  form.append('file', post.image, 'cat.jpg');
  return form;
}

export const createPost = (post: NewPost, onProgress: (fraction: number) => void) =>
  apiUpload<{ message: string; post: Post }>('/api/posts/createPost', toFormData(post), { onProgress });

/**
 * POST /api/posts/createPost; afterwards the feed starts again from the top, where the new post is, and
 * a cat it shows has a new sighting (its page, counts and the suggestions load again).
 */
export function useCreatePost(onProgress: (fraction: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (post: NewPost) => createPost(post, onProgress),
    onSuccess: async (_answer, { catId }) => {
      await queryClient.resetQueries({ queryKey: ['feed'] });
      await queryClient.invalidateQueries({ queryKey: ['profile-posts'] });
      await queryClient.invalidateQueries({ queryKey: ['explore'] });
      if (catId) await queryClient.invalidateQueries({ queryKey: catKeys.all });
    },
  });
}

/**
 * A coordinate as the plain decimal the server accepts (it refuses `1e-7`, `0x10` and the like: issue
 * 23). String() writes numbers under 1e-6 with an exponent; 7 decimals are ~1 cm.
 */
export function decimalText(value: number): string {
  return value.toFixed(7).replace(/\.?0+$/, '');
}
