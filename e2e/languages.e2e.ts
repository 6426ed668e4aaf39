import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, newContext, screenshot } from './support/browser.ts';
import { apiUser } from './support/posts.ts';
import { axeViolations, seedNeighbourhood } from './support/screens.ts';
import { serverAndBrowser } from './support/suite.ts';

/**
 * Issue 28: the app in English and Spanish. The language follows the browser, can be chosen in the
 * footer (the landing page's too) and in Settings, is remembered, and the server's refusals come in
 * the same language.
 */
describe('languages', () => {
  const suite = serverAndBrowser();

  const spanishPage = async (viewport: { width: number; height: number } = DESKTOP): Promise<Page> =>
    (await newContext(suite.browser, suite.server.url, viewport, { locale: 'es-ES' })).newPage();
  const footerChoice = (page: Page, name: string) =>
    page.locator('footer').getByRole('button', { name, exact: true });

  it('opens in Spanish for a Spanish browser, switches to English in the footer and remembers it', async () => {
    const page = await spanishPage(PHONE);
    await page.goto('/');
    await page.getByRole('link', { name: 'Probar la demo' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    expect(await page.getByRole('heading', { level: 2, name: 'Qué puedes hacer' }).count()).toBe(1);
    expect(await footerChoice(page, 'Español').getAttribute('aria-current')).toBe('true');
    await screenshot(page, 'languages-landing-es-390');

    await footerChoice(page, 'English').click();
    await page.getByRole('link', { name: 'Try the demo' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await page.reload();
    await page.getByRole('link', { name: 'Try the demo' }).waitFor();
    expect(await footerChoice(page, 'English').getAttribute('aria-current')).toBe('true');
    await page.context().close();
  });

  it('asks the server for its messages in the language of the screens', async () => {
    const taken = await apiUser(suite.server.url, 'taken');
    const page = await spanishPage();
    const languages: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/signup')) languages.push(request.headers()['accept-language'] ?? '');
    });
    await page.goto('/signup');
    await page.locator('input[name="email"]').fill(taken.email);
    await page.locator('input[name="username"]').fill(`other${Date.now()}`);
    await page.locator('input[name="password"]').fill('Whiskers123');
    await page.locator('input[name="confirm"]').fill('Whiskers123');
    await page.locator('form button[type="submit"]').click();
    // The server's sentence, in Spanish (decision 017), shown as it is.
    await page.getByText('Ese correo electrónico ya está registrado').waitFor();
    expect(languages).toEqual(['es']);
    await page.context().close();
  });

  it('lets a member choose the language in Settings, for every screen, across a reload', async () => {
    const member = await apiUser(suite.server.url, 'lang');
    const context = await newContext(suite.browser, suite.server.url, DESKTOP, { locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByLabel('Remember me').check();
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL('**/feed');

    await page.goto('/profile/settings');
    const language = page.getByRole('radiogroup', { name: 'Language' });
    await language.waitFor();
    await language.getByRole('radio', { name: 'Español' }).check();
    await page.getByRole('radiogroup', { name: 'Idioma' }).waitFor();
    expect(await page.getByRole('radiogroup', { name: 'Apariencia' }).count()).toBe(1);
    await screenshot(page, 'languages-settings-es-1280');
    await page.reload();
    await page.getByRole('radiogroup', { name: 'Idioma' }).waitFor();
    expect(await page.getByRole('radio', { name: 'Español' }).isChecked()).toBe(true);
    await context.close();
  });

  // Spanish throughout (issue 28, 'Done when'): every screen with a browser set to es-ES, on a phone in
  // the light scheme and on a desktop in the dark one, axe on each, a screenshot of each.
  for (const [name, viewport, colorScheme] of [
    ['phone', PHONE, 'light'],
    ['desktop, dark mode', DESKTOP, 'dark'],
  ] as const) {
    it(
      `speaks Spanish on every screen, with no accessibility violation (${name})`,
      { timeout: 300_000 },
      async () => {
        const seeded = await seedNeighbourhood(suite.server.url);
        const context = await newContext(suite.browser, suite.server.url, viewport, {
          locale: 'es-ES',
          colorScheme,
        });
        const page = await context.newPage();
        const found: string[] = [];
        const visit = async (path: string) => {
          await page.goto(path);
          await page.locator('main').first().waitFor();
          await page.waitForLoadState('networkidle');
          expect(await page.locator('html').getAttribute('lang'), path).toBe('es');
          for (const v of await axeViolations(page)) found.push(`${path}: ${v}`);
          // Longer Spanish words push nothing past the screen's edge (axe does not look there).
          const overflow = await page.evaluate(() => {
            const width = document.documentElement.clientWidth;
            return Array.from(document.querySelectorAll('header a, header button, nav a, nav button'))
              .filter((el) => {
                const box = el.getBoundingClientRect();
                return box.width > 0 && (box.right > width + 1 || box.left < -1);
              })
              .map((el) => el.textContent?.trim() ?? '');
          });
          for (const text of overflow) found.push(`${path}: '${text}' runs past the screen's edge`);
          await screenshot(page, `es${path.replace(/\W+/g, '-')}-${viewport.width}-${colorScheme}`);
        };
        for (const path of ['/', '/login', '/signup']) await visit(path);
        await page.goto('/login');
        await page.locator('input[type="email"]').fill(seeded.member.email);
        await page.locator('input[type="password"]').fill(seeded.member.password);
        await page.locator('input[type="checkbox"]').check();
        await page.locator('form button[type="submit"]').click();
        await page.waitForURL('**/feed');
        for (const path of [
          '/feed',
          '/explore',
          '/spot',
          '/groups',
          `/groups/${seeded.groupId}`,
          '/notifications',
          `/posts/${seeded.neighbourPost._id}`,
          `/cats/${seeded.catId}`,
          '/cats',
          '/profile/me',
          `/profile/${seeded.neighbourId}`,
          '/profile/settings',
          '/profile/trash',
          '/about',
        ])
          await visit(path);
        // The member navigation speaks Spanish too.
        expect(await page.getByRole('navigation', { name: 'Principal' }).count()).toBe(1);
        await context.close();
        expect(found, found.join('\n')).toEqual([]);
      },
    );
  }
});
