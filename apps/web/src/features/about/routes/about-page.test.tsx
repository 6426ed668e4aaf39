import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { loadLanguage } from '../../../i18n/i18n-store.ts';
import AboutPage from './about-page.tsx';

const renderPage = () =>
  render(
    <MemoryRouter>
      <AboutPage />
    </MemoryRouter>,
  );

afterEach(cleanup);

describe('AboutPage', () => {
  it('credits the team with a link and lists the technology used', () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'About Neighbourhood Cats' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'the Neighbourhood Cats team' })).toBeTruthy();
    expect(screen.getByText('Database')).toBeTruthy();
    expect(screen.getByText('PostgreSQL').closest('dd')!.textContent).toBe(
      'PostgreSQL or PGlite, PostgreSQL embedded, with no set-up',
    );
  });

  describe('in Spanish', () => {
    afterEach(() => act(() => loadLanguage('en')));

    it('speaks Spanish and keeps the products’ names', async () => {
      await act(() => loadLanguage('es'));
      renderPage();
      expect(screen.getByRole('heading', { level: 1, name: 'Acerca de Neighbourhood Cats' })).toBeTruthy();
      expect(screen.getByRole('link', { name: 'el equipo de Neighbourhood Cats' })).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Ver la página de bienvenida' }).getAttribute('href')).toBe(
        '/welcome',
      );
      expect(screen.getByText('Base de datos')).toBeTruthy();
      expect(screen.getByText('Leaflet').closest('dd')!.textContent).toBe(
        'Leaflet para el mapa de gatos avistados',
      );
    });
  });
});
