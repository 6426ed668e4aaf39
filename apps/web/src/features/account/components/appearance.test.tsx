import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Appearance } from './appearance.tsx';

/** index.html's two theme-color tags, as the page starts with them. */
function addThemeColourTags() {
  document.head.innerHTML =
    '<meta name="theme-color" content="#2f2a4a" media="(prefers-color-scheme: light)">' +
    '<meta name="theme-color" content="#231f36" media="(prefers-color-scheme: dark)">';
}
const themeColours = () =>
  [...document.querySelectorAll('meta[name="theme-color"]')].map(
    (m) => `${m.getAttribute('media')} ${m.getAttribute('content')}`,
  );
const radio = (name: string) =>
  within(screen.getByRole('radiogroup', { name: 'Appearance' })).getByRole('radio', { name });

describe('Settings: Appearance', () => {
  beforeEach(() => {
    localStorage.clear();
    delete document.documentElement.dataset.theme;
    addThemeColourTags();
  });
  afterEach(cleanup);

  it('starts on System when nothing is stored, and leaves the page to the device', () => {
    render(<Appearance />);
    expect((radio('System') as HTMLInputElement).checked).toBe(true);
    expect(document.documentElement.dataset.theme).toBeUndefined();
  });

  it('applies Dark at once, remembers it on this device and colours the browser bar', () => {
    render(<Appearance />);
    fireEvent.click(radio('Dark'));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem('cats-theme')).toBe('dark');
    expect(themeColours()).toEqual(['all #231f36', 'all #231f36']);
    expect((radio('Dark') as HTMLInputElement).checked).toBe(true);
  });

  it('shows the stored choice, and System forgets it and restores both schemes', () => {
    localStorage.setItem('cats-theme', 'light');
    render(<Appearance />);
    expect((radio('Light') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(radio('System'));
    expect(document.documentElement.dataset.theme).toBeUndefined();
    expect(localStorage.getItem('cats-theme')).toBeNull();
    expect(themeColours()).toEqual([
      '(prefers-color-scheme: light) #2f2a4a',
      '(prefers-color-scheme: dark) #231f36',
    ]);
  });
});
