import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { MissingAlert, MissingNearResponse } from '@cats/contracts';
import { loadLanguage } from '../../i18n/i18n-store.ts';
import { authStore } from '../../lib/auth-store.ts';
import { MissingBanner } from './missing-banner.tsx';

const alert = (id: string, name: string): MissingAlert => ({
  _id: `alert-${id}`,
  cat: { _id: id, name, cover: null },
  lastSeenAt: new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString(),
  place: { latitude: 36.72, longitude: -4.42, locationPrecision: 'approximate' },
  note: '',
  contact: 'report',
  raisedBy: { _id: 'keeper', username: 'keeper' },
  createdAt: '2026-11-25T10:00:00Z',
  expiresAt: '2026-12-25T10:00:00Z',
  viewer: { isCaretaker: false, canReport: true },
});

function setup(answer: MissingNearResponse) {
  authStore.set({ accessToken: 't', userId: 'me' });
  const fetchMock = vi.fn(async (_url: string) => Response.json(answer));
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MemoryRouter>
      <QueryClientProvider client={client}>
        <MissingBanner />
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return { fetchMock };
}

afterEach(async () => {
  await act(() => loadLanguage('en'));
  cleanup();
  vi.unstubAllGlobals();
});

describe('MissingBanner', () => {
  it('asks for the three it shows, links each to its cat, and counts the rest from the total', async () => {
    const { fetchMock } = setup({
      alerts: [alert('c1', 'Luna'), alert('c2', 'Milo'), alert('c3', 'Tom')],
      total: 7,
      area: 'home',
    });
    const luna = await screen.findByRole('link', { name: /Missing: Luna\./ });
    expect(luna.getAttribute('href')).toBe('/cats/c1');
    expect(screen.getAllByRole('link')).toHaveLength(3);
    expect(screen.getAllByText('Less than 2 km from your home area.')).toHaveLength(3);
    screen.getByText('4 more cats are missing near you: see them on Explore.');
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/cats/missing?limit=3');
  });

  it('says one more in a sentence of its own, and nothing more when all are shown', async () => {
    setup({
      alerts: [alert('c1', 'Luna'), alert('c2', 'Milo'), alert('c3', 'Tom')],
      total: 4,
      area: 'posts',
    });
    await screen.findByText('One more cat is missing near you: see it on Explore.');
    cleanup();
    setup({ alerts: [alert('c1', 'Luna')], total: 1, area: 'near' });
    await screen.findByRole('link', { name: /Missing: Luna\./ });
    expect(screen.queryByText(/more cats? (is|are) missing/)).toBeNull();
  });

  it('shows nothing at all when no cat is missing nearby', async () => {
    const { fetchMock } = setup({ alerts: [], total: 0, area: null });
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('speaks Spanish: the cat, when it was last seen, where, and how many more', async () => {
    await act(() => loadLanguage('es'));
    setup({
      alerts: [alert('c1', 'Luna'), alert('c2', 'Milo'), alert('c3', 'Tom')],
      total: 4,
      area: 'home',
    });
    const luna = await screen.findByRole('link', { name: /Perdido: Luna\./ });
    expect(luna.textContent).toMatch(/Visto por última vez hace [12] h\./);
    expect(screen.getAllByText('A menos de 2 km de tu zona.')).toHaveLength(3);
    screen.getByText('Hay un gato más perdido cerca de ti: míralo en Explorar.');
    screen.getByRole('heading', { name: 'Gatos perdidos cerca de ti' });
  });
});
