import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Post, UserSummary } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth-store.ts';
import { showToast } from '../../toast.tsx';
import { commentKeys } from './query-keys.ts';
import { removePostsFromCaches } from './post-cache.ts';
import { undoWith } from './undo.ts';
import { refetchAfterWrite } from '../../../lib/refetch-after-write.ts';

export const blockUser = (currentUserId: string | null, blockedUser: Post['user'], postId?: string) =>
  api<unknown>('/api/profile/blockUser/', { method: 'PUT', body: { currentUserId, blockedUser, postId } });

export const unblockUser = (userId: string) =>
  api<unknown>(`/api/profile/blockUser/${encodeURIComponent(userId)}`, { method: 'DELETE' });

export interface BlockRequest {
  user: UserSummary;
  /** The post the block came from (the card's menu); none from a profile. */
  postId?: string;
  /** Called when the toast's Undo has unblocked them (the profile page shows them again). */
  onUndone?: () => void;
}

/**
 * Blocks a user: all of their posts leave every list, their comments are reloaded away, and a toast
 * says so with an Undo (issue 24).
 */
export function useBlockUser() {
  const queryClient = useQueryClient();
  const { userId } = useAuth();
  return useMutation({
    mutationFn: ({ user, postId }: BlockRequest) => blockUser(userId, user, postId),
    onSuccess: (_data, request) => {
      removePostsFromCaches(queryClient, (p) => p.user._id === request.user._id);
      void queryClient.invalidateQueries({ queryKey: commentKeys.all });
      showToast({
        message: `You blocked ${request.user.username}.`,
        action: {
          label: 'Undo',
          onAction: () => void undoWith(queryClient, () => unblockUser(request.user._id), request.onUndone),
        },
      });
    },
  });
}

/** Unblocks a user: their posts and comments come back, so every list is loaded again. */
export function useUnblockUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unblockUser,
    onSuccess: () => refetchAfterWrite(queryClient),
  });
}
