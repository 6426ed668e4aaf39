import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import type { CommentsResponse } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { commentKeys } from './query-keys.ts';

/** The newest page of a post's comments, or the page before `before` (issue 24). */
export const getComments = (postId: string, before: string | null, signal?: AbortSignal) =>
  api<CommentsResponse>(
    `/api/posts/getComments/${encodeURIComponent(postId)}${before ? `?before=${encodeURIComponent(before)}` : ''}`,
    { signal },
  );

/** The cache holds the newest page first; each further page is an earlier one. */
export type CommentPages = InfiniteData<CommentsResponse, unknown>;

/**
 * Comments load only once a card's comments are opened (spec section 2): the newest page, then
 * earlier pages on 'Show earlier comments'.
 */
export function useComments(postId: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: commentKeys.post(postId),
    queryFn: ({ pageParam, signal }) => getComments(postId, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.info.before,
    enabled,
  });
}

/** The loaded comments in reading order: the earliest loaded page first, each page oldest first. */
export const commentsInOrder = (data: CommentPages) => [...data.pages].reverse().flatMap((p) => p.comments);
