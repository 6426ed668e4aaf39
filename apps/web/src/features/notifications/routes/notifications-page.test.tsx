import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { Notification } from '@cats/contracts';
import { authStore } from '../../../lib/auth-store.ts';
import { notificationKeys } from '../../../lib/notification-cache.ts';
import { notification, user } from '../components/notification-fixtures.ts';
import NotificationsPage from './notifications-page.tsx';

const entries: Notification[] = [
  notification({ _id: 'n2', seq: 2, actors: [user('luna'), user('tom')], actorCount: 2, link: '/posts/p2' }),
  notification({ _id: 'n1', seq: 1, read: true }),
];

/** The API as the page sees it; answers POST /read with the count left. */
function api({ isDemo = false, list = entries } = {}) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/profile/getMyProfile') return Response.json({ _id: 'me', username: 'me', isDemo });
    if (url.startsWith('/api/notifications/read')) return Response.json({ count: 0 });
    if (url.startsWith('/api/notifications'))
      return Response.json({
        notifications: list,
        unreadCount: list.filter((n) => !n.read).length,
        info: { nextCursor: null },
      });
    throw new Error(`unexpected ${init?.method ?? 'GET'} ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  const posts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
  return { fetchMock, posts };
}

function setup() {
  authStore.set({ accessToken: 't', userId: 'me' });
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/notifications']}>
        <Routes>
          <Route path="/notifications" element={<NotificationsPage />} />
          <Route path="/posts/:id" element={<p>Post page</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return client;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  authStore.clear();
});

describe('NotificationsPage', () => {
  it('lists entries as links, marks unread ones, and marks nothing read by being opened', async () => {
    const { posts } = api();
    const client = setup();
    const unread = await screen.findByRole('link', { name: /^Unread: luna and 1 other liked your picture/ });
    expect(unread.getAttribute('href')).toBe('/posts/p2');
    const read = screen.getByRole('link', { name: /^mariposa liked your picture/ });
    expect(read.className).not.toContain('notification--unread');
    expect(unread.className).toContain('notification--unread');
    expect(client.getQueryData(notificationKeys.unreadCount)).toEqual({ count: 1 });
    await screen.findByRole('button', { name: 'Mark all as read' });
    expect(posts()).toEqual([]);
  });

  it("lists a cat's sighting as who spotted which cat, linking to the post", async () => {
    api({
      list: [
        notification({
          _id: 'n3',
          type: 'cat_sighting',
          cat: { _id: 'cat1', name: 'Luna' },
          post: { _id: 'p3', thumbnailUrl: '/media/p3-64.webp', catName: null },
          link: '/posts/p3',
        }),
      ],
    });
    setup();
    const entry = await screen.findByRole('link', { name: /^Unread: mariposa spotted Luna/ });
    expect(entry.getAttribute('href')).toBe('/posts/p3');
    expect(entry.querySelector('img')?.getAttribute('src')).toBe('/media/p3-64.webp');
  });

  it('marks an entry read when it is opened', async () => {
    const { posts } = api();
    const client = setup();
    fireEvent.click(await screen.findByRole('link', { name: /^Unread: luna/ }));
    await screen.findByText('Post page');
    await vi.waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]![0]).toBe('/api/notifications/read');
    expect(JSON.parse(posts()[0]![1]!.body as string)).toEqual({ ids: ['n2'] });
    expect(client.getQueryData(notificationKeys.unreadCount)).toEqual({ count: 0 });
  });

  it("marks all read with 'Mark all as read', which then goes away", async () => {
    const { posts } = api();
    setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    await vi.waitFor(() => expect(screen.queryByRole('link', { name: /^Unread:/ })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
    await vi.waitFor(() => expect(posts()).toHaveLength(1));
    expect(JSON.parse(posts()[0]![1]!.body as string)).toEqual({});
  });

  it('offers the demo account no Mark all as read, and marks nothing when it opens an entry', async () => {
    const { posts, fetchMock } = api({ isDemo: true });
    setup();
    const link = await screen.findByRole('link', { name: /^Unread: luna/ });
    await vi.waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => url === '/api/profile/getMyProfile')).toBe(true),
    );
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
    fireEvent.click(link);
    await screen.findByText('Post page');
    expect(posts()).toEqual([]);
  });

  it('says what will show here when there is nothing yet', async () => {
    api({ list: [] });
    setup();
    await screen.findByText(
      'No notifications yet. When someone likes or comments on your pictures, you will see it here.',
    );
  });
});
