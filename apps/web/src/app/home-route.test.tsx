import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { authStore } from '../lib/auth-store.ts';
import { HomeRoute, type SignedOutState } from './home-route.tsx';

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function renderHome(initial: { pathname: string; state?: SignedOutState }) {
  return render(
    <MemoryRouter initialEntries={[initial]}>
      <Routes>
        <Route path="/" element={<HomeRoute landing={<h1>Neighbourhood Cats</h1>} />} />
        <Route path="/feed" element={<h1>Feed</h1>} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

afterEach(() => {
  cleanup();
  authStore.set({ accessToken: null, userId: null });
});

describe('HomeRoute', () => {
  it('shows the landing page to visitors', () => {
    renderHome({ pathname: '/' });
    expect(screen.getByRole('heading', { name: 'Neighbourhood Cats' })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/');
  });

  it('sends a signed-in visitor of / to the feed', () => {
    authStore.set({ accessToken: 'token', userId: 'me' });
    renderHome({ pathname: '/' });
    expect(screen.getByRole('heading', { name: 'Feed' })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/feed');
  });

  it('lets logout land on the landing page while the session is being ended', () => {
    authStore.set({ accessToken: 'token', userId: 'me' });
    renderHome({ pathname: '/', state: { signedOut: true } });
    expect(screen.getByRole('heading', { name: 'Neighbourhood Cats' })).toBeTruthy();
    act(() => authStore.set({ accessToken: null, userId: null }));
    expect(screen.getByRole('heading', { name: 'Neighbourhood Cats' })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/');
  });
});
