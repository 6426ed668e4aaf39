import { useQuery } from '@tanstack/react-query';
import type { CatResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import type { OfferedCat } from '../components/cat-suggestions.tsx';
import { catKeys } from '../../../components/cats/api/query-keys.ts';

export const getCat = (catId: string, signal?: AbortSignal) =>
  api<CatResponse>(`/api/cats/${encodeURIComponent(catId)}`, { signal });

/**
 * The cat named in /spot?cat=… ('I saw this cat', issue 26), as a summary for the Spot form. Shares its
 * cache entry with the cat's page (the same answer of GET /api/cats/{catId}). An unknown id is no cat.
 */
export function useSpottedCat(catId: string | null) {
  return useQuery({
    queryKey: catKeys.detail(catId ?? ''),
    queryFn: ({ signal }) => getCat(catId!, signal),
    enabled: catId !== null && catId !== '',
    select: ({ cat }): OfferedCat => ({
      _id: cat._id,
      name: cat.name,
      cover: cat.cover,
      living: cat.living,
      viewerIsCaretaker: cat.viewer.isCaretaker,
    }),
    retry: false,
  });
}
