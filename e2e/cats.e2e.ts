import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { CatResponse, CreateCatResponse, Post, PostDetail } from '@cats/contracts';
import { DESKTOP, PHONE, screenshot } from './support/browser.ts';
import { DEMO, signedInPage } from './support/api.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';
import {
  apiCall,
  apiCreatePost,
  apiUser,
  card,
  fixture,
  FIXTURE_GPS,
  type SessionUser,
} from './support/posts.ts';

/** Near the fixture's spot, a few hundred metres apart: the cat's round. */
const near = (dLat: number, dLng: number) => ({
  latitude: FIXTURE_GPS.latitude + dLat,
  longitude: FIXTURE_GPS.longitude + dLng,
});

/**
 * Issue 26, cat profiles (web, first slice): linking a picture to a cat from the own-post menu, the cat
 * page with its timeline and map (exact spots for the author, ~500 m cells for a stranger), Edit for
 * caretakers, Follow, the demo's disabled Follow, and an unknown cat.
 */
describe('cats', () => {
  let server: RunningServer;
  let browser: Browser;
  let keeper: SessionUser;
  let stranger: SessionUser;
  let first: Post;
  let second: Post;
  let third: Post;
  let catId: string;

  beforeAll(async () => {
    [server, browser] = await sharedServerAndBrowser();
    keeper = await apiUser(server.url, 'catkeeper');
    stranger = await apiUser(server.url, 'catstranger');
    first = await apiCreatePost(server.url, keeper.accessToken, {
      image: fixture('photo-gps.jpg'),
      catName: 'Pepper',
      comment: 'On the harbour wall.',
      location: near(0, 0),
    });
    second = await apiCreatePost(server.url, keeper.accessToken, {
      image: fixture('rotated-6.jpg'),
      comment: 'Waiting by the bakery.',
      location: near(0.006, 0.004),
    });
    third = await apiCreatePost(server.url, keeper.accessToken, {
      image: fixture('photo-no-gps.jpg'),
      catName: 'pepper?',
      comment: 'Same cat, I think.',
      location: near(-0.004, 0.007),
    });
    const created = await apiCall<CreateCatResponse>(server.url, keeper.accessToken, '/api/cats', {
      method: 'POST',
      body: JSON.stringify({ name: 'Pepper', postId: first._id }),
    });
    catId = created.cat._id;
    await apiCall(server.url, keeper.accessToken, `/api/posts/${second._id}/cat`, {
      method: 'PUT',
      body: JSON.stringify({ catId }),
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  /** The dashed circles (~500 m cells) and the solid dots the cat's map draws. */
  async function mapShapes(page: Page) {
    await page.locator('.cat-map .leaflet-tile-loaded').first().waitFor();
    const paths = page.locator('.cat-map .leaflet-overlay-pane path');
    await paths.first().waitFor();
    return paths.evaluateAll((els) => ({
      cells: els.filter((el) => el.getAttribute('stroke-dasharray')).length,
      dots: els.filter((el) => !el.getAttribute('stroke-dasharray')).length,
    }));
  }

  it("links a picture from the own-post menu; the card links to the cat's page", async () => {
    const page = await signedInPage(browser, server.url, keeper, DESKTOP, '/feed');
    const own = card(page, third._id);
    // No cat yet: the free-text name, as before.
    expect(await own.locator('.post-card__cat-name').innerText()).toBe('pepper?');
    await own.getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'Which cat is this?' }).click();
    const dialog = page.getByRole('dialog', { name: 'Which cat is this?' });
    await dialog.getByLabel('Search cats by name').fill('Pep');
    const option = dialog.getByRole('button', { name: /Pepper/ });
    await option.locator('img.post-image__img--loaded').waitFor();
    await screenshot(page, 'cats-which-cat-1280');
    await option.click();
    await dialog.waitFor({ state: 'hidden' });
    const link = own.getByRole('link', { name: 'Pepper' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/cats/${catId}`);
    const linked = await apiCall<PostDetail>(server.url, keeper.accessToken, `/api/posts/${third._id}`);
    expect(linked.cat).toEqual({ _id: catId, name: 'Pepper', missing: false });

    await link.click();
    await page.waitForURL(`**/cats/${catId}`);
    await page.getByRole('heading', { level: 1, name: 'Pepper' }).waitFor();
    await page.getByText('Seen 3 times this week.').waitFor();
    await page.getByText(/^Last seen (just now|\d+ min ago)\.$/).waitFor();
    const sightings = page.getByRole('list', { name: 'Sightings' }).getByRole('article');
    await expect.poll(() => sightings.count()).toBe(3);
    expect(
      await sightings
        .first()
        .getByRole('link', { name: /open this sighting/ })
        .getAttribute('href'),
    ).toBe(`/posts/${third._id}`);
    // The author sees their own sightings exactly: dots, no cells.
    expect(await mapShapes(page)).toEqual({ cells: 0, dots: 3 });
    await screenshot(page, 'cats-page-keeper-1280');
    await page.locator('.cat-page__map').scrollIntoViewIfNeeded();
    await screenshot(page, 'cats-page-keeper-1280-map');
    await page.context().close();
  });

  it('shows a stranger every sighting only as its ~500 m cell, and lets them follow', async () => {
    const page = await signedInPage(browser, server.url, stranger, PHONE, `/cats/${catId}`);
    await page.getByRole('heading', { level: 1, name: 'Pepper' }).waitFor();
    await page.getByText('The area is marked in orange on the map, to about 500 m.').waitFor();
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(await mapShapes(page)).toEqual({ cells: 3, dots: 0 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'cats-page-stranger-390');
    await page.locator('.cat-page__map').scrollIntoViewIfNeeded();
    await screenshot(page, 'cats-page-stranger-390-map');

    await page.getByRole('button', { name: 'Follow' }).click();
    await page.getByRole('button', { name: 'Unfollow' }).waitFor();
    await page.getByText('1 person follows this cat.').waitFor();
    const { cat } = await apiCall<CatResponse>(server.url, stranger.accessToken, `/api/cats/${catId}`);
    expect(cat.viewer.following).toBe(true);
    await page.context().close();
  });

  it('lets a caretaker edit the cat, and shows the change', async () => {
    const page = await signedInPage(browser, server.url, keeper, PHONE, `/cats/${catId}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Pepper' });
    await dialog.getByLabel('Description').fill('Black with a white bib. Sleeps on the harbour wall.');
    // Each chip is a tick box under its label (the whole chip is the target).
    await dialog.getByRole('checkbox', { name: 'Black' }).check();
    await dialog.getByRole('checkbox', { name: 'Bicolour' }).check();
    await dialog.getByLabel('Ear-tipped').selectOption('yes');
    await dialog.getByLabel('Home').selectOption('community');
    await screenshot(page, 'cats-edit-390');
    // A blank name is refused before anything is sent.
    await dialog.getByLabel('Name').fill(' ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Name is required').waitFor();
    await dialog.getByLabel('Name').fill('Pepper');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Black with a white bib. Sleeps on the harbour wall.').waitFor();
    const coat = page.getByRole('list', { name: 'Coat colours and pattern' }).getByRole('listitem');
    expect(await coat.allInnerTexts()).toEqual(['Black', 'Bicolour']);
    await page.getByText('Community cat').waitFor();
    const { cat } = await apiCall<CatResponse>(server.url, keeper.accessToken, `/api/cats/${catId}`);
    expect([cat.earTipped, cat.living, cat.coatColours]).toEqual(['yes', 'community', ['black', 'bicolour']]);
    await page.context().close();
  });

  it("unlinks a picture with 'Not this cat' (phone)", async () => {
    const page = await signedInPage(browser, server.url, keeper, PHONE, `/posts/${third._id}`);
    await page.getByRole('heading', { level: 1, name: 'Pepper' }).getByRole('link').waitFor();
    await page.getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'Which cat is this?' }).click();
    const dialog = page.getByRole('dialog', { name: 'Which cat is this?' });
    await dialog.getByRole('button', { name: /Pepper/ }).waitFor();
    await screenshot(page, 'cats-which-cat-390');
    await dialog.getByRole('button', { name: 'Not this cat' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { level: 1, name: 'pepper?' }).waitFor();
    const body = await apiCall<PostDetail>(server.url, keeper.accessToken, `/api/posts/${third._id}`);
    expect(body.cat).toBeNull();
    await page.context().close();
  });

  it('lets the demo account look but not follow', async () => {
    const page = await signedInPage(browser, server.url, DEMO, DESKTOP, `/cats/${catId}`);
    await page.getByRole('heading', { level: 1, name: 'Pepper' }).waitFor();
    expect(await page.getByRole('button', { name: 'Follow' }).isDisabled()).toBe(true);
    await page.getByText('Following cats is disabled for the demo user.').waitFor();
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    await page.context().close();
  });

  it('says so for an unknown cat', async () => {
    const page = await signedInPage(
      browser,
      server.url,
      stranger,
      DESKTOP,
      '/cats/00000000-0000-4000-8000-000000000000',
    );
    await page.getByRole('heading', { level: 1, name: 'Cat not found' }).waitFor();
    await page.context().close();
  });
});
