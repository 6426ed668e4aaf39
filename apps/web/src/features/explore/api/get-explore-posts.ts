import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { Post } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { exploreKeys } from './get-explore.ts';

/** GET /api/explore/posts: the detail card's posts, shaped {posts} so likes patch them like any list. */
export const getExplorePosts = (ids: readonly string[], signal?: AbortSignal) =>
  api<{ posts: Post[] }>(`/api/explore/posts?ids=${ids.map(encodeURIComponent).join(',')}`, { signal });

/**
 * A card loaded in the last 10 s (by a hover, or opened before) is shown as it is; an older one is
 * shown and refreshed. The card's own likes and comments patch it meanwhile.
 */
const explorePostsQuery = (ids: readonly string[]) => ({
  queryKey: exploreKeys.posts(ids),
  queryFn: ({ signal }: { signal: AbortSignal }) => getExplorePosts(ids, signal),
  staleTime: 10_000,
});

/** The detail card's posts. */
export function useExplorePosts(ids: readonly string[]) {
  return useQuery({ ...explorePostsQuery(ids), enabled: ids.length > 0 });
}

/** Starts loading a marker's card when the pointer comes over it, so a click usually finds it loaded. */
export function prefetchExplorePost(queryClient: QueryClient, postId: string): void {
  void queryClient.prefetchQuery(explorePostsQuery([postId]));
}
