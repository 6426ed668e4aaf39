import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { DEMO_DISABLED_MESSAGE, type Post } from '@cats/contracts';
import { authStore } from '../../lib/auth-store.ts';
import { ToastRegion } from '../toast.tsx';
import { OwnPostMenu } from './own-post-menu.tsx';

const post = (id: string): Post => ({
  _id: id,
  user: { _id: 'me', username: 'me' },
  imageUrl: '',
  image: { width: 1, height: 1, placeholder: '', variants: {} },
  caption: '',
  catName: null,
  altText: null,
  greatCat: [],
  latitude: null,
  longitude: null,
  showLocation: false,
  locationPrecision: null,
  commentCount: 0,
  createdAt: '2024-01-01T00:00:00Z',
  editedAt: null,
});

/** A feed in miniature: each cached post with its menu, re-rendered from the cache. */
function Feed() {
  const { data } = useQuery<{ posts: Post[] }>({ queryKey: ['feed-test'], staleTime: Infinity });
  return (
    <ul>
      {data?.posts.map((p) => (
        <li key={p._id} data-testid={p._id}>
          <OwnPostMenu post={p} />
        </li>
      ))}
    </ul>
  );
}

function setup() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  client.setQueryData(['feed-test'], { posts: [post('p1'), post('p2')] });
  client.setQueryData(['profile-test'], { pages: [{ posts: [post('p1')], info: {} }], pageParams: [1] });
  render(
    <MemoryRouter>
      <QueryClientProvider client={client}>
        <Feed />
        <ToastRegion />
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return client;
}

const openDelete = (id: string) => {
  fireEvent.click(within(screen.getByTestId(id)).getByRole('button', { name: 'Post options' }));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
  return screen.getByRole('alertdialog', { name: 'Delete this picture?' });
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  authStore.clear();
});

describe('OwnPostMenu', () => {
  it('asks first; Cancel sends nothing, Delete moves the post out of every cached list and says so', async () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    const fetchMock = vi.fn(async () =>
      Response.json({ message: 'Moved to the trash', _id: 'p1', deletedAt: 'x', purgeAt: 'y' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const client = setup();

    let dialog = openDelete('p1');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBe(document.activeElement);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();

    dialog = openDelete('p1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('p1')).toBeNull());
    expect(fetchMock).toHaveBeenCalledWith('/api/posts/p1', expect.objectContaining({ method: 'DELETE' }));
    expect(screen.getByTestId('p2')).toBeTruthy();
    const profile = client.getQueryData<{ pages: { posts: Post[] }[] }>(['profile-test']);
    expect(profile?.pages[0]?.posts).toEqual([]);
    const toast = screen.getByRole('status');
    expect(toast.textContent).toContain('Picture moved to the trash. You can restore it for 30 days.');
    expect(within(toast).getByRole('link', { name: 'Open trash' }).getAttribute('href')).toBe(
      '/profile/trash',
    );
  });

  it('shows the demo refusal and keeps the post', async () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ message: DEMO_DISABLED_MESSAGE }, { status: 403 })),
    );
    setup();
    fireEvent.click(within(openDelete('p1')).getByRole('button', { name: 'Delete' }));
    await screen.findByRole('alertdialog', { name: DEMO_DISABLED_MESSAGE });
    expect(screen.getByTestId('p1')).toBeTruthy();
  });

  it('says why when the delete fails, and keeps the dialog open', async () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ message: 'Post not found' }, { status: 404 })),
    );
    setup();
    const dialog = openDelete('p1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Post not found');
    expect(screen.getByTestId('p1')).toBeTruthy();
  });
});
