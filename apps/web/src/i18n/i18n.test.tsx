import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LanguageSwitch } from '../components/language-switch.tsx';
import { SiteFooter } from '../components/site-footer.tsx';
import { chooseLanguage, currentLanguage, startLanguage, translate } from './i18n-store.ts';
import { browserLanguage, initialLanguage, storedLanguage } from './languages.ts';
import { Message } from './message.tsx';

const LIKES = {
  id: 'test.likes',
  defaultMessage: '{count, plural, one {# like} other {# likes}}',
};

describe('languages', () => {
  afterEach(async () => {
    cleanup();
    localStorage.clear();
    await act(() => startLanguage('en'));
  });

  it('opens in the first browser language the app speaks, and in a chosen one over it', () => {
    expect(browserLanguage(['fr-FR', 'es-AR', 'en'])).toBe('es');
    expect(browserLanguage(['de', 'fr'])).toBe('en');
    expect(browserLanguage([])).toBe('en');
    localStorage.setItem('language', 'es');
    expect(initialLanguage()).toBe('es');
    localStorage.setItem('language', 'klingon');
    expect(storedLanguage()).toBeNull();
  });

  it('formats English plurals from the message itself, with no catalogue', () => {
    expect(translate(LIKES, { count: 1 })).toBe('1 like');
    expect(translate(LIKES, { count: 1200 })).toBe('1,200 likes');
  });

  it('speaks Spanish from its catalogue, falls back to English for a text not in it, and marks the page', async () => {
    await startLanguage('es');
    expect(currentLanguage()).toBe('es');
    expect(document.documentElement.lang).toBe('es');
    expect(translate({ id: 'landing.tryDemo', defaultMessage: 'Try the demo' })).toBe('Probar la demo');
    expect(translate(LIKES, { count: 2 })).toBe('2 likes');
  });

  it('keeps tags in a sentence as elements, in the order of the translation', async () => {
    await startLanguage('es');
    render(<SiteFooter />);
    const link = screen.getByRole('link', { name: 'el equipo de Neighbourhood Cats' });
    expect(link.getAttribute('rel')).toBe('author');
    expect(link.closest('p')?.textContent).toMatch(
      /^© \d{4} Neighbourhood Cats · Hecho con cariño por el equipo de Neighbourhood Cats$/,
    );
  });

  it('switches every message on screen when the person picks a language, and remembers it', async () => {
    render(
      <>
        <Message id="landing.tryDemo" defaultMessage="Try the demo" />
        <LanguageSwitch />
      </>,
    );
    expect(screen.getByText('Try the demo')).toBeDefined();
    expect(screen.getByRole('button', { name: 'English' }).getAttribute('aria-current')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Español' }));
    expect(await screen.findByText('Probar la demo')).toBeDefined();
    expect(screen.getByRole('navigation', { name: 'Idioma' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Español' }).getAttribute('aria-current')).toBe('true');
    expect(localStorage.getItem('language')).toBe('es');
    await act(() => chooseLanguage('en'));
    expect(screen.getByText('Try the demo')).toBeDefined();
  });
});
