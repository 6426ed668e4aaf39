import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { LikersResponse } from '@cats/contracts';
import { authStore } from '../../lib/auth-store.ts';
import { LikeButton } from './like-button.tsx';
import { testPost } from './test-post.ts';
import { loadLanguage } from '../../i18n/i18n-store.ts';

const base = testPost('p1', { greatCat: ['someone'] });

/** A list screen in miniature: the card re-renders from the cache. */
function Harness() {
  const { data } = useQuery({
    queryKey: ['feed-test'],
    queryFn: () => Promise.resolve({ posts: [base] }),
    staleTime: Infinity,
  });
  const post = data?.posts[0];
  return post ? <LikeButton post={post} /> : null;
}

function setup() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  client.setQueryData(['feed-test'], { posts: [base] });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <Harness />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return screen.getByRole('button', { name: /^Like/ });
}
/** The count beside the heart: its own button, which opens 'Liked by'. */
const countButton = () => screen.getByRole('button', { name: /^See who liked/ });

/** A fetch whose answer the test decides later. */
function heldFetch() {
  let answer: (res: Response) => void = () => {};
  const fetchMock = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, answer: (res: Response) => act(() => answer(res)) };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.spyOn(console, 'error').mockRestore();
  authStore.clear();
});

describe('LikeButton', () => {
  it("counts the like at once and keeps the server's list", async () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    const held = heldFetch();
    const button = setup();
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(countButton().textContent).toBe('1');
    fireEvent.click(button);
    await waitFor(() => expect(button.getAttribute('aria-pressed')).toBe('true'));
    expect(countButton().textContent).toBe('2');
    expect(button.getAttribute('aria-label')).toBe('Like, 2 likes');
    expect(held.fetchMock).toHaveBeenCalledWith(
      '/api/posts/likePost/p1',
      expect.objectContaining({ method: 'PUT' }),
    );
    await held.answer(Response.json({ updatedPost: { _id: 'p1', greatCat: ['someone', 'me', 'other'] } }));
    await waitFor(() => expect(countButton().textContent).toBe('3'));
  });

  it('puts the previous likes back when the server refuses', async () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const held = heldFetch();
    const button = setup();
    fireEvent.click(button);
    await waitFor(() => expect(countButton().textContent).toBe('2'));
    await held.answer(Response.json({ message: 'Nope' }, { status: 500 }));
    await waitFor(() => expect(countButton().textContent).toBe('1'));
    expect(button.getAttribute('aria-pressed')).toBe('false');
  });

  it("opens 'Liked by' from the count: names linking to profiles, a page at a time", async () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    const pages: Record<string, LikersResponse> = {
      '/api/posts/p1/likes': {
        postId: 'p1',
        users: [{ _id: 'u2', username: 'Bella' }],
        info: { nextCursor: 'next page' },
      },
      '/api/posts/p1/likes?cursor=next%20page': {
        postId: 'p1',
        users: [{ _id: 'u1', username: 'Tom' }],
        info: { nextCursor: null },
      },
    };
    const fetchMock = vi.fn((url: string) => Promise.resolve(Response.json(pages[url])));
    vi.stubGlobal('fetch', fetchMock);
    setup();
    fireEvent.click(countButton());

    const dialog = await screen.findByRole('dialog', { name: 'Liked by' });
    const bella = await screen.findByRole('link', { name: 'Bella' });
    expect(dialog.contains(bella)).toBe(true);
    expect(bella.getAttribute('href')).toBe('/profile/u2');
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    const tom = await screen.findByRole('link', { name: 'Tom' });
    expect(tom.getAttribute('href')).toBe('/profile/u1');
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(Object.keys(pages));

    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('offers no list while nobody likes the post', () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    heldFetch();
    const client = new QueryClient();
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <LikeButton post={{ ...base, greatCat: [] }} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const count = screen.getByRole<HTMLButtonElement>('button', { name: 'See who liked: 0 people' });
    expect(count.textContent).toBe('0');
    expect(count.disabled).toBe(true);
  });
});

describe('LikeButton in Spanish', () => {
  afterEach(async () => {
    cleanup();
    await act(() => loadLanguage('en'));
  });

  it('labels the heart and the count in Spanish', async () => {
    await act(() => loadLanguage('es'));

    const client = new QueryClient();
    client.setQueryData(['feed-test'], { posts: [base] });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <Harness />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(screen.getByRole('button', { name: 'Me gusta, 1 me gusta' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ver a quién le gusta: 1 persona' })).toBeTruthy();
  });
});
