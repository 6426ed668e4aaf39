import { useQuery } from '@tanstack/react-query';
import type { Post } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { exploreKeys } from './get-explore.ts';

/** GET /api/explore/posts: the detail card's posts, shaped {posts} so likes patch them like any list. */
export const getExplorePosts = (ids: readonly string[], signal?: AbortSignal) =>
  api<{ posts: Post[] }>(`/api/explore/posts?ids=${ids.map(encodeURIComponent).join(',')}`, { signal });

/** `known`: the marker's post from the viewport answer, shown at once instead of waiting. */
export function useExplorePosts(ids: readonly string[], known?: Post) {
  return useQuery({
    queryKey: exploreKeys.posts(ids),
    queryFn: ({ signal }) => getExplorePosts(ids, signal),
    enabled: ids.length > 0,
    ...(known ? { initialData: { posts: [known] } } : {}),
  });
}
