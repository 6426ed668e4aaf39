import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { CatListItem, CatsResponse, MyProfileResponse, PagedPostsResponse } from '@cats/contracts';
import { loadLanguage } from '../../../i18n/i18n-store.ts';
import { authStore } from '../../../lib/auth-store.ts';
import { testCatListItem } from '../../../components/cats/test-cat.ts';
import { testPost } from '../../../components/post/test-post.ts';
import { stubGeolocation } from '../../../components/location-picker/test-geolocation.ts';
import CatsPage from './cats-page.tsx';

type Route = (init: RequestInit, url: string) => Response | Promise<Response>;

/** An IntersectionObserver that never reports anything: jsdom has none, and no test scrolls. */
class QuietObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
}

const HOME = { latitude: 51.5, longitude: -0.12 };
const LAST_POST_PLACE = { latitude: 48.85, longitude: 2.35 };

const myProfile = (homeArea: MyProfileResponse['homeArea']): MyProfileResponse => ({
  _id: 'me',
  username: 'me',
  email: 'me@example.com',
  exactPublicLocation: false,
  altTextReminder: true,
  homeArea,
  isDemo: false,
  role: 'member',
});

const postsPage = (posts: PagedPostsResponse['posts']): PagedPostsResponse => ({
  posts,
  info: { next: null, nextCursor: null },
});

const catsPage = (cats: CatListItem[], nextCursor: string | null = null): CatsResponse => ({
  cats,
  info: { nextCursor },
});

const TWO_CATS = [testCatListItem('c1', 'Luna'), testCatListItem('c2', 'Mochi')];

/**
 * The /cats page against a server in miniature: `routes` by 'METHOD /path' (the query string left
 * out, the full url handed to the route). By default no home area, no located post and two cats.
 * Anything else answers 500.
 */
function renderPage(routes: Record<string, Route> = {}) {
  authStore.set({ accessToken: 't', userId: 'me' });
  const defaults: Record<string, Route> = {
    'GET /api/profile/getMyProfile': () => Response.json(myProfile(null)),
    'GET /api/profile/getPosts/': () => Response.json(postsPage([])),
    'GET /api/cats': () => Response.json(catsPage(TWO_CATS)),
  };
  const all = { ...defaults, ...routes };
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
    const route = all[key];
    return route ? route(init, url) : Response.json({ message: `unexpected ${key}` }, { status: 500 });
  });
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/cats']}>
        <CatsPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  /** The query strings of every GET /api/cats asked so far, in order. */
  const catsRequests = () =>
    fetchMock.mock.calls
      .map(([url]) => url)
      .filter((url) => url.split('?')[0] === '/api/cats')
      .map((url) => new URL(url, 'http://localhost').searchParams);
  return { fetchMock, catsRequests };
}

const orderSelect = () => screen.getByRole<HTMLSelectElement>('combobox', { name: 'Order' });
const selectedOrder = () => {
  const select = orderSelect();
  return select.options[select.selectedIndex]?.textContent;
};
const orderOptions = () => Array.from(orderSelect().options).map((o) => o.textContent);
/** The list's order select once the member's places are known (it is disabled until then). */
const placesKnown = () => waitFor(() => expect(orderSelect().disabled).toBe(false));

beforeEach(() => {
  vi.stubGlobal('IntersectionObserver', QuietObserver);
});

afterEach(async () => {
  await act(() => loadLanguage('en'));
  cleanup();
  vi.unstubAllGlobals();
  delete (navigator as { geolocation?: unknown }).geolocation;
  authStore.clear();
});

describe('CatsPage', () => {
  it('lists the cats nearest to the home area first, each a link to its page', async () => {
    const { catsRequests } = renderPage({
      'GET /api/profile/getMyProfile': () => Response.json(myProfile(HOME)),
      // A located last post too: the home area wins over it.
      'GET /api/profile/getPosts/': () =>
        Response.json(postsPage([testPost('p1', { ...LAST_POST_PLACE, showLocation: true })])),
    });
    const list = await screen.findByRole('list', { name: 'Cats' });
    expect(catsRequests().length).toBeGreaterThan(0);
    for (const params of catsRequests()) expect(params.get('near')).toBe('51.5,-0.12');
    expect(selectedOrder()).toBe('Nearest to my home area');
    expect(orderOptions()).toEqual([
      'Nearest to my home area',
      'Nearest to my last picture',
      'Nearest to where I am',
      'Most recently seen',
    ]);
    await waitFor(() => expect(within(list).getAllByRole('link')).toHaveLength(2));
    const luna = within(list).getByRole('link', { name: /^Luna/ });
    expect(luna.getAttribute('href')).toBe('/cats/c1');
    expect(within(luna).getByText('Luna')).toBeTruthy();
    const mochi = within(list).getByRole('link', { name: /^Mochi/ });
    expect(mochi.getAttribute('href')).toBe('/cats/c2');
    expect(within(mochi).getByText('Mochi')).toBeTruthy();
  });

  it('measures from the last located picture without a home area', async () => {
    const { catsRequests } = renderPage({
      'GET /api/profile/getPosts/': () =>
        Response.json(
          postsPage([
            testPost('p2'),
            testPost('p1', { ...LAST_POST_PLACE, showLocation: true, locationPrecision: 'exact' }),
          ]),
        ),
    });
    await screen.findByRole('list', { name: 'Cats' });
    expect(catsRequests().length).toBeGreaterThan(0);
    for (const params of catsRequests()) expect(params.get('near')).toBe('48.85,2.35');
    expect(selectedOrder()).toBe('Nearest to my last picture');
    expect(orderOptions()).toEqual([
      'Nearest to my last picture',
      'Nearest to where I am',
      'Most recently seen',
    ]);
  });

  it('lists the most recently seen first with neither a home area nor a located picture', async () => {
    const { catsRequests } = renderPage({
      'GET /api/profile/getPosts/': () => Response.json(postsPage([testPost('p1'), testPost('p2')])),
    });
    await screen.findByRole('list', { name: 'Cats' });
    expect(catsRequests().length).toBeGreaterThan(0);
    for (const params of catsRequests()) expect(params.has('near')).toBe(false);
    expect(selectedOrder()).toBe('Most recently seen');
    expect(orderOptions()).toEqual(['Nearest to where I am', 'Most recently seen']);
  });

  it('searches by name after a pause in typing, and says when no name matches', async () => {
    let searchedAt: number | null = null;
    const { catsRequests } = renderPage({
      'GET /api/cats': (_init, url) => {
        const searched = new URL(url, 'http://localhost').searchParams.has('q');
        if (searched) searchedAt ??= performance.now();
        return Response.json(catsPage(searched ? [] : TWO_CATS));
      },
    });
    await screen.findByRole('list', { name: 'Cats' });
    const typedAt = performance.now();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search by name' }), {
      target: { value: ' zzz' },
    });
    // Not at every letter: the list waits for the typing to pause.
    expect(catsRequests().some((params) => params.has('q'))).toBe(false);
    await waitFor(() => expect(catsRequests().at(-1)?.get('q')).toBe('zzz'));
    expect(searchedAt! - typedAt).toBeGreaterThanOrEqual(240);
    const empty = await screen.findByText('No cat’s name contains “zzz”.');
    expect(empty.textContent).toBe('No cat’s name contains “zzz”.');
    expect(screen.queryByRole('list', { name: 'Cats' })).toBeNull();
  });

  it('lists only the cats cared for when asked, and says when there are none', async () => {
    const { catsRequests } = renderPage({
      'GET /api/cats': (_init, url) =>
        Response.json(
          catsPage(new URL(url, 'http://localhost').searchParams.get('caredFor') === 'true' ? [] : TWO_CATS),
        ),
    });
    await screen.findByRole('list', { name: 'Cats' });
    expect(catsRequests().every((params) => !params.has('caredFor'))).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Only cats I care for' }));
    await waitFor(() => expect(catsRequests().at(-1)?.get('caredFor')).toBe('true'));
    const empty = await screen.findByText(
      "You don't care for any cat yet. Whoever created a cat's profile can add you as a caretaker.",
    );
    expect(empty.getAttribute('role')).toBe('status');
    expect(screen.queryByRole('list', { name: 'Cats' })).toBeNull();
  });

  it('asks the browser where the member is for "Nearest to where I am"', async () => {
    stubGeolocation(40.4168, -3.7038);
    const { catsRequests } = renderPage();
    await screen.findByRole('list', { name: 'Cats' });
    await placesKnown();
    fireEvent.change(orderSelect(), { target: { value: 'here' } });
    await waitFor(() => expect(catsRequests().at(-1)?.get('near')).toBe('40.4168,-3.7038'));
    expect(selectedOrder()).toBe('Nearest to where I am');
    expect(await screen.findByRole('link', { name: /^Luna/ })).toBeTruthy();
  });

  it('says so when the browser refuses the location, and lists nothing unmeasured', async () => {
    const getCurrentPosition = vi.fn((_ok: PositionCallback, fail?: PositionErrorCallback | null) =>
      setTimeout(() => fail?.({ code: 1 } as GeolocationPositionError), 0),
    );
    Object.defineProperty(navigator, 'geolocation', { configurable: true, value: { getCurrentPosition } });
    const { catsRequests } = renderPage({
      'GET /api/profile/getMyProfile': () => Response.json(myProfile(HOME)),
    });
    await screen.findByRole('list', { name: 'Cats' });
    await placesKnown();
    const before = catsRequests().length;
    fireEvent.change(orderSelect(), { target: { value: 'here' } });
    const alert = await screen.findByRole('alert');
    expect(
      within(alert).getByText(
        'Location access is off for this site. Allow it in your browser to see the cats near you.',
      ),
    ).toBeTruthy();
    expect(getCurrentPosition).toHaveBeenCalledTimes(1);
    expect(selectedOrder()).toBe('Nearest to where I am');
    // Give a stray request the time to go out: none does, and the other order's list is not shown.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(catsRequests()).toHaveLength(before);
    for (const params of catsRequests()) expect(params.get('near')).toBe('51.5,-0.12');
    // Nor is the home area's list left on screen under an order it does not follow.
    expect(screen.queryByRole('list', { name: 'Cats' })).toBeNull();
  });

  it('shows the server’s message when the list cannot load', async () => {
    renderPage({
      'GET /api/cats': () => Response.json({ message: 'Database unavailable' }, { status: 500 }),
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Error: Database unavailable');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('marks the cats that are missing', async () => {
    renderPage({
      'GET /api/cats': () =>
        Response.json(catsPage([testCatListItem('c1', 'Luna', null, true), testCatListItem('c2', 'Mochi')])),
    });
    const list = await screen.findByRole('list', { name: 'Cats' });
    const luna = await within(list).findByRole('link', { name: /^Luna Missing/ });
    expect(within(luna).getByText('Missing').className).toBe('missing-tag');
    const mochi = within(list).getByRole('link', { name: /^Mochi/ });
    expect(within(mochi).queryByText('Missing')).toBeNull();
  });

  it('says there are no cats yet when nobody has given one a profile', async () => {
    renderPage({ 'GET /api/cats': () => Response.json(catsPage([])) });
    const empty = await screen.findByText(
      'No cats yet. When you share a picture, say which cat it shows, and the cat will be listed here.',
    );
    expect(empty.getAttribute('role')).toBe('status');
    expect(screen.queryByRole('list', { name: 'Cats' })).toBeNull();
  });
});
