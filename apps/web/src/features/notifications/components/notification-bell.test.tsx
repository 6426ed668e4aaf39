import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { authStore } from '../../../lib/auth-store.ts';
import { loadLanguage } from '../../../i18n/i18n-store.ts';
import { notificationKeys } from '../../../lib/notification-cache.ts';
import { badgeText, bellLabel, NotificationBell } from './notification-bell.tsx';

function renderBell(count: number) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(notificationKeys.unreadCount, { count });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <NotificationBell className="member-nav__tab" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { client, link: screen.getByRole('link', { name: /^Notifications/ }) };
}

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  authStore.clear();
  await act(() => loadLanguage('en'));
});

describe('bell texts', () => {
  it('names the count, and says more than 99 above it', () => {
    expect(bellLabel(0)).toBe('Notifications');
    expect(bellLabel(1)).toBe('Notifications, 1 unread');
    expect(bellLabel(3)).toBe('Notifications, 3 unread');
    expect(bellLabel(99)).toBe('Notifications, 99 unread');
    expect(bellLabel(100)).toBe('Notifications, more than 99 unread');
    expect(badgeText(7)).toBe('7');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
    expect(badgeText(12_345)).toBe('99+');
  });
});

describe('NotificationBell', () => {
  it('links to /notifications with the count in its name and on its badge', () => {
    const { link } = renderBell(3);
    expect(link.getAttribute('href')).toBe('/notifications');
    expect(link.getAttribute('aria-label')).toBe('Notifications, 3 unread');
    expect(link.querySelector('.notification-bell__badge')?.textContent).toBe('3');
  });

  it("shows '99+' above 99", () => {
    const { link } = renderBell(250);
    expect(link.getAttribute('aria-label')).toBe('Notifications, more than 99 unread');
    expect(link.querySelector('.notification-bell__badge')?.textContent).toBe('99+');
  });

  it('speaks Spanish, and changes with the language', async () => {
    const { link } = renderBell(1200);
    expect(link.getAttribute('aria-label')).toBe('Notifications, more than 99 unread');
    await act(() => loadLanguage('es'));
    expect(link.getAttribute('aria-label')).toBe('Notificaciones, más de 99 sin leer');
    expect(link.textContent).toBe('99+Avisos');
    expect(bellLabel(1200 - 1199)).toBe('Notificaciones, 1 sin leer');
  });

  it('shows no badge when nothing is unread', () => {
    const { link } = renderBell(0);
    expect(link.getAttribute('aria-label')).toBe('Notifications');
    expect(link.querySelector('.notification-bell__badge')).toBeNull();
  });

  it('asks the server for the count', async () => {
    authStore.set({ accessToken: 't', userId: 'me' });
    const fetchMock = vi.fn(async () => Response.json({ count: 12 }));
    vi.stubGlobal('fetch', fetchMock);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <NotificationBell className="member-nav__tab" />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await screen.findByRole('link', { name: 'Notifications, 12 unread' });
    expect(fetchMock).toHaveBeenCalledWith('/api/notifications/unread-count', expect.anything());
  });
});
