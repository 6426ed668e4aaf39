/**
 * The colour scheme chosen in Settings (issue 28), remembered on this device. 'system' follows the
 * device's prefers-color-scheme; 'light' and 'dark' set data-theme on <html>, which styles/global.css
 * reads. index.html's inline script applies the stored choice before the first paint, with the same
 * key and colours as here: change both together.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';

const STORAGE_KEY = 'cats-theme';

/** The browser's toolbar colour: the header's colour in each scheme (styles/global.css --color-chrome). */
const THEME_COLOURS = { light: '#2f2a4a', dark: '#231f36' } as const;

export function readThemeChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    // Storage can be blocked (private modes, site settings): the device's setting applies.
    return 'system';
  }
}

/** Applies a choice to the page at once and remembers it (as far as the browser lets us). */
export function applyThemeChoice(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
  // index.html has two theme-color tags, light then dark, each for its prefers-color-scheme; an
  // explicit choice makes both show that scheme's colour.
  document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]').forEach((meta, i) => {
    const scheme = i === 0 ? 'light' : 'dark';
    meta.setAttribute('media', choice === 'system' ? `(prefers-color-scheme: ${scheme})` : 'all');
    meta.setAttribute('content', THEME_COLOURS[choice === 'system' ? scheme : choice]);
  });
  try {
    if (choice === 'system') localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    // Not remembered: this visit still shows the chosen scheme.
  }
}
