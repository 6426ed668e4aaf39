import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { PagedPostsResponse, Post } from '@cats/contracts';

/**
 * The same post can sit in several caches at once (feed, profiles, explore, group feeds). Rather than
 * knowing every feature's query key, these helpers patch any cached value shaped like a post list:
 * an infinite list of pages `{posts}` or a single `{posts}`.
 */
type PostList = { posts: Post[] };
type CachedPosts = InfiniteData<PostList> | PostList;

const isPostList = (value: unknown): value is PostList =>
  typeof value === 'object' && value !== null && Array.isArray((value as PostList).posts);

const isInfinitePostList = (value: unknown): value is InfiniteData<PostList> =>
  typeof value === 'object' &&
  value !== null &&
  Array.isArray((value as InfiniteData<unknown>).pages) &&
  (value as InfiniteData<unknown>).pages.every(isPostList);

export const holdsPosts = (value: unknown): value is CachedPosts =>
  isPostList(value) || isInfinitePostList(value);

function mapPosts(data: CachedPosts, fn: (posts: Post[]) => Post[]): CachedPosts {
  if (isInfinitePostList(data))
    return { ...data, pages: data.pages.map((p) => ({ ...p, posts: fn(p.posts) })) };
  return { ...data, posts: fn(data.posts) };
}

function patchAll(queryClient: QueryClient, fn: (posts: Post[]) => Post[]) {
  queryClient.setQueriesData<CachedPosts>({ predicate: (q) => holdsPosts(q.state.data) }, (data) =>
    data && holdsPosts(data) ? mapPosts(data, fn) : data,
  );
  patchWhenLoaded(queryClient, fn);
}

/**
 * A list that is loading while a post changes was read before the change, and would put the old post
 * back when it lands: a like would undo itself on screen as the feed's next page arrived (an infinite
 * list keeps the pages it had when that page was asked for). Each such load gets the change again as
 * it lands. The changes are fixed values (the server's like list, a count), so applying one twice is
 * harmless, and later changes register later, so they land last.
 */
function patchWhenLoaded(queryClient: QueryClient, fn: (posts: Post[]) => Post[]) {
  const cache = queryClient.getQueryCache();
  const loading = new Set(cache.findAll({ fetchStatus: 'fetching' }));
  if (loading.size === 0) return;
  const unsubscribe = cache.subscribe((event) => {
    if (!loading.has(event.query)) return;
    // Only the load's own outcome counts: other events about the query are delivered later than they
    // happen, so its state when they arrive says nothing about them.
    if (event.type === 'updated') {
      const { action } = event;
      if (action.type === 'success' && !action.manual) {
        loading.delete(event.query);
        const data: unknown = event.query.state.data;
        if (holdsPosts(data)) queryClient.setQueryData<CachedPosts>(event.query.queryKey, mapPosts(data, fn));
      } else if (
        action.type === 'error' ||
        (action.type === 'setState' && action.state.fetchStatus === 'idle')
      ) {
        loading.delete(event.query); // failed or cancelled: nothing arrived that could be stale
      }
    } else if (event.type === 'removed') {
      loading.delete(event.query);
    }
    if (loading.size === 0) unsubscribe();
  });
}

/** Applies `update` to the post with this id wherever it is cached. */
export function updatePostInCaches(
  queryClient: QueryClient,
  postId: string,
  update: (post: Post) => Post,
): void {
  patchAll(queryClient, (posts) => posts.map((p) => (p._id === postId ? update(p) : p)));
}

/** Removes every cached post matching `drop` (a hidden post, a blocked author's posts). */
export function removePostsFromCaches(queryClient: QueryClient, drop: (post: Post) => boolean): void {
  patchAll(queryClient, (posts) => posts.filter((p) => !drop(p)));
}

/** The cached copy of a post, from whichever list holds it. */
export function findCachedPost(queryClient: QueryClient, postId: string): Post | undefined {
  for (const query of queryClient.getQueryCache().findAll({ predicate: (q) => holdsPosts(q.state.data) })) {
    const data = query.state.data as CachedPosts;
    const lists = isInfinitePostList(data) ? data.pages : [data];
    for (const list of lists) {
      const found = list.posts.find((p) => p._id === postId);
      if (found) return found;
    }
  }
  return undefined;
}

/** Flattens an infinite list's pages, keeping the first copy of any post seen twice. */
export function flattenPages(data: InfiniteData<Pick<PagedPostsResponse, 'posts'>> | undefined): Post[] {
  if (!data) return [];
  const seen = new Set<string>();
  const out: Post[] = [];
  for (const page of data.pages) {
    for (const post of page.posts) {
      if (seen.has(post._id)) continue;
      seen.add(post._id);
      out.push(post);
    }
  }
  return out;
}
