import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import {
  CAT_MESSAGES,
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  type CatsResponse,
  type CreateCatResponse,
  type LinkPostCatResponse,
  type Post,
} from '@cats/contracts';
import { api } from '../../lib/api-client.ts';
import { authStore } from '../../lib/auth-store.ts';
import { OwnPostMenu } from '../post/own-post-menu.tsx';
import { testPost } from '../post/test-post.ts';
import { clearToasts, ToastRegion } from '../toast.tsx';
import { CatName } from './cat-name.tsx';
import { testCat, testCatListItem } from './test-cat.ts';

const mine = (overrides: Partial<Post> = {}) =>
  testPost('p1', { user: { _id: 'me', username: 'me' }, groupIds: [], ...overrides });

const CATS = [testCatListItem('c1', 'Luna', new Date().toISOString()), testCatListItem('c2', 'Lulu')];

/** A card in miniature: the cat's name as the cards show it, and the own-post menu. */
function Card() {
  const { data } = useQuery({
    queryKey: ['feed-test'],
    queryFn: () => api<{ posts: Post[] }>('/api/feed-test'),
    staleTime: Infinity,
  });
  const post = data?.posts[0];
  if (!post) return null;
  return (
    <article data-testid="card">
      <p data-testid="cat">
        <CatName post={post} />
      </p>
      <OwnPostMenu post={post} />
    </article>
  );
}

type Route = (init: RequestInit, url: string) => Response | Promise<Response>;

function setup(post: Post, routes: Record<string, Route> = {}, cats = CATS) {
  authStore.set({ accessToken: 't', userId: 'me' });
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const path = url.split('?')[0];
    if (url.startsWith('/api/cats?')) {
      const q = new URL(url, 'http://x').searchParams.get('q') ?? '';
      return Response.json({
        cats: cats.filter((c) => c.name.toLowerCase().includes(q.toLowerCase())),
        info: { nextCursor: null },
      } satisfies CatsResponse);
    }
    const route = routes[`${init.method ?? 'GET'} ${path}`];
    return route ? route(init, url) : Response.json({ message: `unexpected ${url}` }, { status: 500 });
  });
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  client.setQueryData(['feed-test'], { posts: [post] });
  render(
    <MemoryRouter>
      <QueryClientProvider client={client}>
        <Card />
        <ToastRegion />
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return { fetchMock, client };
}

async function openDialog() {
  fireEvent.click(screen.getByRole('button', { name: 'Post options' }));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Which cat is this?' }));
  return screen.findByRole('dialog', { name: 'Which cat is this?' });
}
const bodyOf = (fetchMock: ReturnType<typeof vi.fn>, method: string, url: string) => {
  const call = fetchMock.mock.calls.find(
    ([u, init]) => u === url && (init as RequestInit)?.method === method,
  );
  return call ? JSON.parse(String((call[1] as RequestInit).body)) : undefined;
};

afterEach(() => {
  cleanup();
  clearToasts();
  vi.unstubAllGlobals();
  authStore.clear();
});

describe("'Which cat is this?'", () => {
  it('searches by name, nearest to the picture first, and links the cat picked', async () => {
    const post = mine({ catName: 'lu', latitude: 51.5, longitude: -0.12, locationPrecision: 'exact' });
    const { fetchMock } = setup(post, {
      'PUT /api/posts/p1/cat': () =>
        Response.json({
          updatedPost: { _id: 'p1', cat: { _id: 'c1', name: 'Luna', cover: null, missing: true } },
        } satisfies LinkPostCatResponse),
    });
    // The free-text name, as before, while no cat is linked.
    expect(screen.getByTestId('cat').textContent).toBe('lu');
    const dialog = await openDialog();
    expect(within(dialog).getByText('This picture is not linked to a cat yet.')).toBeTruthy();
    await within(dialog).findByRole('button', { name: /Luna/ });
    fireEvent.change(within(dialog).getByLabelText('Search cats by name'), { target: { value: 'lulu' } });
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: /Luna/ })).toBeNull());
    const searched = fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith('/api/cats?'));
    expect(searched.at(-1)).toBe('/api/cats?q=lulu&near=51.5%2C-0.12');

    fireEvent.change(within(dialog).getByLabelText('Search cats by name'), { target: { value: 'lu' } });
    fireEvent.click(await within(dialog).findByRole('button', { name: /Luna/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodyOf(fetchMock, 'PUT', '/api/posts/p1/cat')).toEqual({ catId: 'c1' });
    const link = within(screen.getByTestId('cat')).getByRole('link', { name: 'Luna' });
    expect(link.getAttribute('href')).toBe('/cats/c1');
    // Luna is missing, the answer says: the name says it at once, as a reload would.
    expect(screen.getByTestId('cat').textContent).toBe('Luna Missing');
    expect(screen.getByText('This picture now shows Luna.')).toBeTruthy();
  });

  it("unlinks with 'Not this cat', and the free-text name shows again", async () => {
    const { fetchMock } = setup(mine({ catName: 'Moon', cat: { _id: 'c1', name: 'Luna', missing: false } }), {
      'PUT /api/posts/p1/cat': () => Response.json({ updatedPost: { _id: 'p1', cat: null } }),
    });
    expect(within(screen.getByTestId('cat')).getByRole('link', { name: 'Luna' })).toBeTruthy();
    const dialog = await openDialog();
    expect(within(dialog).getByRole('link', { name: 'Luna' }).getAttribute('href')).toBe('/cats/c1');
    // The linked cat is marked and cannot be picked again.
    const current = await within(dialog).findByRole('button', { name: /Luna/ });
    expect(current.getAttribute('aria-pressed')).toBe('true');
    expect(current).toHaveProperty('disabled', true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Not this cat' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodyOf(fetchMock, 'PUT', '/api/posts/p1/cat')).toEqual({ catId: null });
    expect(screen.getByTestId('cat').textContent).toBe('Moon');
    expect(within(screen.getByTestId('cat')).queryByRole('link')).toBeNull();
  });

  it('offers no "Not this cat" on a picture without a cat', async () => {
    setup(mine());
    const dialog = await openDialog();
    expect(within(dialog).queryByRole('button', { name: 'Not this cat' })).toBeNull();
  });

  it('makes a new cat of the picture, named as the author typed it before', async () => {
    const { fetchMock } = setup(mine({ catName: 'Pixel' }), {
      'POST /api/cats': () =>
        Response.json({
          message: 'Cat created',
          cat: testCat('c9', { name: 'Pixel' }),
        } satisfies CreateCatResponse),
    });
    const dialog = await openDialog();
    const name = within(dialog).getByLabelText("New cat's name") as HTMLInputElement;
    expect(name.value).toBe('Pixel');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create this cat' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodyOf(fetchMock, 'POST', '/api/cats')).toEqual({ name: 'Pixel', postId: 'p1' });
    expect(within(screen.getByTestId('cat')).getByRole('link', { name: 'Pixel' }).getAttribute('href')).toBe(
      '/cats/c9',
    );
  });

  it('refuses a blank new name without a request', async () => {
    const { fetchMock } = setup(mine());
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create this cat' }));
    expect(await within(dialog).findByText('Name is required')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([u, init]) => u === '/api/cats' && init?.method === 'POST')).toBe(
      false,
    );
  });

  it("shows the server's refusal in the dialog, and the demo's message in its own", async () => {
    setup(mine(), {
      'PUT /api/posts/p1/cat': () => Response.json({ message: CAT_MESSAGES.postNotYours }, { status: 403 }),
      'POST /api/cats': () => Response.json({ message: DEMO_DISABLED_MESSAGE }, { status: 403 }),
    });
    const dialog = await openDialog();
    fireEvent.click(await within(dialog).findByRole('button', { name: /Luna/ }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(CAT_MESSAGES.postNotYours);
    expect(screen.getByTestId('cat').textContent).toBe('');

    // The demo account, known by its id: the refusal's text is in the reader's language.
    authStore.set({ userId: DEMO_USER_ID });
    fireEvent.change(within(dialog).getByLabelText("New cat's name"), { target: { value: 'Luna' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create this cat' }));
    expect(await screen.findByRole('alertdialog', { name: DEMO_DISABLED_MESSAGE })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Which cat is this?' })).toBeNull();
  });

  it('does not link a household cat the author does not care for, and says why; their own it does', async () => {
    // The server would refuse it (decision 022): its caretakers suggest it on the picture instead.
    const { fetchMock } = setup(mine(), {}, [
      testCatListItem('c3', 'Tom', null, false, { living: 'household' }),
      testCatListItem('c4', 'Nala', null, false, { living: 'household', viewerIsCaretaker: true }),
    ]);
    const dialog = await openDialog();
    const tom = await within(dialog).findByRole('button', { name: /Tom/ });
    expect(tom).toHaveProperty('disabled', true);
    expect(tom.textContent).toContain('Lives with someone: only its caretakers say which pictures show it');
    expect(within(dialog).getByRole('button', { name: /Nala/ })).toHaveProperty('disabled', false);
    fireEvent.click(tom);
    expect(bodyOf(fetchMock, 'PUT', '/api/posts/p1/cat')).toBeUndefined();
  });
});
