import { useQuery } from '@tanstack/react-query';
import type { CatMapResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { catKeys } from '../../../components/cats/api/query-keys.ts';

export const getCatMap = (catId: string, signal?: AbortSignal) =>
  api<CatMapResponse>(`/api/cats/${encodeURIComponent(catId)}/map`, { signal });

/** The sightings the viewer may place, each exactly or as its ~500 m cell, as the server decides. */
export function useCatMap(catId: string) {
  return useQuery({
    queryKey: catKeys.map(catId),
    queryFn: ({ signal }) => getCatMap(catId, signal),
  });
}
