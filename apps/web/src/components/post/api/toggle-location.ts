import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth-store.ts';
import { updatePostInCaches } from './post-cache.ts';

interface ToggleLocationResponse {
  updatedPost: { _id: string; showLocation: boolean };
}

export const toggleLocation = (postId: string, currentUserId: string | null) =>
  api<ToggleLocationResponse>(`/api/posts/toggleLocation/${encodeURIComponent(postId)}`, {
    method: 'PUT',
    body: { currentUserId },
  });

/** Own posts only; the server's updated post replaces showLocation (spec section 4). */
export function useToggleLocation() {
  const queryClient = useQueryClient();
  const { userId } = useAuth();
  return useMutation({
    mutationFn: (postId: string) => toggleLocation(postId, userId),
    onSuccess: ({ updatedPost }) => {
      updatePostInCaches(queryClient, updatedPost._id, (p) => ({
        ...p,
        showLocation: updatedPost.showLocation,
      }));
      // The map shows located posts only: let it reload.
      void queryClient.invalidateQueries({ queryKey: ['explore'] });
    },
  });
}
