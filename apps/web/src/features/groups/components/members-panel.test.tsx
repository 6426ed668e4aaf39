import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { GroupDetail } from '@cats/contracts';
import { authStore } from '../../../lib/auth-store.ts';
import { loadLanguage } from '../../../i18n/i18n-store.ts';
import { MembersPanel, RequestsPanel } from './members-panel.tsx';

const group: GroupDetail = {
  _id: 'g1',
  groupName: 'Tapas Cats',
  code: 'TapasCats-7KQ4-M2XD',
  role: 'owner',
  members: [
    { user: { _id: 'me', username: 'mariposa' }, role: 'owner', joinedAt: '2026-11-01T10:00:00.000Z' },
    { user: { _id: 'u2', username: 'luna' }, role: 'member', joinedAt: '2026-11-02T10:00:00.000Z' },
  ],
  pendingRequests: [{ user: { _id: 'u3', username: 'tom' }, requestedAt: '2026-11-03T10:00:00.000Z' }],
};

function renderPanels() {
  authStore.set({ accessToken: 't', userId: 'me' });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <RequestsPanel group={group} onResult={() => {}} />
        <MembersPanel group={group} onResult={() => {}} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(async () => {
  cleanup();
  authStore.clear();
  await act(() => loadLanguage('en'));
});

describe('RequestsPanel and MembersPanel', () => {
  it('title each list with its count in a badge, and name whom each button acts on', () => {
    renderPanels();
    const members = screen.getByRole('heading', { name: 'Members 2' });
    expect(members.querySelector('.groups-panel__count')?.textContent).toBe('2');
    screen.getByRole('heading', { name: 'Pending requests 1' });
    screen.getByRole('button', { name: 'Accept tom' });
    screen.getByRole('button', { name: 'Remove luna' });
    expect(screen.getByText('You').textContent).toBe('You');
  });

  it('speaks Spanish', async () => {
    await act(() => loadLanguage('es'));
    renderPanels();
    const members = screen.getByRole('heading', { name: 'Miembros 2' });
    expect(members.querySelector('.groups-panel__count')?.textContent).toBe('2');
    screen.getByRole('heading', { name: 'Solicitudes pendientes 1' });
    expect(screen.getByRole('button', { name: 'Rechazar a tom' }).textContent).toBe('Rechazar');
    expect(screen.getByRole('button', { name: 'Quitar a luna' }).textContent).toBe('Quitar');
    expect(screen.getAllByText('Propietario')).toHaveLength(1);
  });
});
