import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { CreateCatResponse } from '@cats/contracts';
import { DESKTOP, newContext, PHONE, screenshot } from './support/browser.ts';
import { signInThroughApi } from './support/api.ts';
import { axeViolations } from './support/screens.ts';
import { serverAndBrowser } from './support/suite.ts';
import { apiCall, apiCreatePost, apiUser, fixture, type SessionUser } from './support/posts.ts';

/** Cáceres and Salamanca: far from the seed's cats of Andalusia, and from each other. */
const HOME = { latitude: 39.4753, longitude: -6.3724 };
const AWAY = { latitude: 40.9701, longitude: -5.6635 };
/** A point `km` kilometres north of `from` (a degree of latitude is ~111 km). */
const north = (km: number, from = HOME) => ({
  latitude: from.latitude + km / 111,
  longitude: from.longitude,
});

/**
 * /cats, the neighbourhood's cats as a list: reached from Explore's 'All cats', nearest first to the
 * member's home area (or to where they are, when they ask), searchable by name, and narrowed to the
 * cats they care for; each row opens the cat's page.
 */
describe('the cats list', () => {
  // Its own server: the list's missing tags are checked against the sample content alone.
  const suite = serverAndBrowser({ ownServer: true });

  /** A neighbour's located picture of a new cat `km` north of `from`. */
  async function catAt(owner: SessionUser, name: string, km: number, from = HOME): Promise<string> {
    const post = await apiCreatePost(suite.server.url, owner.accessToken, {
      image: fixture('photo-gps.jpg'),
      comment: `${name} on the wall`,
      location: north(km, from),
      showLocation: true,
    });
    const { cat } = await apiCall<CreateCatResponse>(suite.server.url, owner.accessToken, '/api/cats', {
      method: 'POST',
      body: JSON.stringify({ name, postId: post._id }),
    });
    return cat._id;
  }

  /**
   * The order the list settled on: the field is disabled, showing its fallback, until the member's
   * places are known, so its value counts only once it is enabled (false until then).
   */
  const chosenOrder = async (page: Page) => {
    const order = page.getByLabel('Order');
    return (await order.isEnabled()) && (await order.inputValue());
  };

  /** The names of the list's cats, in its order. */
  const names = (page: Page) =>
    page.getByRole('list', { name: 'Cats' }).locator('.cats-page__name').allTextContents();

  async function signedIn(user: SessionUser, viewport: { width: number; height: number }, at = '/feed') {
    const context = await newContext(suite.browser, suite.server.url, viewport, {
      // Where the browser says the member is, when they ask for 'Nearest to where I am'.
      geolocation: north(12.2, AWAY),
      permissions: ['geolocation'],
    });
    return signInThroughApi(await context.newPage(), user, at);
  }

  it('lists the cats nearest the home area first, searches them by name, and keeps those one cares for', async () => {
    const neighbour = await apiUser(suite.server.url, 'catlistnb');
    const member = await apiUser(suite.server.url, 'catlistme');
    const zafiro = await catAt(neighbour, 'Zafiro', 0.3);
    await catAt(neighbour, 'Zarzamora', 2);
    await catAt(neighbour, 'Brisa', 6);
    // The member's own cat (whoever creates a cat cares for it), farthest of all.
    await catAt(member, 'Lirio', 12);
    await apiCall(suite.server.url, member.accessToken, '/api/profile/settings/home-area', {
      method: 'PUT',
      body: JSON.stringify({ homeArea: HOME }),
    });

    for (const [viewport, name] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      const page = await signedIn(member, viewport, '/explore');
      await page.getByRole('link', { name: 'All cats' }).click();
      await page.waitForURL('**/cats');
      await page.getByRole('heading', { name: 'Neighbourhood cats' }).waitFor();
      await expect.poll(() => chosenOrder(page)).toBe('home');
      await expect
        .poll(async () => (await names(page)).slice(0, 4))
        .toEqual(['Zafiro', 'Zarzamora', 'Brisa', 'Lirio']);
      // The seed's Luna is missing, and her alert is everyone's to see: her row says so, no other does.
      const list = page.getByRole('list', { name: 'Cats' });
      await list.getByRole('link', { name: /^Luna Missing/ }).waitFor();
      expect(await list.locator('.missing-tag').count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `cats-list-${name}`);

      await page.getByLabel('Search by name').fill('zar');
      await expect.poll(() => names(page)).toEqual(['Zarzamora']);
      await page.getByLabel('Search by name').fill('no such cat');
      await page.getByText('No cat’s name contains “no such cat”.').waitFor();
      await page.getByLabel('Search by name').fill('');
      await page.getByLabel('Only cats I care for').check();
      await expect.poll(() => names(page)).toEqual(['Lirio']);
      await page.getByLabel('Only cats I care for').uncheck();

      await page.getByRole('link', { name: 'Zafiro' }).click();
      await page.waitForURL(`**/cats/${zafiro}`);
      await page.getByRole('heading', { name: 'Zafiro', level: 1 }).waitFor();
      await page.context().close();
    }
  });

  it('orders by where the member is when they ask for it', async () => {
    const neighbour = await apiUser(suite.server.url, 'cathere');
    const member = await apiUser(suite.server.url, 'catherme');
    await catAt(neighbour, 'Quimera', 0.2, AWAY);
    await catAt(neighbour, 'Quinoa', 12, AWAY);
    const page = await signedIn(member, PHONE, '/cats');
    // No home area and no picture of their own: the most recently seen first.
    await expect.poll(() => chosenOrder(page)).toBe('recent');
    await page.getByLabel('Order').selectOption('here');
    // The browser puts them 12.2 km north of AWAY: Quinoa is the nearest there, then Quimera.
    await expect.poll(async () => (await names(page)).slice(0, 2)).toEqual(['Quinoa', 'Quimera']);
    await page.context().close();
  });
});
