import { useQuery } from '@tanstack/react-query';
import type { PostDetail } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';

export const getPost = (postId: string, signal?: AbortSignal) =>
  api<PostDetail>(`/api/posts/${encodeURIComponent(postId)}`, { signal });

/**
 * The post page's post. Cached as a one-post list, the shape every post cache has: a like, a new
 * comment or the location switch patches it wherever it is made (components/post/api/post-cache.ts),
 * and hiding the post or blocking its author takes it out, so the page says it is no longer available.
 */
export function usePost(postId: string) {
  return useQuery({
    queryKey: ['post', postId],
    queryFn: async ({ signal }) => ({ posts: [await getPost(postId, signal)] }),
    select: (data) => data.posts[0] ?? null,
  });
}
