import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import {
  CAT_MESSAGES,
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  type AcceptCatSuggestionResponse,
  type PostCatSuggestion,
  type Post,
} from '@cats/contracts';
import { authStore } from '../../../lib/auth-store.ts';
import { testPost } from '../../../components/post/test-post.ts';
import { clearToasts, ToastRegion } from '../../../components/toast.tsx';
import { CatSuggestions } from './cat-suggestions.tsx';

const suggestion = (id: string, by: string, catId: string, name: string): PostCatSuggestion => ({
  _id: id,
  postId: 'p1',
  cat: { _id: catId, name, cover: null },
  suggestedBy: { _id: by, username: by },
  createdAt: new Date(Date.now() - 3.5 * 3_600_000).toISOString(),
});

type Route = (init: RequestInit) => Response | Promise<Response>;

function setup(routes: Record<string, Route>) {
  authStore.set({ accessToken: 't', userId: 'me' });
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const route = routes[`${init.method ?? 'GET'} ${url}`];
    return route ? route(init) : Response.json({ message: `unexpected ${url}` }, { status: 500 });
  });
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  // The post page's own cache of the picture: an accepted suggestion names the cat there at once.
  client.setQueryData(['post', 'p1'], { posts: [testPost('p1', { user: { _id: 'me', username: 'me' } })] });
  render(
    <MemoryRouter>
      <QueryClientProvider client={client}>
        <CatSuggestions postId="p1" />
        <ToastRegion />
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return { fetchMock, client };
}

afterEach(() => {
  cleanup();
  clearToasts();
  vi.unstubAllGlobals();
  authStore.clear();
});

describe('CatSuggestions on the author’s picture', () => {
  it('says who suggests which cat, and accepting links the picture to it', async () => {
    let open = [suggestion('s1', 'mariposa', 'c1', 'Luna'), suggestion('s2', 'tom', 'c2', 'Milo')];
    const { fetchMock, client } = setup({
      'GET /api/posts/p1/cat-suggestions': () => Response.json({ suggestions: open }),
      'POST /api/posts/p1/cat-suggestions/s1/accept': () => {
        open = [];
        return Response.json({
          message: 'Suggestion accepted',
          updatedPost: { _id: 'p1', cat: { _id: 'c1', name: 'Luna', cover: null, missing: false } },
        } satisfies AcceptCatSuggestionResponse);
      },
    });
    const items = await screen.findAllByRole('listitem');
    // Each a whole sentence, then how long ago.
    expect(items.map((li) => li.querySelector('p')?.textContent)).toEqual([
      'mariposa suggests this is Luna. 3 h',
      'tom suggests this is Milo. 3 h',
    ]);
    expect(within(items[0]!).getByRole('link', { name: 'Luna' }).getAttribute('href')).toBe('/cats/c1');
    // Each button is described by its own sentence: 'Accept' says what it accepts.
    const accept = within(items[0]!).getByRole('button', { name: 'Accept' });
    expect(document.getElementById(accept.getAttribute('aria-describedby')!)?.textContent).toContain(
      'mariposa suggests this is Luna.',
    );
    fireEvent.click(accept);
    expect(await screen.findByText('This picture now shows Luna.')).toBeTruthy();
    expect(
      fetchMock.mock.calls.some(
        ([u, i]) => u === '/api/posts/p1/cat-suggestions/s1/accept' && i?.method === 'POST',
      ),
    ).toBe(true);
    expect(client.getQueryData<{ posts: Post[] }>(['post', 'p1'])?.posts[0]?.cat).toEqual({
      _id: 'c1',
      name: 'Luna',
      missing: false,
    });
    // Answered: the list is read again, and with nothing left to answer the section goes.
    await waitFor(() => expect(screen.queryByRole('heading', { name: /Suggestions/ })).toBeNull());
  });

  it('declines, and keeps a refusal on screen', async () => {
    let open = [suggestion('s1', 'mariposa', 'c1', 'Luna')];
    setup({
      'GET /api/posts/p1/cat-suggestions': () => Response.json({ suggestions: open }),
      'POST /api/posts/p1/cat-suggestions/s1/decline': () => {
        open = [];
        return Response.json({ message: 'Suggestion declined' });
      },
      'POST /api/posts/p1/cat-suggestions/s1/accept': () =>
        Response.json({ message: CAT_MESSAGES.suggestionAnswered }, { status: 409 }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    expect((await screen.findByRole('alert')).textContent).toBe(CAT_MESSAGES.suggestionAnswered);
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    expect(await screen.findByText("You declined mariposa's suggestion.")).toBeTruthy();
  });

  it('shows nothing when there is nothing to answer, and the demo message when refused as the demo', async () => {
    const first = setup({ 'GET /api/posts/p1/cat-suggestions': () => Response.json({ suggestions: [] }) });
    await waitFor(() => expect(first.fetchMock).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(first.client.isFetching()).toBe(0));
    expect(screen.queryByRole('heading')).toBeNull();
    expect(screen.queryByRole('list')).toBeNull();
    cleanup();
    setup({
      'GET /api/posts/p1/cat-suggestions': () =>
        Response.json({ suggestions: [suggestion('s1', 'mariposa', 'c1', 'Luna')] }),
      'POST /api/posts/p1/cat-suggestions/s1/accept': () =>
        Response.json({ message: DEMO_DISABLED_MESSAGE }, { status: 403 }),
    });
    authStore.set({ userId: DEMO_USER_ID });
    fireEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(await screen.findByRole('alertdialog', { name: DEMO_DISABLED_MESSAGE })).toBeTruthy();
  });
});
