import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { DEMO_USER_ID, type DataExportStatus } from '@cats/contracts';
import { loadLanguage } from '../../../i18n/i18n-store.ts';
import { authStore } from '../../../lib/auth-store.ts';
import { DataExport } from './data-export.tsx';

const none: DataExportStatus = {
  status: 'none',
  createdAt: null,
  finishedAt: null,
  expiresAt: null,
  sizeBytes: null,
  message: null,
};

function setup(onDemoRefused = vi.fn()) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={client}>
      <DataExport onDemoRefused={onDemoRefused} />
    </QueryClientProvider>,
  );
  return onDemoRefused;
}

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  authStore.clear();
  await act(() => loadLanguage('en'));
});

describe('DataExport', () => {
  it("starts an export and shows 'Preparing your download…' from the server's answer", async () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) =>
      init?.method === 'POST'
        ? Response.json(
            { ...none, status: 'running', createdAt: '2026-11-25T10:00:00.000Z' },
            { status: 202 },
          )
        : Response.json(none),
    );
    vi.stubGlobal('fetch', fetchMock);
    setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    await screen.findByText('Preparing your download…');
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/profile/export',
      expect.objectContaining({ method: 'POST' }),
    );
  });

  it('offers the ready download with its size, and a new one', async () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({
          ...none,
          status: 'ready',
          createdAt: '2026-11-25T10:00:00.000Z',
          finishedAt: '2026-11-25T10:01:00.000Z',
          expiresAt: '2026-11-26T10:01:00.000Z',
          sizeBytes: 12_345_678,
        }),
      ),
    );
    setup();
    await screen.findByRole('button', { name: 'Download (12.3 MB)' });
    screen.getByRole('button', { name: 'Prepare a new download' });
    expect(document.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-26T10:01:00.000Z');
  });

  it('speaks Spanish, sizes and dates included (issue 28)', async () => {
    await act(() => loadLanguage('es'));
    authStore.set({ accessToken: 't', userId: 'me' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({
          ...none,
          status: 'ready',
          createdAt: '2026-11-25T10:00:00.000Z',
          finishedAt: '2026-11-25T10:01:00.000Z',
          expiresAt: '2026-11-26T10:01:00.000Z',
          sizeBytes: 12_345_678,
        }),
      ),
    );
    setup();
    await screen.findByRole('button', { name: 'Descargar (12,3 MB)' });
    screen.getByRole('button', { name: 'Preparar una nueva descarga' });
    screen.getByRole('heading', { name: 'Tus datos' });
    expect(document.querySelector('time')?.parentElement?.textContent).toMatch(
      /^Disponible hasta el 2[67] de noviembre de 2026/,
    );
  });

  it('says why an export failed, and lets it start again', async () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({
          ...none,
          status: 'failed',
          message: 'Preparing your data was interrupted. Please try again.',
        }),
      ),
    );
    setup();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Preparing your data was interrupted. Please try again.',
    );
    screen.getByRole('button', { name: 'Download my data' });
  });

  it('hands the demo refusal to the page (the demo modal)', async () => {
    authStore.set({ accessToken: 't', userId: DEMO_USER_ID });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init?: RequestInit) =>
        init?.method === 'POST'
          ? Response.json({ message: 'Feature disabled for demo user' }, { status: 403 })
          : Response.json(none),
      ),
    );
    const onDemoRefused = setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    await vi.waitFor(() => expect(onDemoRefused).toHaveBeenCalledOnce());
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
