import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, launchBrowser, newContext, PHONE, screenshot } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { loginThroughUi, newUser, signUp } from './support/api.ts';
import { waitForMail } from './support/outbox.ts';

/** Issue 29: 'Forgot password?' end to end, through the mail the server wrote to DATA_DIR/outbox. */
describe('password reset', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    // info: the outbox logs each mail's links, which the test checks too.
    [server, browser] = await Promise.all([startServer({ env: { LOG_LEVEL: 'info' } }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  /** The page fits the viewport: nothing sticks out sideways. */
  async function expectNoOverflow(page: Page) {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  }

  it('goes from the login page to a new password, signed in, and the new password logs in', async () => {
    const user = await signUp(server.url, newUser('reset'));
    const page = await (await newContext(browser, server.url, PHONE)).newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL((url) => url.pathname === '/forgot-password');
    await page.getByRole('heading', { level: 1, name: 'Forgot your password?' }).waitFor();
    await expectNoOverflow(page);
    await screenshot(page, 'password-reset-forgot-390');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'password-reset-forgot-1280');
    await page.setViewportSize(PHONE);

    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page
      .getByText(`If an account uses ${user.email}, we have sent it a link`, { exact: false })
      .waitFor();

    const mail = await waitForMail(server.dataDir, user.email);
    const link = mail.link!;
    expect(mail.subject).toBe('Choose a new password for Neighbourhood Cats');
    expect(link.pathname).toBe('/reset-password');
    expect(link.hash).toMatch(/^#token=/);
    // The outbox logged the link for the operator.
    expect(server.logs()).toContain(link.hash.slice('#token='.length));

    // The link, opened in this browser (same origin as the test server).
    await page.goto(`${link.pathname}${link.hash}`);
    await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
    // The token leaves the address bar at once.
    await page.waitForURL((url) => url.hash === '');
    const fill = async (password: string, confirm: string) => {
      await page.getByLabel('New password', { exact: true }).fill(password);
      await page.getByLabel('Confirm password').fill(confirm);
      await page.getByLabel('New password', { exact: true }).focus();
    };
    await fill('weak', 'weak');
    await page.getByText('Please check your password is valid').waitFor();
    await fill('NewWhiskers42', 'NewWhiskers43');
    await page.getByText('Passwords do not match.').waitFor();
    expect(await page.getByRole('button', { name: 'Set password and log in' }).isDisabled()).toBe(true);
    await fill('NewWhiskers42', 'NewWhiskers42');
    await expectNoOverflow(page);
    await screenshot(page, 'password-reset-reset-390');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'password-reset-reset-1280');

    await page.getByRole('button', { name: 'Set password and log in' }).click();
    await page.waitForURL((url) => url.pathname === '/feed');
    await page.getByRole('button', { name: 'Profile' }).waitFor();

    // The link works once.
    await page.goto(`${link.pathname}${link.hash}`);
    await page.getByLabel('New password', { exact: true }).fill('Another123x');
    await page.getByLabel('Confirm password').fill('Another123x');
    await page.getByRole('button', { name: 'Set password and log in' }).click();
    await page.getByText('This link is invalid, has expired or was already used.').waitFor();
    await page.getByRole('link', { name: 'Ask for a new link' }).waitFor();
    await page.context().close();

    // A fresh browser logs in with the new password; the old one is refused.
    const fresh = await (await newContext(browser, server.url, DESKTOP)).newPage();
    await loginThroughUi(fresh, user.email, 'NewWhiskers42');
    expect(new URL(fresh.url()).pathname).toBe('/');
    await fresh.context().close();
    const old = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(old.status).toBe(401);
  });

  it('says when a link is unusable and offers a new one', async () => {
    const page = await (await newContext(browser, server.url, PHONE)).newPage();
    await page.goto('/reset-password');
    await page.getByText('This link is invalid, has expired or was already used.').waitFor();
    await page.getByRole('link', { name: 'Ask for a new link' }).click();
    await page.waitForURL((url) => url.pathname === '/forgot-password');
    await page.context().close();
  });
});
