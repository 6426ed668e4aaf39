import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CatSuggestionsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { catKeys } from '../../../components/cats/api/query-keys.ts';
import { decimalText } from './create-post.ts';

type Point = { latitude: number; longitude: number };

const nearText = (near: Point) => `${decimalText(near.latitude)},${decimalText(near.longitude)}`;

export const getCatSuggestions = (near: Point, signal?: AbortSignal) =>
  api<CatSuggestionsResponse>(`/api/cats/suggestions?near=${encodeURIComponent(nearText(near))}`, {
    signal,
  });

/**
 * GET /api/cats/suggestions?near=: the cats seen near the photo's place lately ('Which cat is this?',
 * issue 26). Nothing is asked without a place. While a corrected place loads, the last answer stays.
 */
export function useCatSuggestions(near: Point | null) {
  return useQuery({
    queryKey: [...catKeys.all, 'suggestions', near ? nearText(near) : null],
    queryFn: ({ signal }) => getCatSuggestions(near!, signal),
    enabled: near !== null,
    placeholderData: keepPreviousData,
  });
}
