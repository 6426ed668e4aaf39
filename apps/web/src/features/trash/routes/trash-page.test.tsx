import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { TrashedPost } from '@cats/contracts';
import { testPost } from '../../../components/post/test-post.ts';
import { loadLanguage } from '../../../i18n/i18n-store.ts';
import { authStore } from '../../../lib/auth-store.ts';
import TrashPage from './trash-page.tsx';

const DAY = 24 * 60 * 60 * 1000;

const trashed = (id: string, daysLeft: number, over: Partial<TrashedPost> = {}): TrashedPost => ({
  ...testPost(id),
  deletedAt: new Date(Date.now() - (30 - daysLeft) * DAY).toISOString(),
  // A little under the whole days, as the page counts days begun.
  purgeAt: new Date(Date.now() + daysLeft * DAY - 60_000).toISOString(),
  ...over,
});

function setup(posts: TrashedPost[]) {
  authStore.set({ accessToken: 't', userId: 'me' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      if (url === '/api/posts/trash') return Response.json({ posts });
      if (url.endsWith('/restore') && init.method === 'POST')
        return Response.json({ message: 'Post restored', post: posts[0] });
      return Response.json({ message: `unexpected ${url}` }, { status: 500 });
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <TrashPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  authStore.clear();
});

describe('TrashPage', () => {
  const posts = [
    trashed('p1', 30, { catName: 'Pimienta' }),
    trashed('p2', 1, { user: { _id: 'u2', username: 'tom.tabby' } }),
  ];

  it('counts the days left and names each picture it restores', async () => {
    setup(posts);
    const first = (await screen.findByRole('button', { name: 'Restore Photo of Pimienta' })).closest('li')!;
    expect(within(first).getByText('30 days left')).toBeTruthy();
    const second = screen.getByRole('button', { name: 'Restore Cat photo by tom.tabby' }).closest('li')!;
    expect(within(second).getByText('1 day left')).toBeTruthy();
    fireEvent.click(within(first).getByRole('button'));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Picture restored to your profile. View your profile',
    );
  });

  describe('in Spanish', () => {
    afterEach(() => act(() => loadLanguage('en')));

    it('speaks Spanish, plurals included', async () => {
      await act(() => loadLanguage('es'));
      setup(posts);
      expect(screen.getByRole('heading', { name: 'Papelera' })).toBeTruthy();
      const first = (await screen.findByRole('button', { name: 'Restaurar la foto de Pimienta' })).closest(
        'li',
      )!;
      expect(within(first).getByText('Quedan 30 días')).toBeTruthy();
      const second = screen
        .getByRole('button', { name: 'Restaurar la foto de gato de tom.tabby' })
        .closest('li')!;
      expect(within(second).getByText('Queda 1 día')).toBeTruthy();
      fireEvent.click(within(first).getByRole('button'));
      expect((await screen.findByRole('status')).textContent).toBe(
        'Foto restaurada en tu perfil. Ver tu perfil',
      );
      expect(screen.getByRole('link', { name: 'Ver tu perfil' }).getAttribute('href')).toBe('/profile/me');
    });
  });
});
