import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import {
  alreadyShowsMessage,
  CAT_MESSAGES,
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  type CatsResponse,
  type Post,
  type SuggestCatResponse,
} from '@cats/contracts';
import { authStore } from '../../lib/auth-store.ts';
import { PostMenu } from '../post/post-menu.tsx';
import { testPost } from '../post/test-post.ts';
import { clearToasts, ToastRegion } from '../toast.tsx';
import { testCatListItem } from './test-cat.ts';

/** Someone else's picture: mariposa's, with its ~500 m cell. */
const theirs = (overrides: Partial<Post> = {}) =>
  testPost('p1', {
    user: { _id: 'mariposa', username: 'mariposa' },
    latitude: 51.5,
    longitude: -0.12,
    locationPrecision: 'approximate',
    ...overrides,
  });

const CATS = [testCatListItem('c1', 'Luna', new Date().toISOString()), testCatListItem('c2', 'Milo')];

type Route = (init: RequestInit) => Response | Promise<Response>;

function setup(post: Post, routes: Record<string, Route> = {}, cats = CATS) {
  authStore.set({ accessToken: 't', userId: 'me' });
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    if (url.startsWith('/api/cats?')) {
      const q = new URL(url, 'http://x').searchParams.get('q') ?? '';
      return Response.json({
        cats: cats.filter((c) => c.name.toLowerCase().includes(q.toLowerCase())),
        info: { nextCursor: null },
      } satisfies CatsResponse);
    }
    const route = routes[`${init.method ?? 'GET'} ${url.split('?')[0]}`];
    return route ? route(init) : Response.json({ message: `unexpected ${url}` }, { status: 500 });
  });
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <MemoryRouter>
      <QueryClientProvider client={client}>
        <PostMenu post={post} />
        <ToastRegion />
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return { fetchMock };
}

async function openDialog() {
  fireEvent.click(screen.getByRole('button', { name: 'Post options' }));
  fireEvent.click(screen.getByRole('menuitem', { name: 'This is…' }));
  return screen.findByRole('dialog', { name: 'Which cat is this?' });
}

const suggested = (catId: string, name: string): SuggestCatResponse => ({
  message: 'Suggestion sent',
  suggestion: {
    _id: 's1',
    postId: 'p1',
    cat: { _id: catId, name, cover: null },
    suggestedBy: { _id: 'me', username: 'me' },
    createdAt: new Date().toISOString(),
  },
});

afterEach(() => {
  cleanup();
  clearToasts();
  vi.unstubAllGlobals();
  authStore.clear();
});

describe("'This is…' on someone else's picture", () => {
  it('searches the cats nearest the picture first, and suggests the one picked in one tap', async () => {
    const { fetchMock } = setup(theirs(), {
      'POST /api/posts/p1/cat-suggestions': () => Response.json(suggested('c1', 'Luna'), { status: 201 }),
    });
    const dialog = await openDialog();
    expect(
      within(dialog).getByText(
        'Pick the cat you think this is. mariposa will decide whether to link the picture to it.',
      ),
    ).toBeTruthy();
    // The search starts with the dialog; on a busy machine its request may come a moment after.
    await waitFor(() => {
      const searched = fetchMock.mock.calls.map(([u]) => String(u)).find((u) => u.startsWith('/api/cats?'));
      expect(searched).toBe('/api/cats?near=51.5%2C-0.12');
    });
    fireEvent.change(within(dialog).getByLabelText('Search cats by name'), { target: { value: 'mi' } });
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: /Luna/ })).toBeNull());
    fireEvent.change(within(dialog).getByLabelText('Search cats by name'), { target: { value: '' } });
    fireEvent.click(await within(dialog).findByRole('button', { name: /Luna/ }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const post = fetchMock.mock.calls.find(
      ([u, init]) => u === '/api/posts/p1/cat-suggestions' && init?.method === 'POST',
    );
    expect(JSON.parse(String((post![1] as RequestInit).body))).toEqual({ catId: 'c1' });
    expect(screen.getByText('You suggested that this is Luna. mariposa will decide.')).toBeTruthy();
  });

  it('marks the cat the picture already shows, and cannot suggest it again', async () => {
    setup(theirs({ cat: { _id: 'c1', name: 'Luna', missing: false } }));
    const dialog = await openDialog();
    expect(dialog.textContent).toContain(
      'mariposa says this is Luna. If you know better, pick the cat it shows and mariposa will decide.',
    );
    const linked = await within(dialog).findByRole('button', { name: /Luna/ });
    expect(linked.getAttribute('aria-pressed')).toBe('true');
    expect(linked).toHaveProperty('disabled', true);
    expect(within(dialog).getByRole('button', { name: /Milo/ })).toHaveProperty('disabled', false);
  });

  it("keeps the server's refusal in the dialog, and shows the demo's message in its own", async () => {
    let status = 409;
    setup(theirs(), {
      'POST /api/posts/p1/cat-suggestions': () =>
        status === 409
          ? Response.json({ message: alreadyShowsMessage('Milo') }, { status: 409 })
          : Response.json({ message: DEMO_DISABLED_MESSAGE }, { status: 403 }),
    });
    const dialog = await openDialog();
    fireEvent.click(await within(dialog).findByRole('button', { name: /Milo/ }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This picture already shows Milo');
    expect(screen.getByRole('dialog', { name: 'Which cat is this?' })).toBeTruthy();

    status = 403;
    // The demo account, known by its id: the refusal's text is in the reader's language.
    authStore.set({ userId: DEMO_USER_ID });
    fireEvent.click(within(dialog).getByRole('button', { name: /Luna/ }));
    expect(await screen.findByRole('alertdialog', { name: DEMO_DISABLED_MESSAGE })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Which cat is this?' })).toBeNull();
  });

  it('says in the dialog why a household cat someone else cares for cannot be suggested (issue 46)', async () => {
    setup(theirs(), {
      'POST /api/posts/p1/cat-suggestions': () =>
        Response.json({ message: CAT_MESSAGES.householdSuggestCaretakers }, { status: 403 }),
    });
    const dialog = await openDialog();
    fireEvent.click(await within(dialog).findByRole('button', { name: /Luna/ }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This cat lives with someone: only its caretakers say which pictures show it',
    );
    expect(screen.getByRole('dialog', { name: 'Which cat is this?' })).toBeTruthy();
  });

  it("shows a household cat someone else cares for but does not offer it; a caretaker's own it does", async () => {
    const { fetchMock } = setup(
      theirs(),
      { 'POST /api/posts/p1/cat-suggestions': () => Response.json(suggested('c4', 'Nala'), { status: 201 }) },
      [
        testCatListItem('c3', 'Tom', null, false, { living: 'household' }),
        testCatListItem('c4', 'Nala', null, false, { living: 'household', viewerIsCaretaker: true }),
        ...CATS,
      ],
    );
    const dialog = await openDialog();
    const tom = await within(dialog).findByRole('button', { name: /Tom/ });
    expect(tom).toHaveProperty('disabled', true);
    expect(tom.textContent).toContain('Lives with someone: only its caretakers say which pictures show it');
    fireEvent.click(tom);
    expect(within(dialog).getByRole('button', { name: /Luna/ })).toHaveProperty('disabled', false);
    const nala = within(dialog).getByRole('button', { name: /Nala/ });
    expect(nala.textContent).not.toContain('only its caretakers');
    fireEvent.click(nala);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = fetchMock.mock.calls.filter(([u]) => u === '/api/posts/p1/cat-suggestions');
    expect(sent.map(([, init]) => JSON.parse(String((init as RequestInit).body)))).toEqual([{ catId: 'c4' }]);
  });
  it('offers a missing household cat to someone who does not care for it, as the server takes it', async () => {
    const { fetchMock } = setup(
      theirs(),
      { 'POST /api/posts/p1/cat-suggestions': () => Response.json(suggested('c6', 'Kira'), { status: 201 }) },
      [testCatListItem('c6', 'Kira', null, true, { living: 'household' }), ...CATS],
    );
    const dialog = await openDialog();
    const kira = await within(dialog).findByRole('button', { name: /Kira/ });
    expect(kira).toHaveProperty('disabled', false);
    expect(kira.textContent).not.toContain('only its caretakers');
    fireEvent.click(kira);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = fetchMock.mock.calls.filter(([u]) => u === '/api/posts/p1/cat-suggestions');
    expect(sent.map(([, init]) => JSON.parse(String((init as RequestInit).body)))).toEqual([{ catId: 'c6' }]);
  });
});
