import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { DEMO_DISABLED_MESSAGE, DEMO_USER_ID, type GroupsResponse, type Post } from '@cats/contracts';
import { api } from '../../lib/api-client.ts';
import { authStore } from '../../lib/auth-store.ts';
import { clearToasts, ToastRegion } from '../toast.tsx';
import { OwnPostMenu } from './own-post-menu.tsx';
import { testPost } from './test-post.ts';

const mine = (id: string, overrides: Partial<Post> = {}) =>
  testPost(id, { user: { _id: 'me', username: 'me' }, groupIds: [], ...overrides });

/** A feed in miniature: each post with its menu, rendered from the cache and loaded from the "server". */
function Feed() {
  const { data } = useQuery({
    queryKey: ['feed-test'],
    queryFn: () => api<{ posts: Post[] }>('/api/feed-test'),
    staleTime: Infinity,
  });
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

type Route = (init: RequestInit, url: string) => Response | Promise<Response>;

/**
 * A server in miniature: `routes` by 'METHOD /path'; the feed answers `server.posts` as they are then.
 * Anything else is a test mistake and answers 500.
 */
function setup(posts: Post[], routes: Record<string, Route> = {}) {
  authStore.set({ accessToken: 't', userId: 'me' });
  const server = { posts: [...posts] };
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const key = `${init.method ?? 'GET'} ${url}`;
    if (key === 'GET /api/feed-test') return Response.json({ posts: server.posts });
    const route = routes[key];
    return route ? route(init, url) : Response.json({ message: `unexpected ${key}` }, { status: 500 });
  });
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({
    defaultOptions: { mutations: { retry: false }, queries: { retry: false } },
  });
  client.setQueryData(['feed-test'], { posts });
  client.setQueryData(['profile-test'], {
    pages: [{ posts: posts.slice(0, 1), info: {} }],
    pageParams: [1],
  });
  render(
    <MemoryRouter>
      <QueryClientProvider client={client}>
        <Feed />
        <ToastRegion />
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return { client, server, fetchMock };
}

const options = (id: string) => within(screen.getByTestId(id)).getByRole('button', { name: 'Post options' });
const choose = (id: string, item: string | RegExp) => {
  fireEvent.click(options(id));
  fireEvent.click(screen.getByRole('menuitem', { name: item }));
};
const openDelete = (id: string) => {
  choose(id, 'Delete');
  return screen.getByRole('alertdialog', { name: 'Delete this picture?' });
};
const toasts = () => screen.getByRole('status');
const calls = (fetchMock: ReturnType<typeof vi.fn>, method: string, url: string) =>
  fetchMock.mock.calls.filter(
    ([u, init]) => u === url && (init as RequestInit | undefined)?.method === method,
  );

/** The browser's share sheet and clipboard as a test needs them (jsdom has neither). */
function stubSharing(sharing: { share?: Navigator['share']; writeText: Clipboard['writeText'] }) {
  Object.defineProperty(navigator, 'share', { value: sharing.share, configurable: true });
  Object.defineProperty(navigator, 'clipboard', {
    value: { writeText: sharing.writeText },
    configurable: true,
  });
}

afterEach(() => {
  cleanup();
  delete (navigator as { share?: unknown }).share;
  delete (navigator as { clipboard?: unknown }).clipboard;
  clearToasts();
  vi.unstubAllGlobals();
  authStore.clear();
});

describe('OwnPostMenu', () => {
  it('offers Edit, Which cat is this?, Share, Share with groups, the location and Delete', () => {
    setup([mine('p1')]);
    fireEvent.click(options('p1'));
    expect(screen.getAllByRole('menuitem').map((item) => item.firstChild?.textContent)).toEqual([
      'Edit',
      'Which cat is this?',
      'Share',
      'Share with groups',
      'Show location on map',
      'Delete',
    ]);
  });

  it('asks first; Cancel sends nothing, Delete moves the post out of every cached list and offers Undo', async () => {
    const { client, server, fetchMock } = setup([mine('p1'), mine('p2')], {
      'DELETE /api/posts/p1': () => {
        server.posts = server.posts.filter((p) => p._id !== 'p1');
        return Response.json({ message: 'Moved to the trash', _id: 'p1', deletedAt: 'x', purgeAt: 'y' });
      },
    });

    let dialog = openDelete('p1');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBe(document.activeElement);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();

    dialog = openDelete('p1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('p1')).toBeNull());
    expect(calls(fetchMock, 'DELETE', '/api/posts/p1')).toHaveLength(1);
    expect(screen.getByTestId('p2')).toBeTruthy();
    const profile = client.getQueryData<{ pages: { posts: Post[] }[] }>(['profile-test']);
    expect(profile?.pages[0]?.posts).toEqual([]);
    expect(toasts().textContent).toContain(
      'Picture moved to the trash. You can restore it from Settings for 30 days.',
    );
    expect(within(toasts()).getByRole('button', { name: 'Undo' })).toBeTruthy();
  });

  it("Undo restores the deleted post and it comes back in the list from the server's answer", async () => {
    const p1 = mine('p1', { caption: 'Back again' });
    const { server, fetchMock } = setup([p1, mine('p2')], {
      'DELETE /api/posts/p1': () => {
        server.posts = server.posts.filter((p) => p._id !== 'p1');
        return Response.json({ message: 'Moved to the trash', _id: 'p1', deletedAt: 'x', purgeAt: 'y' });
      },
      'POST /api/posts/p1/restore': () => {
        server.posts = [p1, ...server.posts];
        return Response.json({ message: 'Restored', post: p1 });
      },
    });
    fireEvent.click(within(openDelete('p1')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('p1')).toBeNull());

    fireEvent.click(within(toasts()).getByRole('button', { name: 'Undo' }));
    await screen.findByTestId('p1');
    expect(calls(fetchMock, 'POST', '/api/posts/p1/restore')).toHaveLength(1);
    expect(screen.getAllByRole('listitem').map((li) => li.dataset.testid)).toEqual(['p1', 'p2']);
    expect(toasts().textContent).toBe('');
  });

  it('says so when Undo fails, and the post stays away', async () => {
    setup([mine('p1')], {
      'DELETE /api/posts/p1': () => Response.json({ message: 'Moved to the trash' }),
      'POST /api/posts/p1/restore': () => Response.json({ message: 'Post not found' }, { status: 404 }),
    });
    fireEvent.click(within(openDelete('p1')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('p1')).toBeNull());
    fireEvent.click(within(toasts()).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(toasts().textContent).toContain('Could not undo: Post not found'));
    expect(screen.queryByTestId('p1')).toBeNull();
  });

  it('shows the demo refusal and keeps the post', async () => {
    setup([mine('p1')], {
      'DELETE /api/posts/p1': () => Response.json({ message: DEMO_DISABLED_MESSAGE }, { status: 403 }),
    });
    authStore.set({ userId: DEMO_USER_ID });
    fireEvent.click(within(openDelete('p1')).getByRole('button', { name: 'Delete' }));
    await screen.findByRole('alertdialog', { name: DEMO_DISABLED_MESSAGE });
    expect(screen.getByTestId('p1')).toBeTruthy();
  });

  it('says why when the delete fails, and keeps the dialog open', async () => {
    setup([mine('p1')], {
      'DELETE /api/posts/p1': () => Response.json({ message: 'Post not found' }, { status: 404 }),
    });
    const dialog = openDelete('p1');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Post not found');
    expect(screen.getByTestId('p1')).toBeTruthy();
  });

  it("Share copies the post's address where there is no share sheet, and says so", async () => {
    const writeText = vi.fn(async () => {});
    stubSharing({ writeText });
    setup([mine('p1')]);
    choose('p1', 'Share');
    await waitFor(() => expect(toasts().textContent).toContain('Link copied.'));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/posts/p1`);
    // Focus is back on the menu's button.
    expect(document.activeElement).toBe(options('p1'));
  });

  it('Share opens the share sheet where there is one, with no toast', async () => {
    const share = vi.fn(async () => {});
    const writeText = vi.fn(async () => {});
    stubSharing({ share, writeText });
    setup([mine('p1', { catName: 'Mochi' })]);
    choose('p1', 'Share');
    await waitFor(() =>
      expect(share).toHaveBeenCalledWith({ title: 'Mochi', url: `${window.location.origin}/posts/p1` }),
    );
    expect(writeText).not.toHaveBeenCalled();
    expect(toasts().textContent).toBe('');
  });

  it('Share gives the address to copy by hand when the clipboard refuses', async () => {
    const writeText = vi.fn(async () => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    stubSharing({ writeText });
    setup([mine('p1')]);
    choose('p1', 'Share');
    await waitFor(() =>
      expect(toasts().textContent).toContain(`Copy this link: ${window.location.origin}/posts/p1`),
    );
  });

  it("switches the location off and on with the location switch's call, and says which way", async () => {
    const { fetchMock } = setup([mine('p1', { latitude: 36.7, longitude: -4.4, showLocation: true })], {
      'PUT /api/posts/toggleLocation/p1': (init) => {
        const on = calls(fetchMock, 'PUT', '/api/posts/toggleLocation/p1').length % 2 === 0;
        expect(JSON.parse(String(init.body))).toEqual({ currentUserId: 'me' });
        return Response.json({ updatedPost: { _id: 'p1', showLocation: on } });
      },
    });
    choose('p1', 'Hide location on map');
    await waitFor(() =>
      expect(toasts().textContent).toContain('Location off: this picture no longer shows on the map.'),
    );
    // The cached post follows the server: the menu now offers the opposite.
    choose('p1', 'Show location on map');
    await waitFor(() =>
      expect(toasts().textContent).toContain('Location on: this picture shows on the map.'),
    );
    expect(calls(fetchMock, 'PUT', '/api/posts/toggleLocation/p1')).toHaveLength(2);
    fireEvent.click(options('p1'));
    expect(screen.getByRole('menuitem', { name: 'Hide location on map' })).toBeTruthy();
  });

  it('offers no location switch for a picture without GPS data, and says why', () => {
    const { fetchMock } = setup([mine('p1')]);
    fireEvent.click(options('p1'));
    const item = screen.getByRole('menuitem', { name: /Show location on map/ });
    expect(item.getAttribute('aria-disabled')).toBe('true');
    expect(item.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(item.getAttribute('aria-describedby')!)?.textContent).toBe(
      'No GPS data available',
    );
    fireEvent.click(item);
    // Still open: nothing was chosen, nothing sent.
    expect(screen.getByRole('menu')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('offers no location switch while a moderator keeps the location hidden, and says why', () => {
    const { fetchMock } = setup([
      mine('p1', { latitude: 36.7, longitude: -4.4, showLocation: false, locationLocked: true }),
    ]);
    fireEvent.click(options('p1'));
    const item = screen.getByRole('menuitem', { name: /Show location on map/ });
    expect(item.getAttribute('aria-disabled')).toBe('true');
    expect(document.getElementById(item.getAttribute('aria-describedby')!)?.textContent).toBe(
      'A moderator hid this location',
    );
    fireEvent.click(item);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('Share with groups lists the groups as ticks; each tick saves and the dialog follows the server', async () => {
    const groups: GroupsResponse = {
      ownedGroups: [{ _id: 'g1', groupName: 'Garden cats' }],
      memberGroups: [{ _id: 'g2', groupName: 'Street 12' }],
    };
    const { fetchMock } = setup([mine('p1', { groupIds: ['g2'] })], {
      'GET /api/groups': () => Response.json(groups),
      'PUT /api/posts/p1/groups': (init) => Response.json(JSON.parse(String(init.body))),
    });
    choose('p1', 'Share with groups');
    const dialog = screen.getByRole('dialog', { name: 'Share with groups' });
    const garden = await within(dialog).findByRole('checkbox', { name: /Garden cats/ });
    const street = within(dialog).getByRole('checkbox', { name: /Street 12/ });
    expect([(garden as HTMLInputElement).checked, (street as HTMLInputElement).checked]).toEqual([
      false,
      true,
    ]);

    fireEvent.click(garden);
    await waitFor(() => expect((garden as HTMLInputElement).checked).toBe(true));
    expect(
      calls(fetchMock, 'PUT', '/api/posts/p1/groups').map(([, init]) => JSON.parse(String(init!.body))),
    ).toEqual([{ groupIds: ['g2', 'g1'] }]);
    fireEvent.click(street);
    await waitFor(() => expect((street as HTMLInputElement).checked).toBe(false));
    expect(JSON.parse(String(calls(fetchMock, 'PUT', '/api/posts/p1/groups')[1]![1]!.body))).toEqual({
      groupIds: ['g1'],
    });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(options('p1'));
  });

  it('Share with groups says why a save failed and leaves the ticks as the server has them', async () => {
    setup([mine('p1')], {
      'GET /api/groups': () =>
        Response.json({ ownedGroups: [{ _id: 'g1', groupName: 'Garden cats' }], memberGroups: [] }),
      'PUT /api/posts/p1/groups': () =>
        Response.json({ message: 'Not a member of that group' }, { status: 403 }),
    });
    choose('p1', 'Share with groups');
    const dialog = screen.getByRole('dialog', { name: 'Share with groups' });
    const garden = await within(dialog).findByRole('checkbox', { name: /Garden cats/ });
    await act(async () => fireEvent.click(garden));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Not a member of that group');
    expect((garden as HTMLInputElement).checked).toBe(false);
  });
});
