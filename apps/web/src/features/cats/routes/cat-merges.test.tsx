import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import {
  CAT_MESSAGES,
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  type Cat,
  type CatMerge,
  type CatSightingsResponse,
  type CatsResponse,
} from '@cats/contracts';
import { authStore } from '../../../lib/auth-store.ts';
import { testCat, testCatListItem } from '../../../components/cats/test-cat.ts';
import { clearToasts, ToastRegion } from '../../../components/toast.tsx';
import CatPage from './cat-page.tsx';

type Handler = (init: RequestInit, url: string) => Response | Promise<Response>;

const DAY = 86_400_000;
const caretaker = { isCaretaker: true, canEdit: true, following: false, canFollow: true };
const luna = (overrides: Partial<Cat> = {}) =>
  testCat('c1', { name: 'Luna', home: null, viewer: caretaker, ...overrides });

const mergeOf = (overrides: Partial<CatMerge> = {}): CatMerge => ({
  _id: 'm1',
  cat: { _id: 'c1', name: 'Luna' },
  duplicate: { _id: 'c2', name: 'Luna 2' },
  mergedBy: { _id: 'me', username: 'ana' },
  mergedAt: new Date(Date.now() - 2 * DAY).toISOString(),
  undoneBy: null,
  undoneAt: null,
  undoUntil: new Date(Date.now() + 28 * DAY).toISOString(),
  canUndo: true,
  ...overrides,
});

/** Where the router is: a merged profile's page must move to the survivor's address, not just show it. */
function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

/** The cat page against a server in miniature: `routes` by 'METHOD /path'; anything else answers 500. */
function renderPage(routes: Record<string, Handler>, path = '/cats/c1') {
  authStore.set({ accessToken: 't', userId: 'me' });
  const all: Record<string, Handler> = {
    'GET /api/cats/c1/sightings': () =>
      Response.json({ posts: [], info: { nextCursor: null } } satisfies CatSightingsResponse),
    'GET /api/cats/c1/map': () => Response.json({ points: [] }),
    'GET /api/config/map': () => Response.json({ tileUrl: '/tiles/{z}/{x}/{y}.png', attribution: '' }),
    ...routes,
  };
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
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/cats/:catId" element={<CatPage />} />
        </Routes>
        <Where />
      </MemoryRouter>
      <ToastRegion />
    </QueryClientProvider>,
  );
  return { fetchMock };
}

const bodyOf = (fetchMock: ReturnType<typeof vi.fn>, method: string, url: string) => {
  const call = fetchMock.mock.calls.find(
    ([u, init]) => u === url && (init as RequestInit)?.method === method,
  );
  return call ? JSON.parse(String((call[1] as RequestInit).body ?? 'null')) : undefined;
};

afterEach(() => {
  cleanup();
  clearToasts();
  vi.unstubAllGlobals();
  authStore.clear();
});

describe('Merging a duplicate on the cat page', () => {
  it('lists the other cats one cares for, says what moves, and merges', async () => {
    let merges: CatMerge[] = [];
    const { fetchMock } = renderPage({
      'GET /api/cats/c1': () => Response.json({ cat: luna() }),
      'GET /api/cats/c1/history': () => Response.json({ merges, info: { nextCursor: null } }),
      'GET /api/cats': () =>
        Response.json({
          cats: [testCatListItem('c1', 'Luna'), testCatListItem('c2', 'Luna 2')],
          info: { nextCursor: null },
        } satisfies CatsResponse),
      // The duplicate lives with someone and has a home point; Luna has none.
      'GET /api/cats/c2': () =>
        Response.json({
          cat: testCat('c2', {
            name: 'Luna 2',
            living: 'household',
            home: { latitude: 51.5, longitude: -0.1 },
            viewer: caretaker,
          }),
        }),
      'POST /api/cats/c1/merge': () => {
        merges = [mergeOf()];
        return Response.json({ message: 'Cats merged', cat: luna(), merge: merges[0] });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Merge a duplicate…' }));
    const pick = await screen.findByRole('dialog', { name: 'Merge a duplicate into Luna' });
    expect(
      within(pick).getByText(
        'Pick the other profile of this same cat. Only the cats you care for are listed.',
      ),
    ).toBeTruthy();
    // Only the cats one cares for, the page's own cat left out.
    const option = await within(pick).findByRole('button', { name: /Luna 2/ });
    expect(within(within(pick).getByRole('list', { name: 'Your cats' })).getAllByRole('button')).toHaveLength(
      1,
    );
    const asked = fetchMock.mock.calls.map(([u]) => String(u)).find((u) => u.startsWith('/api/cats?'));
    expect(asked).toBe('/api/cats?caredFor=true');
    fireEvent.click(option);

    const confirm = await screen.findByRole('alertdialog', { name: 'Merge Luna 2 into Luna?' });
    // Back has the focus: Enter never merges by accident.
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Back' }));
    const effects = () =>
      within(confirm)
        .getAllByRole('listitem')
        .map((li) => li.textContent);
    await waitFor(() =>
      expect(effects()).toEqual([
        'Luna 2’s sightings, followers and caretakers move to Luna.',
        'Luna keeps its own name, photo and details. The address of Luna 2’s page leads to Luna.',
        'Luna takes Luna 2’s home point, so the sightings near that home stay private.',
        'You can undo this for 30 days from the cat’s history.',
      ]),
    );
    expect(bodyOf(fetchMock, 'POST', '/api/cats/c1/merge')).toBeUndefined();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Merge' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(bodyOf(fetchMock, 'POST', '/api/cats/c1/merge')).toEqual({ duplicateCatId: 'c2' });
    expect(screen.getByText('Luna 2 is now part of Luna. You can undo this from the history.')).toBeTruthy();
    // The history shows the merge, with Undo.
    const history = await screen.findByRole('region', { name: 'History' });
    expect(within(history).getByText(/merged/).textContent).toMatch(/^ana merged Luna 2 into Luna\. 1 d$/);
    expect(within(history).getByRole('button', { name: 'Undo' })).toBeTruthy();
  });

  it('goes back to the list, and keeps a refusal in the dialog', async () => {
    renderPage({
      'GET /api/cats/c1': () => Response.json({ cat: luna({ home: { latitude: 1, longitude: 1 } }) }),
      'GET /api/cats/c1/history': () => Response.json({ merges: [], info: { nextCursor: null } }),
      'GET /api/cats': () =>
        Response.json({ cats: [testCatListItem('c2', 'Luna 2')], info: { nextCursor: null } }),
      'GET /api/cats/c2': () => Response.json({ cat: testCat('c2', { name: 'Luna 2' }) }),
      'POST /api/cats/c1/merge': () =>
        Response.json({ message: CAT_MESSAGES.mergeNotCaretaker }, { status: 403 }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Merge a duplicate…' }));
    fireEvent.click(await screen.findByRole('button', { name: /Luna 2/ }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Merge Luna 2 into Luna?' });
    // Luna has a home point of her own: nothing is said of the duplicate's.
    expect(confirm.textContent).not.toContain('home point');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Back' }));
    fireEvent.click(await screen.findByRole('button', { name: /Luna 2/ }));
    confirm = await screen.findByRole('alertdialog', { name: 'Merge Luna 2 into Luna?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Merge' }));
    expect((await within(confirm).findByRole('alert')).textContent).toBe(CAT_MESSAGES.mergeNotCaretaker);
  });

  it('shows the demo its own message', async () => {
    renderPage({
      'GET /api/cats/c1': () => Response.json({ cat: luna() }),
      'GET /api/cats/c1/history': () => Response.json({ merges: [mergeOf()], info: { nextCursor: null } }),
      'POST /api/cats/c1/merges/m1/undo': () =>
        Response.json({ message: DEMO_DISABLED_MESSAGE }, { status: 403 }),
    });
    const undo = await screen.findByRole('button', { name: 'Undo' });
    authStore.set({ userId: DEMO_USER_ID });
    fireEvent.click(undo);
    expect(await screen.findByRole('alertdialog', { name: DEMO_DISABLED_MESSAGE })).toBeTruthy();
  });

  it('shows a stranger no Merge button, and the history with who undid what, without Undo', async () => {
    renderPage({
      'GET /api/cats/c1': () =>
        Response.json({ cat: luna({ viewer: { ...caretaker, isCaretaker: false, canEdit: false } }) }),
      'GET /api/cats/c1/history': () =>
        Response.json({
          merges: [
            mergeOf({
              canUndo: false,
              undoneBy: { _id: 'b', username: 'ben' },
              undoneAt: new Date(Date.now() - DAY).toISOString(),
            }),
            mergeOf({ _id: 'm0', mergedBy: null, canUndo: false, duplicate: { _id: 'c3', name: 'Moon' } }),
          ],
          info: { nextCursor: null },
        }),
    });
    const history = await screen.findByRole('region', { name: 'History' });
    expect(screen.queryByRole('button', { name: 'Merge a duplicate…' })).toBeNull();
    const texts = within(history)
      .getAllByRole('paragraph')
      .map((p) => p.textContent?.replace(/\s\S+\s?\S*$/, ''));
    expect(texts).toEqual([
      'ana merged Luna 2 into Luna.',
      'ben undid this merge.',
      'Someone merged Moon into Luna.',
    ]);
    expect(within(history).getByRole('link', { name: 'Moon' }).getAttribute('href')).toBe('/cats/c3');
    expect(within(history).queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it("loads the history's older merges with 'Show more' until there are none", async () => {
    const { fetchMock } = renderPage({
      'GET /api/cats/c1': () => Response.json({ cat: luna() }),
      'GET /api/cats/c1/history': (_init, url) =>
        new URL(url, 'http://x').searchParams.get('cursor') === 'next'
          ? Response.json({
              merges: [mergeOf({ _id: 'm0', canUndo: false, duplicate: { _id: 'c3', name: 'Moon' } })],
              info: { nextCursor: null },
            })
          : Response.json({ merges: [mergeOf()], info: { nextCursor: 'next' } }),
    });
    const history = await screen.findByRole('region', { name: 'History' });
    expect(within(history).queryByRole('link', { name: 'Moon' })).toBeNull();
    fireEvent.click(within(history).getByRole('button', { name: 'Show more' }));
    expect(await within(history).findByRole('link', { name: 'Moon' })).toBeTruthy();
    expect(within(history).getByRole('link', { name: 'Luna 2' })).toBeTruthy();
    expect(within(history).queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(fetchMock.mock.calls.map(([u]) => u)).toContain('/api/cats/c1/history?cursor=next');
  });

  it('undoes a merge and says so', async () => {
    let merges = [mergeOf()];
    const { fetchMock } = renderPage({
      'GET /api/cats/c1': () => Response.json({ cat: luna() }),
      'GET /api/cats/c1/history': () => Response.json({ merges, info: { nextCursor: null } }),
      'POST /api/cats/c1/merges/m1/undo': () => {
        merges = [
          mergeOf({
            canUndo: false,
            undoneBy: { _id: 'me', username: 'ana' },
            undoneAt: new Date().toISOString(),
          }),
        ];
        return Response.json({ message: 'Merge undone', merge: merges[0] });
      },
    });
    const history = await screen.findByRole('region', { name: 'History' });
    expect(within(history).getByText(/You can undo this until/)).toBeTruthy();
    fireEvent.click(within(history).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Luna 2 has a page of its own again.')).toBeTruthy();
    expect(
      fetchMock.mock.calls.some(([u, i]) => u === '/api/cats/c1/merges/m1/undo' && i?.method === 'POST'),
    ).toBe(true);
    await waitFor(() => expect(within(history).queryByRole('button', { name: 'Undo' })).toBeNull());
    expect(within(history).getByText(/undid this merge/)).toBeTruthy();
  });

  it("moves from a merged profile's address to the cat it is part of", async () => {
    renderPage(
      {
        'GET /api/cats/c2': () => Response.json({ cat: luna(), mergedInto: 'c1' }),
        'GET /api/cats/c1': () => Response.json({ cat: luna() }),
        'GET /api/cats/c1/history': () => Response.json({ merges: [mergeOf()], info: { nextCursor: null } }),
      },
      '/cats/c2',
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Luna' })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/cats/c1');
  });
});
