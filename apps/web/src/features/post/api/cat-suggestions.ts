import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AcceptCatSuggestionResponse,
  PostCatSuggestionsResponse,
  MessageResponse,
} from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { showLinkedCat } from '../../../components/cats/api/link-post-cat.ts';

const suggestionsKey = (postId: string) => ['cat-suggestions', postId] as const;
const base = (postId: string) => `/api/posts/${encodeURIComponent(postId)}/cat-suggestions`;

export const getCatSuggestions = (postId: string, signal?: AbortSignal) =>
  api<PostCatSuggestionsResponse>(base(postId), { signal });

/** GET /api/posts/{postId}/cat-suggestions: the open suggestions on one's own picture. */
export function useCatSuggestions(postId: string) {
  return useQuery({
    queryKey: suggestionsKey(postId),
    queryFn: ({ signal }) => getCatSuggestions(postId, signal),
    select: (data) => data.suggestions,
  });
}

export const acceptCatSuggestion = (postId: string, suggestionId: string) =>
  api<AcceptCatSuggestionResponse>(`${base(postId)}/${encodeURIComponent(suggestionId)}/accept`, {
    method: 'POST',
  });
export const declineCatSuggestion = (postId: string, suggestionId: string) =>
  api<MessageResponse>(`${base(postId)}/${encodeURIComponent(suggestionId)}/decline`, { method: 'POST' });

/**
 * Accept or decline a suggestion. Accepted, the picture shows the cat wherever it is cached (as after
 * 'Which cat is this?'), and the cats' pages reload; either way the list is read again.
 */
export function useAnswerCatSuggestion(postId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ suggestionId, accept }: { suggestionId: string; accept: boolean }) =>
      accept ? acceptCatSuggestion(postId, suggestionId) : declineCatSuggestion(postId, suggestionId),
    onSuccess: (answer) => {
      if ('updatedPost' in answer) {
        showLinkedCat(queryClient, (answer as AcceptCatSuggestionResponse).updatedPost);
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: suggestionsKey(postId) }),
  });
}
