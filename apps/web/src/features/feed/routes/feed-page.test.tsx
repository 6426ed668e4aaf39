import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { authStore } from '../../../lib/auth-store.ts';
import FeedPage from './feed-page.tsx';

/** The API as the feed sees it: the feed answers `feed()` in turn; no missing cats nearby. */
function api(...feed: (() => Response)[]) {
  const fetchMock = vi.fn(async (url: string) => {
    if (url.startsWith('/api/cats/missing')) return Response.json({ cats: [], total: 0 });
    if (url.startsWith('/api/feed/')) return feed.shift()!();
    throw new Error(`unexpected ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
const serverError = () => Response.json({ message: 'Database is asleep' }, { status: 500 });
const noServer = (): Response => {
  throw new TypeError('Failed to fetch');
};
const empty = () => Response.json({ posts: [], info: { next: null, nextCursor: null } });

function setup() {
  authStore.set({ accessToken: 't', userId: 'me' });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/feed']}>
        <FeedPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  authStore.clear();
});

describe('FeedPage when the feed fails (issue 28, defect 5)', () => {
  it("shows the server's message alone, and Retry loads the feed again", async () => {
    const fetchMock = api(serverError, empty);
    setup();
    expect((await screen.findByRole('alert')).textContent).toBe('Error: Database is asleep');
    expect(screen.queryByText("Can't connect to server")).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByText('No cats in your feed yet.');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(fetchMock.mock.calls.filter(([url]) => url.startsWith('/api/feed/'))).toHaveLength(2);
  });

  it('shows "Can\'t connect to server" alone when the server cannot be reached', async () => {
    api(noServer, empty);
    setup();
    expect((await screen.findByRole('alert')).textContent).toBe("Can't connect to server");
    expect(screen.queryByText(/^Error: /)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByText('No cats in your feed yet.');
  });
});
