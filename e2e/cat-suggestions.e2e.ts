import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { CatSightingsResponse, CatSuggestionsResponse, PagedPostsResponse, Post } from '@cats/contracts';
import { animationsSettled, DESKTOP, newContext, PHONE, screenshot } from './support/browser.ts';
import { axeOn } from './support/screens.ts';
import { signedInPage, signInThroughApi } from './support/api.ts';
import { apiCall, apiCreatePost, apiUser, fixture, FIXTURE_GPS, type SessionUser } from './support/posts.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';

/** Where a person looking at this work finds the screenshots (besides screenshots/ in the repository). */
const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/suggest';

/**
 * Issue 26, 'Which cat is this?' on Spot: a cat made from a GPS-tagged picture with 'New cat', then a
 * second picture taken near it linked to that cat with one tap on its suggestion; the cat's page shows
 * both sightings. The question is a radio group for the keyboard and axe alike. /spot?cat=<id> ('I saw
 * this cat') chooses the cat from the start.
 */
describe('which cat is this', () => {
  let server: RunningServer;
  let browser: Browser;
  let spotter: SessionUser;
  const name = `Biscuit ${Date.now().toString(36).slice(-4)}`;
  let catId = '';

  beforeAll(async () => {
    [server, browser] = await sharedServerAndBrowser();
    spotter = await apiUser(server.url, 'catspotter');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  const group = (page: Page) => page.getByRole('group', { name: 'Which cat is this?' });

  /** Spot with a photo chosen and cropped: the form is showing. */
  async function chooseAndCrop(page: Page, photo: string, path = '/spot') {
    await page.goto(path);
    await page.getByRole('heading', { name: 'Snap a cat' }).waitFor();
    await page.locator('input[type="file"]').setInputFiles({
      name: 'IMG_2001.jpg',
      mimeType: 'image/jpeg',
      buffer: fixture(photo),
    });
    const crop = page.getByRole('dialog', { name: 'Crop your picture' });
    await crop.getByRole('button', { name: 'Crop' }).click();
    await crop.waitFor({ state: 'detached' });
  }

  /** What axe-core finds in the question (WCAG 2.0-2.2 A and AA, and its best practices). */
  async function axeViolations(page: Page): Promise<string[]> {
    const results = await axeOn(page)
      .include('.cat-choice')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  async function submit(page: Page) {
    await page.getByRole('button', { name: 'Submit' }).click();
    const reminder = page.getByRole('dialog', { name: 'Add a description so everyone can enjoy your cat?' });
    await reminder.getByRole('button', { name: 'Post anyway' }).click();
    await page.waitForURL('**/feed');
  }

  const newest = async (): Promise<Post> =>
    (await apiCall<PagedPostsResponse>(server.url, spotter.accessToken, '/api/feed/1')).posts[0]!;

  /** The suggestions on screen, wherever the form has scrolled them, for a person to look at. */
  async function shoot(page: Page, file: string) {
    await group(page).evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
    // The covers themselves, not their blurred previews.
    await expect
      .poll(() =>
        group(page)
          .locator('img')
          .evaluateAll((imgs: HTMLImageElement[]) => imgs.every((i) => i.complete && i.naturalWidth > 0)),
      )
      .toBe(true);
    await page.waitForTimeout(300);
    const path = await screenshot(page, file);
    mkdirSync(SHOTS, { recursive: true });
    copyFileSync(path, join(SHOTS, `${file}.png`));
  }

  it("makes a new cat from a GPS-tagged picture with 'New cat'", async () => {
    const page = await signedInPage(browser, server.url, spotter, PHONE);
    // The suggestions arrive after the question is on screen and put the sample neighbourhood's Luna
    // before 'New cat': a tap made before they arrive can land beside it (seen once in CI, 2026-12-07).
    const suggested = page.waitForResponse((r) => r.url().includes('/api/cats/suggestions'));
    await chooseAndCrop(page, 'photo-gps.jpg');
    await suggested;
    // The photo has a place: the question is asked, 'Not sure' chosen until the user says otherwise.
    await group(page).waitFor();
    expect(await page.getByRole('radio', { name: 'Not sure' }).isChecked()).toBe(true);
    await page.getByLabel('Add a comment').fill('First time I see this one.');
    await page.getByLabel("Cat's name").fill(name);
    // One tap on 'New cat': the name field opens, focused, with the name already typed above.
    await group(page).getByText('New cat', { exact: true }).click();
    const field = page.getByLabel("New cat's name");
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await field.inputValue()).toBe(name);
    await shoot(page, 'spot-new-cat-390');
    await submit(page);

    // The post exists, linked to a new cat of that name, its first sighting and cover.
    await page.getByText(`${name} has a page now, with this picture as the first sighting.`).waitFor();
    const post = await newest();
    expect(post.cat?.name).toBe(name);
    catId = post.cat!._id;
    expect(post.latitude).toBeCloseTo(FIXTURE_GPS.latitude, 4);
    await page.close();
  });

  it('links a second picture taken nearby with one tap on its suggestion; the cat page shows both', async () => {
    expect(catId).not.toBe('');
    const page = await signedInPage(browser, server.url, spotter, DESKTOP);
    await chooseAndCrop(page, 'photo-gps.jpg');
    const suggestion = page.getByRole('radio', { name });
    await suggestion.waitFor({ state: 'attached' });
    expect(await suggestion.isChecked()).toBe(false);
    // One tap on the card.
    await group(page).getByText(name, { exact: true }).click();
    expect(await suggestion.isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: 'Not sure' }).isChecked()).toBe(false);
    await shoot(page, 'spot-suggestions-1280');
    await page.setViewportSize(PHONE);
    await shoot(page, 'spot-suggestions-390');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize(DESKTOP);
    expect(await axeViolations(page)).toEqual([]);
    // A radio group for the keyboard too: the arrows move the choice, and back.
    await suggestion.focus();
    await page.keyboard.press('ArrowRight');
    expect(await suggestion.isChecked()).toBe(false);
    await page.keyboard.press('ArrowLeft');
    expect(await suggestion.isChecked()).toBe(true);
    expect(await suggestion.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByLabel('Add a comment').fill('Back on the same wall.');
    await submit(page);

    const post = await newest();
    expect(post.cat).toEqual({ _id: catId, name, missing: false });
    // The cat's page: both sightings in its timeline.
    await page.goto(`/cats/${catId}`);
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    await page.getByText('Back on the same wall.').waitFor();
    await page.getByText('First time I see this one.').waitFor();
    const sightings = await apiCall<CatSightingsResponse>(
      server.url,
      spotter.accessToken,
      `/api/cats/${catId}/sightings`,
    );
    expect(sightings.posts.map((p) => p.caption)).toEqual([
      'Back on the same wall.',
      'First time I see this one.',
    ]);
    await page.close();
  });

  it('chooses the cat of /spot?cat=<id> from the start, even for a picture without a place', async () => {
    const page = await signedInPage(browser, server.url, spotter, DESKTOP);
    await chooseAndCrop(page, 'photo-no-gps.jpg', `/spot?cat=${catId}`);
    const chosen = page.getByRole('radio', { name });
    await chosen.waitFor({ state: 'attached' });
    expect(await chosen.isChecked()).toBe(true);
    const names = await group(page).locator('.cat-choice__name').allTextContents();
    expect(names).toEqual([name, 'New cat', 'Not sure']);
    await submit(page);
    expect((await newest()).cat).toEqual({ _id: catId, name, missing: false });
    await page.close();
  });

  it('tells a neighbour who meets the cat that it is missing', async () => {
    await apiCall(server.url, spotter.accessToken, `/api/cats/${catId}/missing`, {
      method: 'POST',
      body: JSON.stringify({
        lastSeenAt: new Date(Date.now() - 3_600_000).toISOString(),
        place: FIXTURE_GPS,
        note: 'Orange, white socks.',
        contact: 'report',
      }),
    });
    const neighbour = await apiUser(server.url, 'catmeeter');
    const page = await signedInPage(browser, server.url, neighbour, PHONE);
    await chooseAndCrop(page, 'photo-gps.jpg');
    const card = group(page).getByRole('radio', { name: `${name} Missing` });
    await card.waitFor({ state: 'attached' });
    // Exactly the cats the server says are missing wear the tag.
    const { cats } = await apiCall<CatSuggestionsResponse>(
      server.url,
      neighbour.accessToken,
      `/api/cats/suggestions?near=${FIXTURE_GPS.latitude},${FIXTURE_GPS.longitude}`,
    );
    expect(cats.filter((c) => c.missing).map((c) => c.name)).toContain(name);
    const tagged = await group(page)
      .locator('.cat-choice__option:has(.missing-tag) .cat-choice__name')
      .allTextContents();
    // A missing household cat is offered to anyone shown its alert (issue 46): the seed's Luna is here.
    const offered = cats.filter((c) => c.living !== 'household' || c.viewerIsCaretaker || c.missing);
    expect(offered).toEqual(cats);
    expect(cats.some((c) => c.living === 'household' && !c.viewerIsCaretaker && c.missing)).toBe(true);
    expect(tagged).toEqual(cats.filter((c) => c.missing).map((c) => c.name));
    await shoot(page, 'spot-suggestions-missing-390');
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it('offers a stranger no household cat, and says why; its caretakers still see it (issue 46)', async () => {
    // Only a household cat's caretakers link a picture to it or suggest it: nobody else is offered it,
    // so nobody picks it only to be refused.
    const carer = await apiUser(server.url, 'housecarer');
    const house = `Pixel ${Date.now().toString(36).slice(-4)}`;
    const { cat } = await apiCall<{ cat: { _id: string } }>(server.url, carer.accessToken, '/api/cats', {
      method: 'POST',
      body: JSON.stringify({ name: house, living: 'household' }),
    });
    const page = await signedInPage(browser, server.url, spotter, DESKTOP);
    await chooseAndCrop(page, 'photo-no-gps.jpg', `/spot?cat=${cat._id}`);
    await group(page)
      .getByText(`${house} lives with someone: only its caretakers say which pictures show it.`)
      .waitFor();
    expect(await group(page).locator('.cat-choice__name').allTextContents()).toEqual(['New cat', 'Not sure']);
    expect(await page.getByRole('radio', { name: 'Not sure' }).isChecked()).toBe(true);
    await page.getByLabel('Add a comment').fill('Sunbathing on the fence.');
    await submit(page);
    const post = await newest();
    expect(post.caption).toBe('Sunbathing on the fence.');
    expect(post.cat).toBeNull();
    await page.close();

    // 'This is…' in Spanish: on the caretaker's picture the stranger sees the cat in the list, greyed,
    // with why (on a phone); on the stranger's picture its caretaker may pick it.
    const picture = await apiCreatePost(server.url, carer.accessToken, {
      image: fixture('photo-gps.jpg'),
      comment: 'On the sofa.',
      location: FIXTURE_GPS,
    });
    const open = async (user: SessionUser, postId: string, viewport: { width: number; height: number }) => {
      const context = await newContext(browser, server.url, viewport, { locale: 'es-ES' });
      const p = await context.newPage();
      await signInThroughApi(p, user, `/posts/${postId}`);
      await p.getByRole('button', { name: 'Opciones de la publicación' }).first().click();
      await p.getByRole('menuitem', { name: 'Este gato es…' }).click();
      const dialog = p.getByRole('dialog', { name: '¿Qué gato es este?' });
      await dialog.getByLabel('Buscar gatos por nombre').fill(house);
      // The search's answer, not the first list (nearest the picture) shown while typing pauses.
      await expect.poll(() => dialog.locator('.which-cat__option').count()).toBe(1);
      return { p, dialog, option: dialog.getByRole('button', { name: new RegExp(`^${house}`) }) };
    };
    const stranger = await open(spotter, picture._id, PHONE);
    await stranger.option.waitFor();
    expect(await stranger.option.isDisabled()).toBe(true);
    expect(await stranger.option.textContent()).toContain(
      'Vive con alguien: solo quienes cuidan de él dicen qué fotos lo muestran',
    );
    await animationsSettled(stranger.dialog);
    const path = await screenshot(stranger.p, 'suggest-household-es-390');
    mkdirSync(SHOTS, { recursive: true });
    copyFileSync(path, join(SHOTS, 'suggest-household-es-390.png'));
    await stranger.p.context().close();
    // Its caretaker, on the stranger's picture just posted, may suggest it.
    const caretaker = await open(carer, post._id, DESKTOP);
    await caretaker.option.waitFor();
    expect(await caretaker.option.isDisabled()).toBe(false);
    expect(await caretaker.option.textContent()).not.toContain('Vive con alguien');
    await caretaker.p.context().close();
  });
});
