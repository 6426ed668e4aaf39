import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { PHONE, screenshot } from './support/browser.ts';
import { serverAndBrowser } from './support/suite.ts';
import { apiLogin, newUser, signedInPage, signUp } from './support/api.ts';

/** Issue 28, defects 1 to 4: what a 390 px phone showed wrong, checked in a real browser. */
describe('phone defects', () => {
  const suite = serverAndBrowser();

  /** The top edge of the phone's bottom tab bar. */
  const tabBarTop = (page: Page) =>
    page.locator('.member-nav__list').evaluate((el) => el.getBoundingClientRect().top);

  /** Waits until the page has stopped scrolling (a smooth scroll takes a few hundred ms). */
  const scrollSettled = (page: Page) =>
    page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          let last = window.scrollY;
          let still = 0;
          const tick = () => {
            still = window.scrollY === last ? still + 1 : 0;
            last = window.scrollY;
            if (still >= 10) resolve();
            else requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        }),
    );

  /**
   * Puts `target` just inside the bottom of the window, under the tab bar, then focuses it as a
   * script or a screen reader would: it must end up fully visible above the bar (WCAG 2.4.11).
   */
  async function focusFromUnderTheBar(page: Page, target: Locator, under: number): Promise<void> {
    await target.evaluate((el, px) => {
      (document.activeElement as HTMLElement | null)?.blur();
      const { bottom } = el.getBoundingClientRect();
      window.scrollBy({ top: bottom - (window.innerHeight - px), behavior: 'instant' });
    }, under);
    await target.focus();
    await scrollSettled(page);
  }

  const bottomOf = async (target: Locator) => {
    const box = (await target.boundingBox())!;
    return box.y + box.height;
  };

  it('keeps the focused field and Unblock button clear of the tab bar at 390 px', async () => {
    const user = await signUp(suite.server.url, newUser('focus'));
    const other = await signUp(suite.server.url, newUser('blockee'));
    const { accessToken } = await apiLogin(suite.server.url, user.email, user.password);
    const { userId: otherId } = await apiLogin(suite.server.url, other.email, other.password);
    const block = await fetch(`${suite.server.url}/api/profile/blockUser/`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ blockedUser: { _id: otherId } }),
    });
    expect(block.ok).toBe(true);

    const page = await signedInPage(suite.browser, suite.server.url, user, PHONE);
    // The default: smooth scrolling allowed (a smooth scroll into view stopped short under the bar).
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.goto('/profile/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    const current = page.getByRole('form', { name: 'Change password' }).getByLabel('Current password');
    const unblock = page
      .getByRole('region', { name: 'Blocked users' })
      .getByRole('button', { name: `Unblock ${other.username}` });
    await unblock.waitFor();
    const barTop = await tabBarTop(page);
    expect(barTop).toBeLessThan(PHONE.height);

    for (const [name, target] of [
      ['password', current],
      ['unblock', unblock],
    ] as const) {
      // Partly under the bar, wholly under it, and just below the window.
      for (const under of [20, 40, 60, -30]) {
        await focusFromUnderTheBar(page, target, under);
        expect(await bottomOf(target), `${name}, ${under} px under`).toBeLessThanOrEqual(barTop);
      }
      await screenshot(page, `phone-defects-focus-${name}-390`);
    }

    // From the keyboard: Tab from the control before the field, with the field under the bar.
    await current.evaluate((el) => {
      const { bottom } = el.getBoundingClientRect();
      window.scrollBy({ top: bottom - (window.innerHeight - 40), behavior: 'instant' });
      const controls = Array.from(
        document.querySelectorAll<HTMLElement>('main a[href], main button, main input, main textarea'),
      ).filter((c) => c.getClientRects().length > 0 && !(c as HTMLInputElement).disabled);
      controls[controls.indexOf(el as HTMLElement) - 1]!.focus({ preventScroll: true });
    });
    await page.keyboard.press('Tab');
    await scrollSettled(page);
    expect(await current.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await bottomOf(current)).toBeLessThanOrEqual(barTop);
    await page.context().close();
  });
});
