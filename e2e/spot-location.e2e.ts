import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { PagedPostsResponse, PostDetail } from '@cats/contracts';
import { DESKTOP, PHONE, screenshot } from './support/browser.ts';
import { signedInPage } from './support/api.ts';
import { apiCall, apiUser, fixture, type SessionUser } from './support/posts.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';

const NO_LOCATION = 'No location data available for this picture';
const PICKED = 'You picked this location on the map.';
const CURRENT = 'This is your current location, as your browser reported it.';
const SAVED = 'This is the location saved with the picture.';
/** Somewhere in London the browser says the phone is. */
const PHONE_AT = { latitude: 51.50722, longitude: -0.12758 };

/** Issue 26, 'Spot without GPS': a photo shared through a messenger gets its place from the map or the browser. */
describe('spot without GPS', () => {
  const suite = {} as { server: RunningServer; browser: Browser };
  // The maps draw from a local stand-in for the tile server (no internet here, and screenshots need tiles).
  beforeAll(async () => {
    [suite.server, suite.browser] = await sharedServerAndBrowser();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.dispose();
  });

  /** Spot up to the form, with photo-no-gps.jpg (the fixture without GPS tags) chosen and cropped. */
  async function spotWithoutGps(page: Page) {
    await page.goto('/spot');
    await page.getByRole('heading', { name: 'Snap a cat' }).waitFor();
    await page.locator('input[type="file"]').setInputFiles({
      name: 'from-a-chat.jpg',
      mimeType: 'image/jpeg',
      buffer: fixture('photo-no-gps.jpg'),
    });
    const crop = page.getByRole('dialog', { name: 'Crop your picture' });
    await crop.getByRole('button', { name: 'Crop' }).click();
    await crop.waitFor({ state: 'detached' });
    await page.getByText(NO_LOCATION).waitFor();
  }

  /** The pin's place as the picker's readout says it. */
  async function pin(scope: Page | Locator): Promise<{ latitude: number; longitude: number }> {
    const text = await scope.getByText(/^The pin is at latitude/).textContent();
    const [latitude, longitude] = text!.match(/-?\d+\.\d+/g)!.map(Number);
    return { latitude: latitude!, longitude: longitude! };
  }

  /** The map has drawn its tiles (screenshots show them, not an empty box). */
  const tilesLoaded = (scope: Page | Locator) =>
    expect
      .poll(() =>
        scope
          .locator('.location-picker__map img.leaflet-tile')
          .evaluateAll((tiles: HTMLImageElement[]) => tiles.some((t) => t.complete && t.naturalWidth > 0)),
      )
      .toBe(true);

  /** Screenshots show the location part of the screen, wherever the form has scrolled it. */
  const showing = (scope: Page | Locator, selector: string) =>
    scope
      .locator(selector)
      .first()
      // Instantly: the app scrolls smoothly, and a screenshot would catch it halfway.
      .evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));

  async function post(page: Page, caption: string) {
    await page.getByLabel('Add a comment').fill(caption);
    await page.getByRole('button', { name: 'Submit' }).click();
    const reminder = page.getByRole('dialog', { name: 'Add a description so everyone can enjoy your cat?' });
    await reminder.getByRole('button', { name: 'Post anyway' }).click();
    await page.waitForURL('**/feed');
  }

  const newest = async (user: SessionUser) =>
    (await apiCall<PagedPostsResponse>(suite.server.url, user.accessToken, '/api/feed/1')).posts[0]!;

  it('picks the place on the map, posts it, shows it on the post page, and corrects it in Edit', async () => {
    const user = await apiUser(suite.server.url, 'mappicker');
    const page = await signedInPage(suite.browser, suite.server.url, user, DESKTOP);
    await spotWithoutGps(page);
    // The spec's sentence stays, with the two ways to a place; no switch until there is one.
    await page.getByRole('button', { name: 'Use my current location' }).waitFor();
    expect(await page.getByRole('switch').count()).toBe(0);
    await showing(page, '.spot-location');
    await screenshot(page, 'spot-no-gps-1280');

    await page.getByRole('button', { name: 'Pick on the map' }).click();
    const map = page.locator('.location-picker__map.leaflet-container');
    await map.waitFor();
    // A new account has no located post: the app's default view.
    expect(await pin(page)).toEqual({ latitude: 37, longitude: -4.5 });
    await tilesLoaded(page);
    await showing(page, '.location-picker__panel');
    await screenshot(page, 'spot-map-picker-1280');
    // Tap to place, then nudge with the keyboard (the map has focus after the tap).
    const box = (await map.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2 + 80, box.y + box.height / 2 - 50);
    const tapped = await pin(page);
    expect(tapped.longitude).toBeGreaterThan(-4.5);
    expect(tapped.latitude).toBeGreaterThan(37);
    await map.focus();
    await page.keyboard.press('ArrowRight');
    const picked = await pin(page);
    expect(picked.longitude).toBeGreaterThan(tapped.longitude);
    expect(picked.latitude).toBeCloseTo(tapped.latitude, 5);
    await page.getByRole('button', { name: 'Confirm location' }).click();

    // From here the place behaves as a photo's own: the switch, on, with its warning.
    await page.getByText(PICKED).waitFor();
    expect(await page.getByText(NO_LOCATION).count()).toBe(0);
    expect(await page.getByLabel('Location visible').isChecked()).toBe(true);
    await post(page, 'Sent to me on a chat');

    const created = await newest(user);
    expect(created.caption).toBe('Sent to me on a chat');
    expect(created.showLocation).toBe(true);
    expect(created.latitude).toBeCloseTo(picked.latitude, 5);
    expect(created.longitude).toBeCloseTo(picked.longitude, 5);

    await page.goto(`/posts/${created._id}`);
    await page.getByRole('heading', { name: 'Where it was spotted' }).waitFor();
    // The owner sees the exact spot: a dot, not the ~500 m circle.
    expect(await page.getByText('Approximate location (about 500 m)').count()).toBe(0);
    await page.locator('.post-page__map path.leaflet-interactive').waitFor();

    // Edit: the same picker opens on the saved place; three steps south.
    await page.getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit picture' });
    await dialog.getByText(SAVED).waitFor();
    await dialog.getByRole('button', { name: 'Change on the map' }).click();
    await dialog.locator('.location-picker__map.leaflet-container').waitFor();
    expect(await pin(dialog)).toEqual({
      latitude: Number(created.latitude!.toFixed(5)),
      longitude: Number(created.longitude!.toFixed(5)),
    });
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowDown');
    const corrected = await pin(dialog);
    expect(corrected.latitude).toBeLessThan(created.latitude!);
    await tilesLoaded(dialog);
    await showing(dialog, '.location-picker__panel');
    await screenshot(page, 'edit-map-picker-1280');
    await dialog.getByRole('button', { name: 'Confirm location' }).click();
    await dialog
      .getByText(
        'Your location is switched on for this picture, so the maps will show the new place once you save.',
      )
      .waitFor();
    await showing(dialog, '.edit-post-dialog__location');
    await screenshot(page, 'edit-location-1280');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    const edited = await apiCall<PostDetail>(suite.server.url, user.accessToken, `/api/posts/${created._id}`);
    expect(edited.latitude).toBeCloseTo(corrected.latitude, 5);
    expect(edited.longitude).toBeCloseTo(corrected.longitude, 5);
    // A place is no text: the post is not marked edited.
    expect(edited.editedAt).toBeNull();
    await page.locator('.post-page__map path.leaflet-interactive').waitFor();
    await page.context().close();
  });

  it("uses the browser's position when allowed, and explains a refusal", async () => {
    const user = await apiUser(suite.server.url, 'herenow');
    const page = await signedInPage(suite.browser, suite.server.url, user, PHONE);
    await spotWithoutGps(page);
    await showing(page, '.spot-location');
    await screenshot(page, 'spot-no-gps-390');

    // Not allowed (yet): headless Chromium answers a permission request with a refusal.
    await page.getByRole('button', { name: 'Use my current location' }).click();
    await page
      .getByText(
        "Your browser did not allow this site to use your location. Allow it in the browser's site settings, or pick the place on the map instead.",
      )
      .waitFor();
    expect(await page.getByRole('switch').count()).toBe(0);

    await page.context().setGeolocation({ ...PHONE_AT, accuracy: 12 });
    await page.context().grantPermissions(['geolocation'], { origin: suite.server.url });
    await page.getByRole('button', { name: 'Use my current location' }).click();
    await page.getByText(CURRENT).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByLabel('Location visible').isChecked()).toBe(true);

    // The picker at phone size, opened on the browser's place.
    await page.getByRole('button', { name: 'Change on the map' }).click();
    await page.locator('.location-picker__map.leaflet-container').waitFor();
    expect(await pin(page)).toEqual(PHONE_AT);
    await tilesLoaded(page);
    await showing(page, '.location-picker__panel');
    await screenshot(page, 'spot-map-picker-390');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText(CURRENT).waitFor();

    await post(page, 'Right here, right now');
    const created = await newest(user);
    expect(created).toMatchObject({ ...PHONE_AT, showLocation: true });

    // Edit at phone size: remove the place, then put it back from the map.
    await page.goto(`/posts/${created._id}`);
    await page.getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit picture' });
    await dialog.getByRole('button', { name: 'Change on the map' }).click();
    await dialog.locator('.location-picker__map.leaflet-container').waitFor();
    await tilesLoaded(dialog);
    await showing(dialog, '.location-picker__panel');
    await screenshot(page, 'edit-map-picker-390');
    await dialog
      .getByRole('group', { name: 'Place on the map' })
      .getByRole('button', { name: 'Cancel' })
      .click();
    await dialog.getByRole('button', { name: 'Remove location' }).click();
    await dialog.getByText('Saving removes the location from this picture and from every map.').waitFor();
    await showing(dialog, '.edit-post-dialog__location');
    await screenshot(page, 'edit-location-390');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const removed = await apiCall<PostDetail>(
      suite.server.url,
      user.accessToken,
      `/api/posts/${created._id}`,
    );
    expect(removed).toMatchObject({ latitude: null, longitude: null, showLocation: false });
    expect(await page.getByRole('heading', { name: 'Where it was spotted' }).count()).toBe(0);
    await page.context().close();
  });
});
