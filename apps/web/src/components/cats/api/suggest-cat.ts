import { useMutation } from '@tanstack/react-query';
import type { SuggestCatResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';

export const suggestCat = (postId: string, catId: string) =>
  api<SuggestCatResponse>(`/api/posts/${encodeURIComponent(postId)}/cat-suggestions`, {
    method: 'POST',
    body: { catId },
  });

/**
 * POST /api/posts/{postId}/cat-suggestions: 'This is Luna' on someone else's picture. Nothing on screen
 * changes: the picture's author decides, and the suggester hears back if they agree.
 */
export function useSuggestCat(postId: string) {
  return useMutation({ mutationFn: (catId: string) => suggestCat(postId, catId) });
}
