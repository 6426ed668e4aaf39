import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth-store.ts';
import { showToast } from '../../toast.tsx';
import { removePostsFromCaches } from './post-cache.ts';
import { undoWith } from './undo.ts';
import { refetchAfterWrite } from '../../../lib/refetch-after-write.ts';

export const hidePost = (postId: string, currentUserId: string | null) =>
  api<unknown>(`/api/posts/hidePost/${encodeURIComponent(postId)}`, {
    method: 'PUT',
    body: { currentUserId },
  });

export const unhidePost = (postId: string) =>
  api<unknown>(`/api/posts/hidePost/${encodeURIComponent(postId)}`, { method: 'DELETE' });

/**
 * Hides a post for the viewer: it leaves every list at once (spec section 4), and a toast says so with
 * an Undo (issue 24).
 */
export function useHidePost() {
  const queryClient = useQueryClient();
  const { userId } = useAuth();
  return useMutation({
    mutationFn: (postId: string) => hidePost(postId, userId),
    onSuccess: (_data, postId) => {
      removePostsFromCaches(queryClient, (p) => p._id === postId);
      showToast({
        message: 'Post hidden. You can find it in Settings, under Hidden pictures.',
        action: { label: 'Undo', onAction: () => void undoWith(queryClient, () => unhidePost(postId)) },
      });
    },
  });
}

/** Unhides a post (the Hidden pictures list): it comes back wherever it belongs, so lists reload. */
export function useUnhidePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unhidePost,
    onSuccess: () => refetchAfterWrite(queryClient),
  });
}
