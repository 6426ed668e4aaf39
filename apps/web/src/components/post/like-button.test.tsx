import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import type { Post } from '@cats/contracts';
import { authStore } from '../../lib/auth-store.ts';
import { LikeButton } from './like-button.tsx';

const base: Post = {
  _id: 'p1',
  user: { _id: 'author', username: 'author' },
  imageUrl: '',
  image: { width: 1, height: 1, placeholder: '', variants: {} },
  caption: '',
  catName: null,
  altText: null,
  greatCat: ['someone'],
  latitude: null,
  longitude: null,
  showLocation: false,
  locationPrecision: null,
  commentCount: 0,
  createdAt: '2024-01-01T00:00:00Z',
  editedAt: null,
};

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
      <Harness />
    </QueryClientProvider>,
  );
  return screen.getByRole('button', { name: /^Like/ });
}

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
    expect(button.textContent).toBe('1');
    fireEvent.click(button);
    await waitFor(() => expect(button.getAttribute('aria-pressed')).toBe('true'));
    expect(button.textContent).toBe('2');
    expect(held.fetchMock).toHaveBeenCalledWith(
      '/api/posts/likePost/p1',
      expect.objectContaining({ method: 'PUT' }),
    );
    await held.answer(Response.json({ updatedPost: { _id: 'p1', greatCat: ['someone', 'me', 'other'] } }));
    await waitFor(() => expect(button.textContent).toBe('3'));
  });

  it('puts the previous likes back when the server refuses', async () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const held = heldFetch();
    const button = setup();
    fireEvent.click(button);
    await waitFor(() => expect(button.textContent).toBe('2'));
    await held.answer(Response.json({ message: 'Nope' }, { status: 500 }));
    await waitFor(() => expect(button.textContent).toBe('1'));
    expect(button.getAttribute('aria-pressed')).toBe('false');
  });
});
