import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { MyProfileResponse } from '@cats/contracts';
import { DESKTOP, PHONE, screenshot } from './support/browser.ts';
import { axeOn } from './support/screens.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';
import { waitForMail } from './support/outbox.ts';
import {
  apiLogin,
  DEMO,
  loginThroughUi,
  newUser,
  signedInPage,
  signUp,
  type TestUser,
} from './support/api.ts';

/** Issue 3, points 8, 9, 10 and 13: /profile/settings in the browser. */
describe('settings', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await sharedServerAndBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  async function openSettings(
    user: { email: string; password: string },
    viewport: { width: number; height: number } = DESKTOP,
  ): Promise<Page> {
    const page = await signedInPage(browser, server.url, user, viewport, '/profile/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    return page;
  }
  const form = (page: Page, name: string) => page.getByRole('form', { name });
  async function myProfile(user: TestUser): Promise<MyProfileResponse> {
    const { accessToken } = await apiLogin(server.url, user.email, user.password);
    const res = await fetch(`${server.url}/api/profile/getMyProfile`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as MyProfileResponse;
  }
  async function loginStatus(email: string, password: string): Promise<number> {
    const res = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    return res.status;
  }
  async function axeViolations(page: Page): Promise<string[]> {
    const result = await axeOn(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  }

  it('shows the demo user every account feature disabled', async () => {
    for (const [name, viewport] of [
      ['390', PHONE],
      ['1280', DESKTOP],
    ] as const) {
      const page = await openSettings(DEMO, viewport);
      await page.getByText('Features disabled for demo user', { exact: true }).waitFor();
      for (const title of ['Change username', 'Change email', 'Change password']) {
        const f = form(page, title);
        for (const input of await f.locator('input').all()) expect(await input.isDisabled()).toBe(true);
        expect(await f.getByRole('button', { name: title }).isDisabled()).toBe(true);
      }
      expect(
        await page.getByRole('switch', { name: 'Show the exact location of my pictures' }).isDisabled(),
      ).toBe(true);
      expect(await page.getByRole('button', { name: 'Delete account' }).isDisabled()).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `settings-demo-${name}`);
      await page.context().close();
    }
  });

  it('changes the password with the current one, then logs in with the new one', async () => {
    const user = await signUp(server.url, newUser('pw'));
    const page = await openSettings(user, PHONE);
    const f = form(page, 'Change password');
    const submit = f.getByRole('button', { name: 'Change password' });
    await page
      .getByText('Must contain: 8 to 24 characters; uppercase and lowercase letters; number')
      .waitFor();
    expect(await submit.isDisabled()).toBe(true);

    // The same rules as sign-up.
    await f.getByLabel('New password', { exact: true }).fill('weakpass');
    await f.getByLabel('Confirm new password').fill('weakpass2');
    await f.getByLabel('Current password').focus();
    await f.getByText('Please check your password is valid').waitFor();
    await f.getByText('Passwords do not match.').waitFor();
    expect(await submit.isDisabled()).toBe(true);

    // A wrong current password is refused with the server's message.
    const newPassword = 'Purring4Ever';
    await f.getByLabel('New password', { exact: true }).fill(newPassword);
    await f.getByLabel('Confirm new password').fill(newPassword);
    await f.getByLabel('Current password').fill('NotMyPassword1');
    await submit.click();
    await f.getByText('Current password is incorrect').waitFor();
    expect(new URL(page.url()).pathname).toBe('/profile/settings');

    await f.getByLabel('Current password').fill(user.password);
    await submit.click();
    await f.getByText('Password changed', { exact: false }).waitFor();
    expect(await f.getByLabel('New password', { exact: true }).inputValue()).toBe('');
    await screenshot(page, 'settings-password-changed-390');

    expect(await loginStatus(user.email, user.password)).toBe(401);
    expect(await loginStatus(user.email, newPassword)).toBe(200);

    // This session carries on; after logging out, the new password works in the form.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByRole('button', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await loginThroughUi(page, user.email, newPassword);
    expect(new URL(page.url()).pathname).toBe('/');
    await page.context().close();
  });

  it('changes the username and the email', async () => {
    const user = await signUp(server.url, newUser('rename'));
    const page = await openSettings(user);
    await page.getByText(`Your username is ${user.username}.`, { exact: false }).waitFor();

    const names = form(page, 'Change username');
    await names.getByLabel('New username').fill('no spaces allowed');
    await names.getByLabel('Current password').focus();
    await names.getByText('Please check you have entered a valid user name.').waitFor();
    const newName = `${user.username}_x`;
    await names.getByLabel('New username').fill(newName);
    await names.getByLabel('Current password').fill(user.password);
    await names.getByRole('button', { name: 'Change username' }).click();
    await names.getByText('Username changed').waitFor();
    await page.getByText(`Your username is ${newName}.`, { exact: false }).waitFor();

    const emails = form(page, 'Change email');
    const newEmail = `new_${user.email}`;
    await emails.getByLabel('New email').fill(newEmail);
    await emails.getByLabel('Current password').fill(user.password);
    await emails.getByRole('button', { name: 'Change email' }).click();
    // Issue 29: nothing changes until the link mailed to the new address is followed.
    await emails
      .getByText(`Check your inbox: we sent a link to ${newEmail}. Your email changes when you follow it.`)
      .waitFor();
    await page.getByText(`You log in with ${user.email}.`, { exact: false }).waitFor();
    const { link } = await waitForMail(server.dataDir, newEmail);
    expect(link?.pathname).toBe('/confirm-email');
    await page.goto(`${link!.pathname}${link!.hash}`);
    await page.getByText(`Your email address is now ${newEmail}.`, { exact: false }).waitFor();
    // The old address is told, without a link.
    const notice = await waitForMail(server.dataDir, user.email);
    expect(notice.subject).toBe('The email address of your account was changed');
    expect(notice.link).toBeNull();
    await page.getByRole('link', { name: 'Go to Settings' }).click();
    await page.getByText(`You log in with ${newEmail}.`, { exact: false }).waitFor();

    const me = await myProfile({ ...user, email: newEmail });
    expect(me.username).toBe(newName);
    expect(me.email).toBe(newEmail);
    expect(await loginStatus(user.email, user.password)).toBe(401);
    await page.context().close();
  });

  it('switches the location privacy and keeps the choice', async () => {
    const user = await signUp(server.url, newUser('privacy'));
    const page = await openSettings(user);
    const toggle = page.getByRole('switch', { name: 'Show the exact location of my pictures' });
    expect(await toggle.isChecked()).toBe(false);
    await page.getByText("Others see your cats' locations to within about 500 m.").waitFor();

    const saved = page.waitForResponse((r) => r.url().endsWith('/api/profile/settings/location-privacy'));
    await toggle.click();
    expect((await saved).status()).toBe(200);
    await page.getByText('Others see the exact spot where you took each picture.').waitFor();
    expect((await myProfile(user)).exactPublicLocation).toBe(true);

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    expect(
      await page.getByRole('switch', { name: 'Show the exact location of my pictures' }).isChecked(),
    ).toBe(true);
    await page.context().close();
  });

  it('lists blocked users and unblocks them', async () => {
    const user = await signUp(server.url, newUser('blocker'));
    const other = await signUp(server.url, newUser('blocked'));
    const { accessToken } = await apiLogin(server.url, user.email, user.password);
    const { userId: otherId } = await apiLogin(server.url, other.email, other.password);
    const block = await fetch(`${server.url}/api/profile/blockUser/`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ blockedUser: { _id: otherId } }),
    });
    expect(block.ok).toBe(true);

    const page = await openSettings(user);
    const section = page.getByRole('region', { name: 'Blocked users' });
    await section.getByRole('listitem').filter({ hasText: other.username }).waitFor();
    await screenshot(page, 'settings-blocked-1280');
    await section.getByRole('button', { name: `Unblock ${other.username}` }).click();
    await section.getByText('You have not blocked anyone.').waitFor();
    const list = await fetch(`${server.url}/api/profile/blockedUsers`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(((await list.json()) as { blockedUsers: unknown[] }).blockedUsers).toEqual([]);
    await page.context().close();
  });

  it('deletes the account after confirmation, lands on /goodbye, and the login fails afterwards', async () => {
    const user = await signUp(server.url, newUser('leaver'));
    const page = await openSettings(user, PHONE);
    const open = page.getByRole('button', { name: 'Delete account' });

    // Cancel closes the dialog and gives focus back to the button.
    await open.click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await dialog.waitFor();
    await dialog.getByText('This will delete all existing pictures and groups in your account.').waitFor();
    await dialog.getByText('Deleting your account can NOT be reversed.').waitFor();
    // Focus starts on the password (issue 46: asked so that a stolen session alone cannot delete the
    // account; typing cannot delete anything) and stays inside the dialog.
    const password = dialog.getByLabel('Password', { exact: true });
    expect(await password.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Delete', exact: true }).isDisabled()).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('dialog'))).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'settings-delete-dialog-390');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Delete account');

    // Escape closes it too.
    await open.click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);

    // A wrong password is said in the dialog, which stays open; the right one deletes.
    await open.click();
    await password.fill('NotMyPassword1');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByText('Current password is incorrect').waitFor();
    await password.fill(user.password);
    const deleted = page.waitForResponse((r) => r.url().includes('/api/profile/deleteUser/'));
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    expect((await deleted).status()).toBe(204);
    await page.waitForURL('**/goodbye');
    await page.getByText('Your account has been deleted.').waitFor();
    await page.getByRole('link', { name: 'Log in as demo user' }).waitFor();
    await screenshot(page, 'goodbye-after-delete-390');

    // The account is gone: the login form says so, and a reload does not restore a session.
    await page.reload();
    await page.getByText('Your account has been deleted.').waitFor();
    expect(await page.getByRole('link', { name: 'Feed' }).count()).toBe(0);
    await page.goto('/login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('Unauthorized', { exact: true }).waitFor();
    await page.context().close();
  });

  it("alerts 'Account deletion failed' when the server refuses", async () => {
    const user = await signUp(server.url, newUser('stayer'));
    const page = await openSettings(user);
    await page.route('**/api/profile/deleteUser/**', (route) =>
      route.fulfill({ status: 500, json: { message: 'Internal Server Error' } }),
    );
    await page.getByRole('button', { name: 'Delete account' }).click();
    await page.getByRole('alertdialog').getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
    const alert = page.getByRole('alertdialog', { name: 'Account deletion failed' });
    await alert.waitFor();
    await screenshot(page, 'settings-delete-failed-1280');
    await alert.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => alert.count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/profile/settings');
    expect(await loginStatus(user.email, user.password)).toBe(200);
    await page.context().close();
  });

  it("shows the demo modal when the server answers 'Feature disabled for demo user'", async () => {
    const user = await signUp(server.url, newUser('modal'));
    const page = await openSettings(user);
    await page.route('**/api/profile/settings/location-privacy', (route) =>
      route.fulfill({ status: 403, json: { message: 'Feature disabled for demo user' } }),
    );
    const toggle = page.getByRole('switch', { name: 'Show the exact location of my pictures' });
    await toggle.click();
    const modal = page.getByRole('alertdialog', { name: 'Feature disabled for demo user' });
    await modal.waitFor();
    await screenshot(page, 'demo-modal-1280');
    await modal.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => modal.count()).toBe(0);
    // The refused change was rolled back, and focus came back to the switch.
    await expect.poll(() => toggle.isChecked()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('switch');
    await page.context().close();
  });
});
