import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { CatHistoryResponse, CatsResponse, MergeCatsResponse, UndoMergeResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { catKeys } from '../../../components/cats/api/query-keys.ts';
import { refetchAfterWrite } from '../../../lib/refetch-after-write.ts';

const catPath = (catId: string) => `/api/cats/${encodeURIComponent(catId)}`;
const historyKey = (catId: string) => [...catKeys.all, 'history', catId] as const;

export const getCatHistory = (catId: string, cursor: string | null, signal?: AbortSignal) => {
  const query = new URLSearchParams();
  if (cursor) query.set('cursor', cursor);
  return api<CatHistoryResponse>(`${catPath(catId)}/history?${query}`, { signal });
};

/** GET /api/cats/{catId}/history?cursor=: its merges and their undos, newest first, page by page. */
export function useCatHistory(catId: string) {
  return useInfiniteQuery({
    queryKey: historyKey(catId),
    queryFn: ({ pageParam, signal }) => getCatHistory(catId, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.info.nextCursor ?? undefined,
    select: (data) => data.pages.flatMap((page) => page.merges),
  });
}

export const getCaredForCats = (q: string, signal?: AbortSignal) => {
  const query = new URLSearchParams({ caredFor: 'true' });
  if (q) query.set('q', q);
  return api<CatsResponse>(`/api/cats?${query}`, { signal });
};

/** GET /api/cats?caredFor=true&q=: the cats the viewer cares for, a merge's duplicate among them. */
export function useCaredForCats(q: string) {
  return useQuery({
    queryKey: [...catKeys.all, 'cared-for', q],
    queryFn: ({ signal }) => getCaredForCats(q, signal),
    select: (data) => data.cats,
    placeholderData: keepPreviousData,
  });
}

export const mergeCats = (catId: string, duplicateCatId: string) =>
  api<MergeCatsResponse>(`${catPath(catId)}/merge`, { method: 'POST', body: { duplicateCatId } });
export const undoMerge = (catId: string, mergeId: string) =>
  api<UndoMergeResponse>(`${catPath(catId)}/merges/${encodeURIComponent(mergeId)}/undo`, {
    method: 'POST',
  });

/**
 * POST /api/cats/{catId}/merge and its undo: sightings, followers and caretakers move between two
 * cats, so everything about cats on screen (pages, timelines, maps, lists, the history) reloads, and
 * the cards, which name the cat of each picture, with them.
 */
export function useMergeCats(catId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (duplicateCatId: string) => mergeCats(catId, duplicateCatId),
    onSuccess: () => refetchAfterWrite(queryClient),
  });
}

export function useUndoMerge(catId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mergeId: string) => undoMerge(catId, mergeId),
    onSuccess: () => refetchAfterWrite(queryClient),
  });
}
