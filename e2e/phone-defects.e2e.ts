import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { DESKTOP, PHONE, screenshot } from './support/browser.ts';
import { axeOn } from './support/screens.ts';
import { serverAndBrowser } from './support/suite.ts';
import { apiLogin, newUser, signedInPage, signUp } from './support/api.ts';
import { apiCreatePost, apiUser, fixture } from './support/posts.ts';

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

  it('opens an address loaded afresh at the top, and Back still returns to the scrolled feed', async () => {
    const poster = await apiUser(suite.server.url, 'scroller');
    for (let i = 0; i < 8; i += 1)
      await apiCreatePost(suite.server.url, poster.accessToken, { comment: `Scroll ${i}` });
    const page = await signedInPage(suite.browser, suite.server.url, poster, PHONE);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/feed');
    await page.locator('article[data-post-id]').nth(6).waitFor();
    await page.locator('article[data-post-id]').nth(6).scrollIntoViewIfNeeded();
    await page.waitForTimeout(300); // the position is saved on the next frame
    const left = await page.evaluate(() => window.scrollY);
    expect(left).toBeGreaterThan(1500);

    // Another address, typed: a new load in the same tab (it used to open at the feed's position).
    await page.goto('/about');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.goto('/profile/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    // Back and Back again: the feed where it was left.
    await page.goBack();
    await page.goBack();
    await page.waitForURL(/\/feed$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(left);
    await page.context().close();
  });

  /** Spot with a cropped picture: choose the photo, crop it as it is. */
  async function cropOnSpot(viewport: { width: number; height: number }): Promise<Page> {
    const user = await apiUser(suite.server.url, 'cropper');
    const page = await signedInPage(suite.browser, suite.server.url, user, viewport, '/spot');
    await page.getByRole('heading', { name: 'Snap a cat' }).waitFor();
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'cat.jpg', mimeType: 'image/jpeg', buffer: fixture('photo-gps.jpg') });
    const dialog = page.getByRole('dialog', { name: 'Crop your picture' });
    await dialog.getByRole('button', { name: 'Crop' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('img', { name: 'Your cropped picture' }).waitFor();
    return page;
  }

  it("keeps 'Delete picture' inside its card on Spot, at 390 and 1280 px", async () => {
    for (const [name, viewport] of [
      ['390', PHONE],
      ['1280', DESKTOP],
    ] as const) {
      const page = await cropOnSpot(viewport);
      const button = (await page.getByRole('button', { name: 'Delete picture' }).boundingBox())!;
      const card = (await page.locator('form.spot-form').boundingBox())!;
      expect(button.x).toBeGreaterThanOrEqual(card.x);
      expect(button.x + button.width).toBeLessThanOrEqual(card.x + card.width);
      expect(button.y + button.height).toBeLessThanOrEqual(card.y + card.height);
      await screenshot(page, `phone-defects-spot-cropped-${name}`);
      await page.context().close();
    }
  });

  it('leaves no axe violation on Spot after a crop: the file input keeps a name', async () => {
    const page = await cropOnSpot(PHONE);
    const result = await axeOn(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`))).toEqual(
      [],
    );
    expect(await page.getByLabel('Choose another photo').getAttribute('type')).toBe('file');
    await page.context().close();
  });
});
