import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { GROUP_MESSAGES, type OwnJoinRequestsResponse } from '@cats/contracts';
import { authStore } from '../../../lib/auth-store.ts';
import { loadLanguage } from '../../../i18n/i18n-store.ts';
import { PendingRequests } from './pending-requests.tsx';

const street = { _id: 'g1', groupName: 'Garden Cats' };
const corner = { _id: 'g2', groupName: 'Corner Shop' };

/** GET /api/groups/requests answers what is still pending; DELETE answers `cancel` and drops it. */
function server(cancel: () => Response) {
  authStore.set({ accessToken: 't', userId: 'me' });
  let pending: OwnJoinRequestsResponse['requests'] = [
    { group: street, requestedAt: '2026-11-26T10:00:00.000Z' },
    { group: corner, requestedAt: '2026-11-25T10:00:00.000Z' },
  ];
  const deleted: string[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    if (url === '/api/groups/requests') return Response.json({ requests: pending });
    const match = /^\/api\/groups\/([^/]+)\/request$/.exec(url);
    if (match && init.method === 'DELETE') {
      deleted.push(match[1]!);
      const answer = cancel();
      if (answer.ok) pending = pending.filter((r) => r.group._id !== match[1]);
      return answer;
    }
    return Response.json({ message: `unexpected ${url}` }, { status: 500 });
  });
  vi.stubGlobal('fetch', fetchMock);
  const onResult = vi.fn();
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={client}>
      <PendingRequests onResult={onResult} />
    </QueryClientProvider>,
  );
  return { onResult, deleted };
}

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  authStore.set({ accessToken: null, userId: null });
  await act(() => loadLanguage('en'));
});

describe('PendingRequests', () => {
  it("lists the caller's pending requests and cancels one, with the server's message", async () => {
    const { onResult, deleted } = server(() => Response.json({ message: GROUP_MESSAGES.requestCancelled }));
    await screen.findByRole('heading', { name: 'Your requests to join' });
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Garden CatsCancel request',
      'Corner ShopCancel request',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel request to join Garden Cats' }));
    await waitFor(() => expect(onResult).toHaveBeenCalledWith(GROUP_MESSAGES.requestCancelled));
    expect(deleted).toEqual(['g1']);
    await waitFor(() => expect(screen.queryByText('Garden Cats')).toBeNull());
    expect(screen.getByText('Corner Shop')).toBeTruthy();
  });

  it("shows the server's sentence when the request was answered meanwhile, and reads the list again", async () => {
    const { onResult } = server(() =>
      Response.json({ message: GROUP_MESSAGES.ownRequestNotFound }, { status: 404 }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel request to join Corner Shop' }));
    await waitFor(() => expect(onResult).toHaveBeenCalledWith(GROUP_MESSAGES.ownRequestNotFound));
    expect(screen.getByText('Corner Shop')).toBeTruthy();
  });

  it('speaks Spanish', async () => {
    await act(() => loadLanguage('es'));
    server(() => Response.json({ message: GROUP_MESSAGES.requestCancelled }));
    await screen.findByRole('heading', { name: 'Tus solicitudes para unirte' });
    expect(
      screen.getByRole('button', { name: 'Cancelar la solicitud para unirte a Garden Cats' }).textContent,
    ).toBe('Cancelar solicitud');
  });

  it('shows nothing when no request is waiting', async () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    const fetchMock = vi.fn(async () => Response.json({ requests: [] }));
    vi.stubGlobal('fetch', fetchMock);
    const { container } = render(
      <QueryClientProvider client={new QueryClient()}>
        <PendingRequests onResult={() => {}} />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(container.innerHTML).toBe('');
  });
});
