import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CatResponse, UpdateCatRequest } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { catKeys } from '../../../components/cats/api/query-keys.ts';

export const updateCat = (catId: string, changes: UpdateCatRequest) =>
  api<CatResponse>(`/api/cats/${encodeURIComponent(catId)}`, { method: 'PATCH', body: changes });

/**
 * PATCH /api/cats/{catId} (caretakers): the server's cat replaces the page's. A new name shows on the
 * cards too, which hold it in their post: the lists reload what is on screen.
 */
export function useUpdateCat(catId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: UpdateCatRequest) => updateCat(catId, changes),
    onSuccess: (data, changes) => {
      queryClient.setQueryData(catKeys.detail(catId), data);
      void queryClient.invalidateQueries({ queryKey: catKeys.all, refetchType: 'none' });
      if (changes.name !== undefined) void queryClient.invalidateQueries();
    },
  });
}
