import { useQuery } from '@tanstack/react-query';
import type { TrashResponse } from '@cats/contracts';
import { trashKeys } from '../../../components/post/api/trash-keys.ts';
import { api } from '../../../lib/api-client.ts';

/** GET /api/posts/trash: the caller's deleted pictures, newest deletion first. */
export function useTrash() {
  return useQuery({
    queryKey: trashKeys.all,
    queryFn: ({ signal }) => api<TrashResponse>('/api/posts/trash', { signal }),
  });
}
