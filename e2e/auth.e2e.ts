import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@cats/contracts';
import { DESKTOP, newContext, PHONE, screenshot } from './support/browser.ts';
import { axeOn } from './support/screens.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';
import { loginThroughUi, newUser, signUp } from './support/api.ts';

/** Issue 3, points 10, 11 and 13: sign-up, login, sessions, the guard and the member navigation. */
describe('accounts in the browser', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await sharedServerAndBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  async function newPage(viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
    const context = await newContext(browser, server.url, viewport);
    return context.newPage();
  }
  const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
  const focusedLabel = (page: Page) =>
    page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? '');
  async function axeViolations(page: Page): Promise<string[]> {
    const result = await axeOn(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  }

  it('signs up through the form, with hints, the disabled button and the success view', async () => {
    const page = await newPage(PHONE);
    await page.goto('/signup');
    await page.getByRole('heading', { level: 1, name: 'Sign up' }).waitFor();
    expect(await focusedLabel(page)).toBe('Email');
    expect(await page.getByRole('link', { name: 'Neighbourhood Cats home' }).getAttribute('href')).toBe('/');
    expect(await page.getByText('This site is under construction').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'log in as a demo user' }).getAttribute('href')).toBe(
      '/login',
    );
    await page.getByText('4 to 24 characters. Letters, numbers, underscores, hyphens allowed.').waitFor();
    await page
      .getByText('Must contain: 8 to 24 characters; uppercase and lowercase letters; number')
      .waitFor();

    const submit = page.getByRole('button', { name: 'Sign Up' });
    expect(await submit.isDisabled()).toBe(true);
    const user = newUser('signup');

    // Invalid values get the spec's hints once the field is left.
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Display name').fill('x');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('other');
    await page.getByLabel('Email').focus();
    await page.getByText('Please check you have entered your email correctly.').waitFor();
    await page.getByText('Please check you have entered a valid user name.').waitFor();
    await page.getByText('Please check your password is valid').waitFor();
    await page.getByText('Passwords do not match.').waitFor();
    expect(await page.getByLabel('Display name').getAttribute('aria-invalid')).toBe('true');
    expect(await submit.isDisabled()).toBe(true);
    await screenshot(page, 'signup-hints-390');

    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Display name').fill(user.username);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Confirm password').fill(user.password);
    expect(await submit.isDisabled()).toBe(false);
    expect(await page.getByText('Please check').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await submit.click();

    await page.getByText('Account created', { exact: true }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Welcome');
    await screenshot(page, 'signup-done-390');
    await page.getByRole('main').getByRole('link', { name: 'Log in' }).click();
    await page.waitForURL('**/login');

    // The account works.
    await loginThroughUi(page, user.email, user.password);
    // Login's default destination is /, which sends members on to their feed (issue 28, point 8).
    await page.waitForURL((url) => url.pathname === '/feed');
    await page.context().close();
  });

  it('shows the server message when the email is taken, cleared on input change', async () => {
    const taken = await signUp(server.url, newUser('taken'));
    const page = await newPage();
    await page.goto('/signup');
    await page.getByLabel('Email').fill(taken.email.toUpperCase());
    await page.getByLabel('Display name').fill(newUser('other').username);
    await page.getByLabel('Password', { exact: true }).fill('Whiskers123');
    await page.getByLabel('Confirm password').fill('Whiskers123');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    const error = page.getByText('That email is already registered');
    await error.waitFor();
    expect(await focusedText(page)).toBe('That email is already registered');
    await screenshot(page, 'signup-taken-1280');
    await page.getByLabel('Display name').press('End');
    await page.getByLabel('Display name').pressSequentially('x');
    await expect.poll(() => error.count()).toBe(0);
    await page.context().close();
  });

  it('logs in with the spec texts, shows errors, and keeps the session only with Remember me', async () => {
    const user = await signUp(server.url, newUser('login'));
    const page = await newPage(PHONE);
    await page.goto('/login');
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    expect(await focusedLabel(page)).toBe('Email');
    expect(await page.getByRole('link', { name: 'Neighbourhood Cats home' }).getAttribute('href')).toBe('/');
    expect(await page.getByRole('main').getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe(
      '/signup',
    );
    // The demo credentials are shown publicly (spec section 1).
    const hint = (await page.getByRole('main').textContent()) ?? '';
    expect(hint).toContain(DEMO_EMAIL);
    expect(hint).toContain(DEMO_PASSWORD);
    expect(await page.getByLabel('Remember me').isChecked()).toBe(false);
    expect(await page.title()).toBe('Log in · Neighbourhood Cats');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'login-390');

    // Wrong password: 'Unauthorized', focused, cleared when an input changes.
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill('Wrong-password1');
    await page.getByRole('button', { name: 'Log In' }).click();
    const error = page.getByText('Unauthorized', { exact: true });
    await error.waitFor();
    expect(await focusedText(page)).toBe('Unauthorized');
    expect(await page.locator('[aria-live="assertive"]').textContent()).toBe('Unauthorized');
    await screenshot(page, 'login-error-390');
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await expect.poll(() => error.count()).toBe(0);

    // Without 'Remember me': logged in until the page reloads. / sends members to the feed (issue 28).
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL((url) => url.pathname === '/feed');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Feed' }).waitFor();
    expect(await page.getByLabel('Email').count()).toBe(0);
    await page.goto('/profile/settings');
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('persist'))).not.toBe('true');

    // With 'Remember me': the session survives reloads (the refresh cookie restores it).
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByLabel('Remember me').check();
    expect(await page.evaluate(() => localStorage.getItem('persist'))).toBe('true');
    await page.getByRole('button', { name: 'Log In' }).click();
    // The guard remembered /profile/settings.
    await page.waitForURL('**/profile/settings');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/profile/settings');
    await page.goto('/about');
    await page.getByRole('heading', { level: 1, name: 'About Neighbourhood Cats' }).waitFor();
    await page.context().close();
  });

  it('shows Loading... while a remembered session is restored', async () => {
    const user = await signUp(server.url, newUser('persist'));
    const page = await newPage();
    await loginThroughUi(page, user.email, user.password, { remember: true });
    // Hold the refresh call so the loading state can be seen.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/refresh', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/feed', { waitUntil: 'commit' });
    await page.getByText('Loading...', { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/feed');
    release();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Feed' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/feed');

    // A failed restore leaves the visitor logged out, on the public page they asked for.
    await page.unroute('**/api/refresh');
    await page.route('**/api/refresh', (route) =>
      route.fulfill({ status: 403, json: { message: 'Forbidden' } }),
    );
    await page.goto('/');
    await page.getByRole('link', { name: 'Log in as demo user' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.context().close();
  });

  it('sends a guarded page to /login and back there after login', async () => {
    const user = await signUp(server.url, newUser('guard'));
    const page = await newPage();
    await page.goto('/groups?tab=mine');
    await page.waitForURL('**/login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL((url) => url.pathname === '/groups');
    expect(new URL(page.url()).search).toBe('?tab=mine');
    // Login replaced the history entry: going back does not return to the login form.
    await page.goBack();
    await page.waitForURL((url) => url.pathname !== '/groups');
    expect(new URL(page.url()).pathname).not.toBe('/login');
    await page.context().close();
  });

  it('offers the member navigation with the Profile dropdown, at 1280 and 390 px', async () => {
    const user = await signUp(server.url, newUser('nav'));
    for (const [name, viewport] of [
      ['1280', DESKTOP],
      ['390', PHONE],
    ] as const) {
      const page = await newPage(viewport);
      await loginThroughUi(page, user.email, user.password);
      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const [label, path] of [
        ['Feed', '/feed'],
        ['Explore', '/explore'],
        ['Spot', '/spot'],
        ['Groups', '/groups'],
      ]) {
        expect(await nav.getByRole('link', { name: label, exact: true }).getAttribute('href')).toBe(path);
      }
      expect(await page.getByRole('link', { name: 'Log in', exact: true }).count()).toBe(0);

      const toggle = nav.getByRole('button', { name: 'Profile' });
      const expanded = () => toggle.getAttribute('aria-expanded');
      expect(await toggle.getAttribute('aria-current')).toBeNull();
      await toggle.click();
      expect(await expanded()).toBe('true');
      const menu = nav.locator('.dropdown__panel');
      expect(await menu.getByRole('link').allTextContents()).toEqual(['My profile', 'Settings', 'About']);
      expect(await menu.getByRole('link', { name: 'My profile' }).getAttribute('href')).toBe('/profile/me');
      expect(await menu.getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe(
        '/profile/settings',
      );
      expect(await menu.getByRole('link', { name: 'About' }).getAttribute('href')).toBe('/about');
      await menu.getByRole('button', { name: 'Logout' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `nav-dropdown-${name}`);

      // Outside click closes it.
      await page.mouse.click(5, viewport.height / 2);
      await expect.poll(expanded).toBe('false');
      expect(await menu.isVisible()).toBe(false);

      // Escape closes it and gives focus back to the toggle.
      await toggle.click();
      await page.keyboard.press('Escape');
      await expect.poll(expanded).toBe('false');
      expect(await focusedText(page)).toBe('Profile');

      // A link click closes it and navigates; Profile is highlighted on /profile/*.
      await toggle.click();
      await menu.getByRole('link', { name: 'Settings' }).click();
      await page.waitForURL('**/profile/settings');
      expect(await expanded()).toBe('false');
      await expect.poll(() => toggle.getAttribute('aria-current')).toBe('true');
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();

      await nav.getByRole('link', { name: 'Feed', exact: true }).click();
      await page.waitForURL('**/feed');
      await expect
        .poll(() => nav.getByRole('link', { name: 'Feed', exact: true }).getAttribute('aria-current'))
        .toBe('page');
      expect(await toggle.getAttribute('aria-current')).toBeNull();
      await page.context().close();
    }
  });

  it('logs out: clears the session, revokes the cookie and lands on the home page', async () => {
    const user = await signUp(server.url, newUser('logout'));
    const page = await newPage();
    await loginThroughUi(page, user.email, user.password, { remember: true });
    await page.goto('/profile/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();

    const logoutCall = page.waitForResponse((res) => res.url().endsWith('/api/logout'));
    await page.getByRole('button', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    expect((await logoutCall).status()).toBe(204);
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: 'Log in as demo user' }).waitFor();
    expect(await page.getByRole('link', { name: 'Feed' }).count()).toBe(0);

    // Even with 'Remember me' on, the session is gone: a reload of a guarded page asks to log in.
    await page.goto('/profile/settings');
    await page.waitForURL('**/login');
    await page.context().close();
  });

  it('logs out locally even when the server cannot be reached', async () => {
    const user = await signUp(server.url, newUser('offline'));
    const page = await newPage();
    await loginThroughUi(page, user.email, user.password);
    await page.route('**/api/logout', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('link', { name: 'Log in as demo user' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.context().close();
  });

  it("says 'No Server Response' when the server cannot be reached", async () => {
    const page = await newPage();
    await page.goto('/login');
    await page.route('**/api/login', (route) => route.abort('connectionrefused'));
    await page.getByLabel('Email').fill('someone@example.com');
    await page.getByLabel('Password', { exact: true }).fill('Whatever123');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('No Server Response', { exact: true }).waitFor();

    await page.route('**/api/login', (route) => route.fulfill({ status: 500, json: { message: 'boom' } }));
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('Login Failed', { exact: true }).waitFor();

    await page.route('**/api/login', (route) => route.fulfill({ status: 400, json: { message: 'x' } }));
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('Missing Email or Password', { exact: true }).waitFor();

    await page.goto('/signup');
    await page.route('**/api/signup', (route) => route.fulfill({ status: 500, json: { message: 'boom' } }));
    await page.getByLabel('Email').fill('someone@example.com');
    await page.getByLabel('Display name').fill('someone');
    await page.getByLabel('Password', { exact: true }).fill('Whatever123');
    await page.getByLabel('Confirm password').fill('Whatever123');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Registration Failed', { exact: true }).waitFor();
    await page.route('**/api/signup', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('No Server Response', { exact: true }).waitFor();
    await page.context().close();
  });
});
