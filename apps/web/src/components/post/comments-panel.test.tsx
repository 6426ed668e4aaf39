import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { Comment, CommentsResponse } from '@cats/contracts';
import { authStore } from '../../lib/auth-store.ts';
import { CommentsPanel } from './comments-panel.tsx';

const comment = (id: string, text: string): Comment => ({
  _id: id,
  comment: text,
  user: { _id: 'me', username: 'me' },
  createdAt: '2026-11-24T12:00:00Z',
  canDelete: true,
});
const list = (...comments: Comment[]): CommentsResponse => ({
  postId: 'p1',
  comments,
  commentCount: comments.length,
  info: { before: null },
});
/** A page that has earlier comments before it, reached with `?before=cursor`. */
const pageWithEarlier = (cursor: string, total: number, ...comments: Comment[]): CommentsResponse => ({
  ...list(...comments),
  commentCount: total,
  info: { before: cursor },
});

/**
 * A server in miniature: GET getComments waits until the test answers it; the writes answer at once
 * with the list after the write.
 */
function server(afterWrite: CommentsResponse) {
  const gets: ((res: Response) => void)[] = [];
  const fetchMock = vi.fn((url: string, init?: RequestInit) => {
    if (url.startsWith('/api/posts/getComments/'))
      return new Promise<Response>((resolve, reject) => {
        gets.push(resolve);
        // Like the browser's fetch: an aborted request rejects, and its answer is never read.
        init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
      });
    return Promise.resolve(Response.json(afterWrite));
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    /** Answers the oldest GET still waiting (an aborted one ignores its answer, as a browser does). */
    answerGet: async (data: CommentsResponse) => {
      await waitFor(() => expect(gets.length).toBeGreaterThan(0));
      await act(async () => gets.shift()!(Response.json(data)));
    },
  };
}

function renderPanel() {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <CommentsPanel postId="p1" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return client;
}

async function post(text: string) {
  fireEvent.change(screen.getByLabelText('Add a comment'), { target: { value: text } });
  fireEvent.click(screen.getByRole('button', { name: 'Post' }));
  await waitFor(() => expect(screen.getByText(text)).toBeTruthy());
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  authStore.clear();
});

describe('CommentsPanel', () => {
  it('keeps a comment posted while the first load of the list is still on its way', async () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    const api = server(list(comment('c1', 'Posted before the list came')));
    const client = renderPanel();
    expect(screen.getByText('Loading comments...')).toBeTruthy();

    await post('Posted before the list came');
    expect(screen.getByLabelText<HTMLInputElement>('Add a comment').value).toBe('');

    // The GET was read before the comment was written: its answer must not replace the newer list.
    await api.answerGet(list());
    await waitFor(() => expect(client.isFetching()).toBe(0));
    expect(screen.queryByText('No comments yet.')).toBeNull();
    expect(screen.getByText('Posted before the list came')).toBeTruthy();
    expect(
      api.fetchMock.mock.calls.filter(([url]) => url.startsWith('/api/posts/createComment/p1')),
    ).toHaveLength(1);
  });

  it('keeps the list after a deletion when an older load answers late', async () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    const api = server(list());
    const client = renderPanel();
    await api.answerGet(list(comment('c1', 'Soon gone')));
    await screen.findByText('Soon gone');

    // The list is loaded again (blocking a user invalidates every list), and the deletion overtakes it.
    act(() => void client.invalidateQueries({ queryKey: ['comments', 'p1'] }));
    await waitFor(() => expect(api.fetchMock).toHaveBeenCalledTimes(2));
    fireEvent.click(screen.getByRole('button', { name: 'Delete comment by me' }));
    await waitFor(() => expect(screen.getByText('No comments yet.')).toBeTruthy());
    await api.answerGet(list(comment('c1', 'Soon gone')));
    await waitFor(() => expect(client.isFetching()).toBe(0));
    expect(screen.queryByText('Soon gone')).toBeNull();
    expect(screen.getByText('No comments yet.')).toBeTruthy();
  });

  it('shows the newest page, loads earlier pages above it, and goes back to the newest page after a comment', async () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    const api = server(
      pageWithEarlier('cursor-new', 4, comment('c3', 'Third'), comment('c4', 'Just posted')),
    );
    renderPanel();
    await api.answerGet(pageWithEarlier('cursor-1', 3, comment('c2', 'Second'), comment('c3', 'Third')));
    await screen.findByText('Third');
    expect(screen.queryByText('First')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Show earlier comments' }));
    await waitFor(() =>
      expect(api.fetchMock).toHaveBeenLastCalledWith(
        '/api/posts/getComments/p1?before=cursor-1',
        expect.anything(),
      ),
    );
    await api.answerGet(list(comment('c1', 'First')));
    await screen.findByText('First');
    // Reading order: the earlier page above the newest, and no further button once the first is there.
    const texts = () => screen.getAllByRole('listitem').map((li) => li.querySelector('p')?.textContent);
    expect(texts()).toEqual(['First', 'Second', 'Third']);
    expect(screen.queryByRole('button', { name: 'Show earlier comments' })).toBeNull();

    // Spec section 4: the answer to a comment (now the newest page) replaces the list.
    await post('Just posted');
    expect(texts()).toEqual(['Third', 'Just posted']);
    expect(screen.getByRole('button', { name: 'Show earlier comments' })).toBeTruthy();
  });
});
