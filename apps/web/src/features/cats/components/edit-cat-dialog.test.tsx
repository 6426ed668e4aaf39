import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { CAT_MESSAGES, type CatResponse, type CatSightingsResponse } from '@cats/contracts';
import { catKeys } from '../../../components/cats/api/query-keys.ts';
import { testCat } from '../../../components/cats/test-cat.ts';
import { testPost } from '../../../components/post/test-post.ts';
import { EditCatDialog } from './edit-cat-dialog.tsx';

const caretakerView = { isCaretaker: true, canEdit: true, following: false, canFollow: true };
const cat = testCat('c1', {
  viewer: caretakerView,
  coatColours: ['black'],
  cover: { postId: 'p1', image: testPost('p1').image, altText: null },
});

/** The dialog over a cached cat page; PATCH answers as `patch` says. */
function setup(patch: (body: unknown) => Response) {
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    if (url.startsWith('/api/cats/c1/sightings'))
      return Response.json({
        posts: [testPost('p1'), testPost('p2')],
        info: { nextCursor: null },
      } satisfies CatSightingsResponse);
    if (init.method === 'PATCH' && url === '/api/cats/c1') return patch(JSON.parse(String(init.body)));
    return Response.json({ message: `unexpected ${url}` }, { status: 500 });
  });
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  client.setQueryData<CatResponse>(catKeys.detail('c1'), { cat });
  const onClose = vi.fn();
  const onDemoRefused = vi.fn();
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <EditCatDialog cat={cat} onClose={onClose} onDemoRefused={onDemoRefused} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const patches = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH');
  return { client, onClose, onDemoRefused, patches };
}

const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('EditCatDialog', () => {
  it("refuses a blank name with the contracts' message, sending nothing", async () => {
    const { patches, onClose } = setup(() => Response.json({}));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '   ' } });
    save();
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(patches()).toHaveLength(0);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('refuses a name with control characters before asking the server', async () => {
    const { patches } = setup(() => Response.json({}));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Lu\u0007na' } });
    save();
    expect(await screen.findByText('Name contains invalid characters')).toBeTruthy();
    expect(patches()).toHaveLength(0);
  });

  it('sends only what changed, coat colours in the fixed order, and the chosen cover', async () => {
    const { patches, onClose, client } = setup((body) =>
      Response.json({ cat: { ...cat, ...(body as object), cover: cat.cover } } satisfies CatResponse),
    );
    fireEvent.click(screen.getByRole('checkbox', { name: 'Tabby' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'White' }));
    fireEvent.change(screen.getByLabelText('Ear-tipped'), { target: { value: 'yes' } });
    fireEvent.change(screen.getByLabelText('Home'), { target: { value: 'household' } });
    await screen.findAllByRole('radio');
    const [current, other] = screen.getAllByRole('radio') as HTMLInputElement[];
    expect([current!.value, current!.checked, other!.value, other!.checked]).toEqual([
      'p1',
      true,
      'p2',
      false,
    ]);
    fireEvent.click(other!);
    save();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(JSON.parse(String(patches()[0]![1]!.body))).toEqual({
      coatColours: ['black', 'white', 'tabby'],
      earTipped: 'yes',
      living: 'household',
      coverPostId: 'p2',
    });
    expect(client.getQueryData<CatResponse>(catKeys.detail('c1'))?.cat.living).toBe('household');
  });

  it("shows the server's refusal in the dialog and stays open", async () => {
    const { onClose } = setup(() => Response.json({ message: CAT_MESSAGES.notCaretaker }, { status: 403 }));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Moon' } });
    save();
    expect((await screen.findByRole('alert')).textContent).toBe(CAT_MESSAGES.notCaretaker);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes without a request when nothing changed', () => {
    const { onClose, patches } = setup(() => Response.json({}));
    save();
    expect(onClose).toHaveBeenCalled();
    expect(patches()).toHaveLength(0);
  });
});
