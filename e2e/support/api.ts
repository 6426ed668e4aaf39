import { DEMO_EMAIL, DEMO_PASSWORD } from '@cats/contracts';
import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP, newContext } from './browser.ts';

export interface TestUser {
  username: string;
  email: string;
  password: string;
}

export function newUser(prefix = 'e2e'): TestUser {
  const id = randomBytes(4).toString('hex');
  return { username: `${prefix}_${id}`, email: `${prefix}_${id}@example.com`, password: 'Whiskers123' };
}

/** Signs a user up through the API (the sign-up screen has its own test). */
export async function signUp(baseUrl: string, user: TestUser = newUser()): Promise<TestUser> {
  const res = await fetch(`${baseUrl}/api/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${await res.text()}`);
  return user;
}

export async function apiLogin(
  baseUrl: string,
  email: string,
  password: string,
): Promise<{ accessToken: string; userId: string }> {
  const res = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { accessToken: string; userId: string };
}

/** Logs in through the login screen, as a person would. */
export async function loginThroughUi(
  page: Page,
  email: string,
  password: string,
  opts: { remember?: boolean } = {},
) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  if (opts.remember) await page.getByLabel('Remember me').check();
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/**
 * Logs in through the login screen with 'Remember me', finding its fields by type rather than by their
 * English labels: for a page in any language (the Spanish and pseudo-locale sweeps).
 */
export async function loginInAnyLanguage(page: Page, user: { email: string; password: string }) {
  await page.goto('/login');
  await page.locator('input[type="email"]').fill(user.email);
  await page.locator('input[type="password"]').fill(user.password);
  await page.locator('input[type="checkbox"]').check();
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

export const DEMO = { email: DEMO_EMAIL, password: DEMO_PASSWORD };

/** Contexts whose pages already set the persist flag as they start (signInThroughApi). */
const persistFlagged = new WeakSet<BrowserContext>();

/**
 * Signs `page`'s context in with 'Remember me', through the API, and opens `at` there: the refresh
 * cookie lands in the context's cookie jar, and the persist flag (spec section 3) is set before the
 * app's code runs, unless something (a login through the screen) has set it since. The login screen
 * costs a full page load and the feed's first render each time, and has tests of its own
 * (auth.e2e.ts): everyone else arrives signed in (issue 52).
 */
export async function signInThroughApi(
  page: Page,
  user: { email: string; password: string },
  at: string | null = '/feed',
): Promise<Page> {
  const context = page.context();
  // Once per context: a second sign-in (another person in the same browser) needs no second script.
  if (!persistFlagged.has(context)) {
    persistFlagged.add(context);
    await context.addInitScript(() => {
      if (localStorage.getItem('persist') === null) localStorage.setItem('persist', 'true');
    });
  }
  const res = await context.request.post('/api/login', {
    data: { email: user.email, password: user.password },
  });
  if (!res.ok()) throw new Error(`login failed: ${res.status()} ${await res.text()}`);
  if (at !== null) await page.goto(at);
  return page;
}

/** A page in a new browser context at `viewport`, signed in with 'Remember me' and at `at` (the feed). */
export async function signedInPage(
  browser: Browser,
  baseUrl: string,
  user: { email: string; password: string },
  viewport: { width: number; height: number } = DESKTOP,
  at = '/feed',
): Promise<Page> {
  const page = await (await newContext(browser, baseUrl, viewport)).newPage();
  return signInThroughApi(page, user, at);
}
