import { useQuery } from '@tanstack/react-query';
import type { Post } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';

export const clusterPostsKey = (clusterId: string) => ['explore', 'cluster', clusterId] as const;

/** GET /api/explore/clusters/{id}/posts: the posts of a spot that zooming cannot split. */
export const getClusterPosts = (clusterId: string, signal?: AbortSignal) =>
  api<{ posts: Post[] }>(`/api/explore/clusters/${encodeURIComponent(clusterId)}/posts`, { signal });

export function useClusterPosts(clusterId: string | null) {
  return useQuery({
    queryKey: clusterPostsKey(clusterId ?? ''),
    queryFn: ({ signal }) => getClusterPosts(clusterId!, signal),
    enabled: clusterId !== null,
  });
}
