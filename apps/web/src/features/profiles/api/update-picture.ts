import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '../../../lib/api-client.ts';
import { refetchAfterWrite } from '../../../lib/refetch-after-write.ts';

interface UpdatePictureResponse {
  profilePicUrl: string;
  avatarUrl: string;
}

export const updatePicture = (image: Blob) => {
  const form = new FormData();
  form.append('file', image, 'profile.jpg');
  return apiUpload<UpdatePictureResponse>('/api/profile/updatePicture', form, { method: 'PUT' });
};

/**
 * PUT /api/profile/updatePicture. The new avatar appears in posts, comments and the app's header, whose
 * queries this feature does not know: everything is marked stale, and what is on screen reloads.
 */
export function useUpdatePicture() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePicture,
    onSuccess: () => refetchAfterWrite(queryClient),
  });
}
