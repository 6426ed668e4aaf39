import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import {
  CAT_MESSAGES,
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  type Cat,
  type CatSightingsResponse,
} from '@cats/contracts';
import { loadLanguage } from '../../../i18n/i18n-store.ts';
import { authStore } from '../../../lib/auth-store.ts';
import { testCat } from '../../../components/cats/test-cat.ts';
import { testPost } from '../../../components/post/test-post.ts';
import CatPage from './cat-page.tsx';

const HOUR = 3_600_000;
const hoursAgo = (h: number) => new Date(Date.now() - h * HOUR).toISOString();

type Route = (init: RequestInit) => Response | Promise<Response>;

/**
 * The cat page at /cats/c1 against a server in miniature: `routes` by 'METHOD /path' (the query string
 * left out); the sightings and the map answer empty unless given. Anything else answers 500.
 */
function renderPage(routes: Record<string, Route>, path = '/cats/c1') {
  authStore.set({ accessToken: 't', userId: 'me' });
  const empty: Record<string, Route> = {
    'GET /api/cats/c1/sightings': () =>
      Response.json({ posts: [], info: { nextCursor: null } } satisfies CatSightingsResponse),
    'GET /api/cats/c1/map': () => Response.json({ points: [] }),
    'GET /api/cats/c1/history': () => Response.json({ merges: [], info: { nextCursor: null } }),
    'GET /api/config/map': () => Response.json({ tileUrl: '/tiles/{z}/{x}/{y}.png', attribution: '' }),
  };
  const all = { ...empty, ...routes };
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
    const route = all[key];
    return route ? route(init) : Response.json({ message: `unexpected ${key}` }, { status: 500 });
  });
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/cats/:catId" element={<CatPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { fetchMock, client };
}

const catAnswer = (cat: Cat) => () => Response.json({ cat });

afterEach(async () => {
  await act(() => loadLanguage('en'));
  cleanup();
  vi.unstubAllGlobals();
  authStore.clear();
});

describe('CatPage', () => {
  it('speaks Spanish: details, counts and the plural of sightings and followers', async () => {
    await act(() => loadLanguage('es'));
    renderPage({
      'GET /api/cats/c1': catAnswer(
        testCat('c1', {
          coatColours: ['ginger', 'tabby'],
          living: 'community',
          sightingCount: 5,
          sightingsThisWeek: 1,
          followerCount: 1,
          lastSeen: {
            postId: 'p9',
            at: hoursAgo(3.5),
            latitude: 51.5,
            longitude: -0.12,
            locationPrecision: 'exact',
          },
        }),
      ),
    });
    await screen.findByRole('heading', { level: 1, name: 'Luna' });
    expect(screen.getByText('Visto por última vez hace 3 h.')).toBeTruthy();
    expect(screen.getByText(/El lugar está marcado en naranja en el mapa\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ver ese avistamiento' }).getAttribute('href')).toBe('/posts/p9');
    expect(screen.getByText('Visto una vez esta semana.')).toBeTruthy();
    expect(screen.getByText('5 avistamientos en total.')).toBeTruthy();
    const coat = screen.getByRole('list', { name: 'Colores y patrón del pelaje' });
    expect(
      within(coat)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Naranja', 'Atigrado']);
    expect(screen.getByText('Gato comunitario')).toBeTruthy();
    expect(screen.getByText('1 persona sigue a este gato.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Seguir' })).toBeTruthy();
  });

  it('says it is loading until the cat arrives', async () => {
    let answer: (res: Response) => void = () => {};
    renderPage({ 'GET /api/cats/c1': () => new Promise<Response>((resolve) => (answer = resolve)) });
    expect(screen.getByRole('status').textContent).toBe('Loading the cat...');
    await act(async () => answer(Response.json({ cat: testCat('c1') })));
    expect(await screen.findByRole('heading', { level: 1, name: 'Luna' })).toBeTruthy();
    expect(screen.queryByText('Loading the cat...')).toBeNull();
  });

  it('shows a clear not-found state for an unknown id', async () => {
    renderPage(
      { 'GET /api/cats/nope': () => Response.json({ message: CAT_MESSAGES.notFound }, { status: 404 }) },
      '/cats/nope',
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Cat not found' })).toBeTruthy();
    expect(screen.getByText('There is no cat at this address, or it is not shown to you.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the feed' }).getAttribute('href')).toBe('/feed');
  });

  it("shows a stranger the cat's details, when and how often it was seen, and no Edit", async () => {
    renderPage({
      'GET /api/cats/c1': catAnswer(
        testCat('c1', {
          description: 'Sleeps on the blue car.',
          coatColours: ['ginger', 'tabby'],
          earTipped: 'yes',
          neutered: 'no',
          living: 'community',
          sightingCount: 5,
          sightingsThisWeek: 3,
          followerCount: 2,
          lastSeen: {
            postId: 'p9',
            at: hoursAgo(3.5),
            latitude: 51.5,
            longitude: -0.12,
            locationPrecision: 'approximate',
          },
        }),
      ),
    });
    await screen.findByRole('heading', { level: 1, name: 'Luna' });
    expect(screen.getByText('Last seen 3 h ago.')).toBeTruthy();
    expect(screen.getByText('The area is marked in orange on the map, to about 500 m.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See that sighting' }).getAttribute('href')).toBe('/posts/p9');
    expect(screen.getByText('Seen 3 times this week.')).toBeTruthy();
    expect(screen.getByText('5 sightings in all.')).toBeTruthy();
    expect(screen.getByText('Sleeps on the blue car.')).toBeTruthy();
    const coat = screen.getByRole('list', { name: 'Coat colours and pattern' });
    expect(
      within(coat)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Ginger', 'Tabby']);
    expect(screen.getByText('Community cat')).toBeTruthy();
    expect(screen.getByText('2 people follow this cat.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Follow' })).toHaveProperty('disabled', false);
  });

  it('lists every sighting with who and when, each linking to its post', async () => {
    renderPage({
      'GET /api/cats/c1': catAnswer(testCat('c1', { sightingCount: 2 })),
      'GET /api/cats/c1/sightings': () =>
        Response.json({
          posts: [
            testPost('p2', { user: { _id: 'u2', username: 'ana' }, createdAt: hoursAgo(2.5) }),
            testPost('p1', {
              user: { _id: 'u1', username: 'ben' },
              createdAt: hoursAgo(30),
              latitude: 51.5,
              longitude: -0.1,
              locationPrecision: 'approximate',
              showLocation: true,
            }),
          ],
          info: { nextCursor: null },
        } satisfies CatSightingsResponse),
    });
    const list = await screen.findByRole('list', { name: 'Sightings' });
    const items = within(list).getAllByRole('article');
    expect(items.map((a) => a.getAttribute('aria-label'))).toEqual(['Sighting by ana', 'Sighting by ben']);
    expect(
      within(items[0]!)
        .getByRole('link', { name: /open this sighting/ })
        .getAttribute('href'),
    ).toBe('/posts/p2');
    expect(within(items[0]!).getByText('Seen 2 h ago.')).toBeTruthy();
    expect(within(items[1]!).getByText('Seen 1 d ago.')).toBeTruthy();
    expect(within(items[0]!).getByText('No place shown.')).toBeTruthy();
    expect(within(items[1]!).getByText('Area of about 500 m on the map.')).toBeTruthy();
    expect(screen.getByText('That is every sighting you can see.')).toBeTruthy();
  });

  it('gives caretakers Edit, which opens the form', async () => {
    renderPage({
      'GET /api/cats/c1': catAnswer(
        testCat('c1', { viewer: { isCaretaker: true, canEdit: true, following: true, canFollow: true } }),
      ),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    expect(screen.getByRole('dialog', { name: 'Edit Luna' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Unfollow' })).toBeTruthy();
  });

  it('shows the demo account Follow disabled, with the reason, and no Edit', async () => {
    const { fetchMock } = renderPage({
      'GET /api/cats/c1': catAnswer(
        testCat('c1', { viewer: { isCaretaker: false, canEdit: false, following: false, canFollow: false } }),
      ),
    });
    const follow = await screen.findByRole('button', { name: 'Follow' });
    expect(follow).toHaveProperty('disabled', true);
    expect(screen.getByText('Following cats is disabled for the demo user.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    fireEvent.click(follow);
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/follow'))).toBe(false);
  });

  it("follows and unfollows with the server's count, and shows the demo refusal's message", async () => {
    let following = false;
    renderPage({
      'GET /api/cats/c1': catAnswer(testCat('c1', { followerCount: 1 })),
      'PUT /api/cats/c1/follow': () => {
        following = true;
        return Response.json({ following, followerCount: 2 });
      },
      'DELETE /api/cats/c1/follow': () => {
        // A refusal only the demo account gets (known by its id, whatever the language of its text).
        authStore.set({ userId: DEMO_USER_ID });
        return Response.json({ message: DEMO_DISABLED_MESSAGE }, { status: 403 });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Follow' }));
    await screen.findByRole('button', { name: 'Unfollow' });
    expect(screen.getByText('2 people follow this cat.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Unfollow' }));
    expect(await screen.findByRole('alertdialog', { name: DEMO_DISABLED_MESSAGE })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Unfollow' })).toBeTruthy());
  });
});
