import { describe, expect, it, vi } from 'vitest';
import { InfiniteQueryObserver, QueryClient, type InfiniteData } from '@tanstack/react-query';
import type { PagedPostsResponse, Post } from '@cats/contracts';
import { testPost } from '../test-post.ts';
import { findCachedPost, flattenPages, removePostsFromCaches, updatePostInCaches } from './post-cache.ts';

const post = (id: string, author: string, extra: Partial<Post> = {}): Post =>
  testPost(id, { user: { _id: author, username: author }, ...extra });
const page = (posts: Post[]): PagedPostsResponse => ({ posts, info: { next: null, nextCursor: null } });

function seeded() {
  const client = new QueryClient();
  client.setQueryData<InfiniteData<PagedPostsResponse>>(['feed'], {
    pages: [page([post('a', 'u1'), post('b', 'u2')]), page([post('c', 'u1')])],
    pageParams: [1, 2],
  });
  client.setQueryData(['explore'], { posts: [post('a', 'u1'), post('d', 'u3')] });
  client.setQueryData(['comments', 'a'], { postId: 'a', comments: [] });
  return client;
}

describe('post caches', () => {
  it('updates a post in every list that holds it, infinite or not', () => {
    const client = seeded();
    updatePostInCaches(client, 'a', (p) => ({ ...p, greatCat: ['me'] }));
    const feed = client.getQueryData<InfiniteData<PagedPostsResponse>>(['feed'])!;
    expect(feed.pages[0]!.posts[0]!.greatCat).toEqual(['me']);
    expect(feed.pages[0]!.posts[1]!.greatCat).toEqual([]);
    expect(client.getQueryData<{ posts: Post[] }>(['explore'])!.posts[0]!.greatCat).toEqual(['me']);
    expect(client.getQueryData(['comments', 'a'])).toEqual({ postId: 'a', comments: [] });
    expect(findCachedPost(client, 'a')!.greatCat).toEqual(['me']);
  });

  it("removes a hidden post, or all of a blocked author's posts, from every list", () => {
    const client = seeded();
    removePostsFromCaches(client, (p) => p.user._id === 'u1');
    const feed = client.getQueryData<InfiniteData<PagedPostsResponse>>(['feed'])!;
    expect(feed.pages.map((p) => p.posts.map((x) => x._id))).toEqual([['b'], []]);
    expect(feed.pageParams).toEqual([1, 2]);
    expect(client.getQueryData<{ posts: Post[] }>(['explore'])!.posts.map((p) => p._id)).toEqual(['d']);
    expect(findCachedPost(client, 'c')).toBeUndefined();
  });

  it('flattens pages keeping the first copy of a repeated post', () => {
    const data = {
      pages: [page([post('a', 'u'), post('b', 'u')]), page([post('b', 'u'), post('c', 'u')])],
      pageParams: [],
    };
    expect(flattenPages(data).map((p) => p._id)).toEqual(['a', 'b', 'c']);
    expect(flattenPages(undefined)).toEqual([]);
  });

  it('keeps a change made while a list was loading: the next page arriving does not bring the old post back', async () => {
    const client = new QueryClient();
    let answerNext: (page: PagedPostsResponse) => void = () => {};
    const observer = new InfiniteQueryObserver(client, {
      queryKey: ['feed'],
      queryFn: ({ pageParam }) =>
        pageParam === 1
          ? Promise.resolve(page([post('a', 'u1')]))
          : new Promise<PagedPostsResponse>((resolve) => (answerNext = resolve)),
      initialPageParam: 1,
      getNextPageParam: (_last, pages) => pages.length + 1,
    });
    const stop = observer.subscribe(() => {});
    await vi.waitFor(() => expect(findCachedPost(client, 'a')).toBeDefined());

    // The second page is asked for, then the viewer likes post a, then the second page arrives.
    const next = observer.fetchNextPage();
    await vi.waitFor(() => expect(client.isFetching()).toBe(1));
    updatePostInCaches(client, 'a', (p) => ({ ...p, greatCat: ['me'] }));
    expect(findCachedPost(client, 'a')?.greatCat).toEqual(['me']);
    answerNext(page([post('b', 'u2')]));
    await next;
    const feed = client.getQueryData<InfiniteData<PagedPostsResponse>>(['feed'])!;
    expect(feed.pages.map((p) => p.posts.map((x) => x._id))).toEqual([['a'], ['b']]);
    expect(findCachedPost(client, 'a')?.greatCat).toEqual(['me']);
    stop();
  });

  it('keeps a hidden post hidden when a list that was loading arrives with it', async () => {
    const client = new QueryClient();
    client.setQueryData(['explore'], { posts: [post('a', 'u1'), post('d', 'u3')] });
    let answer: (data: { posts: Post[] }) => void = () => {};
    const loading = client.fetchQuery({
      queryKey: ['explore'],
      queryFn: () => new Promise<{ posts: Post[] }>((resolve) => (answer = resolve)),
      staleTime: 0,
    });
    removePostsFromCaches(client, (p) => p._id === 'a');
    answer({ posts: [post('a', 'u1'), post('d', 'u3')] });
    await loading;
    expect(client.getQueryData<{ posts: Post[] }>(['explore'])!.posts.map((p) => p._id)).toEqual(['d']);
  });
});
