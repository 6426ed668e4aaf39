import { useQuery } from '@tanstack/react-query';
import type { CatResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { catKeys } from '../../../components/cats/api/query-keys.ts';

export const getCat = (catId: string, signal?: AbortSignal) =>
  api<CatResponse>(`/api/cats/${encodeURIComponent(catId)}`, { signal });

/** GET /api/cats/{catId}: the cat as this viewer may see it, with what they may do with it. */
export function useCat(catId: string) {
  return useQuery({
    queryKey: catKeys.detail(catId),
    queryFn: ({ signal }) => getCat(catId, signal),
    select: (data) => data.cat,
  });
}
