import { useQuery } from '@tanstack/react-query';
import type { CatResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import type { OfferedCat } from '../components/cat-suggestions.tsx';
import { catKeys } from '../../../components/cats/api/query-keys.ts';
import { getMissingAlert } from '../../../components/missing/api/get-missing-alert.ts';
import { missingKeys } from '../../../components/missing/api/query-keys.ts';

export const getCat = (catId: string, signal?: AbortSignal) =>
  api<CatResponse>(`/api/cats/${encodeURIComponent(catId)}`, { signal });

/**
 * The cat named in /spot?cat=… ('I saw this cat', issue 26), as a summary for the Spot form. Shares its
 * cache entries with the cat's page (the same answers of GET /api/cats/{catId} and of its alert, GET
 * /api/cats/{catId}/missing). An unknown id is no cat. Whether it is missing decides whether a household
 * cat may be offered to someone who does not care for it (decision 022); an alert that fails to load
 * counts as none, and the cat waits for it so that the form does not change its mind.
 */
export function useSpottedCat(catId: string | null) {
  const enabled = catId !== null && catId !== '';
  const cat = useQuery({
    queryKey: catKeys.detail(catId ?? ''),
    queryFn: ({ signal }) => getCat(catId!, signal),
    enabled,
    retry: false,
  });
  const alert = useQuery({
    queryKey: missingKeys.alert(catId ?? ''),
    queryFn: ({ signal }) => getMissingAlert(catId!, signal),
    enabled,
    retry: false,
  });
  const found = cat.data?.cat;
  const data: OfferedCat | undefined =
    found && !alert.isPending
      ? {
          _id: found._id,
          name: found.name,
          cover: found.cover,
          living: found.living,
          viewerIsCaretaker: found.viewer.isCaretaker,
          missing: (alert.data?.alert ?? null) !== null,
        }
      : undefined;
  return { data };
}
