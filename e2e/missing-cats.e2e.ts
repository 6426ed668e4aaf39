import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type {
  CreateCatResponse,
  MissingAlertResponse,
  MissingReportsResponse,
  NotificationsResponse,
} from '@cats/contracts';
import { DESKTOP, PHONE, screenshot } from './support/browser.ts';
import { axeOn } from './support/screens.ts';
import { signInThroughApi } from './support/api.ts';
import { apiCall, apiCreatePost, apiUser, fixture, type SessionUser } from './support/posts.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';

/** Around Antequera, far from the sample neighbourhood's own missing cat in Málaga (35 km). */
const LAST_SEEN = { latitude: 37.02187, longitude: -4.55871 };
/** The neighbour's phone, ~1 km north-east: where their home area is chosen and where they saw the cat. */
const NEIGHBOUR_AT = { latitude: 37.02934, longitude: -4.55112 };
const SAW_AT = { latitude: 37.02411, longitude: -4.55302 };
const CAT = 'Nieve';

/**
 * Issue 26, "Missing cats", end to end: the caretaker marks the cat missing; a neighbour whose home
 * area lies nearby sees the banner in the feed and the red pin on Explore, answers 'I saw this cat'
 * without a photo and then with one (Spot); the caretaker reads both reports on the cat's page and marks
 * the cat found; the banner is gone and the neighbour is told.
 */
describe('missing cats', () => {
  let server: RunningServer;
  let browser: Browser;
  let keeper: SessionUser;
  let neighbour: SessionUser;
  let catId: string;

  beforeAll(async () => {
    [server, browser] = await sharedServerAndBrowser();
    keeper = await apiUser(server.url, 'nievekeeper');
    neighbour = await apiUser(server.url, 'neighbour');
    const post = await apiCreatePost(server.url, keeper.accessToken, {
      image: fixture('photo-gps.jpg'),
      comment: 'Nieve on the garden wall.',
      location: { latitude: 37.0205, longitude: -4.5601 },
    });
    const created = await apiCall<CreateCatResponse>(server.url, keeper.accessToken, '/api/cats', {
      method: 'POST',
      body: JSON.stringify({ name: CAT, living: 'household', postId: post._id }),
    });
    catId = created.cat._id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  /** Signed in (through the API), in a context whose browser is at `at` (geolocation allowed). */
  async function pageAt(
    user: SessionUser,
    viewport: { width: number; height: number },
    at: typeof LAST_SEEN,
  ) {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport,
      geolocation: { ...at, accuracy: 12 },
      permissions: ['geolocation'],
    });
    const page = await context.newPage();
    // Every test opens its screen itself.
    await signInThroughApi(page, user, null);
    return page;
  }

  /** Leaflet has drawn tiles in `selector` (screenshots show a map, not an empty box). */
  const tilesIn = (page: Page, selector: string) =>
    expect
      .poll(() =>
        page
          .locator(`${selector} img.leaflet-tile`)
          .evaluateAll((imgs: HTMLImageElement[]) => imgs.some((i) => i.complete && i.naturalWidth > 0)),
      )
      .toBe(true);

  /** axe (as a11y.e2e.ts runs it) finds nothing on the screen as it is now. */
  const axeClean = async (page: Page) => {
    const result = await axeOn(page)
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    expect(
      result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  };

  const noSideScroll = async (page: Page, width: number) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

  it('lets a neighbour choose a home area in Settings; before any alert their feed has no banner', async () => {
    const page = await pageAt(neighbour, PHONE, NEIGHBOUR_AT);
    // No home area and no located post yet: no banner.
    await page.goto('/feed');
    await page.locator('article').first().waitFor();
    expect(await page.getByRole('region', { name: 'Missing cats near you' }).count()).toBe(0);

    await page.goto('/profile/settings');
    const card = page.getByRole('region', { name: 'Home area for missing cats' });
    await card.getByRole('button', { name: 'Use my current location' }).click();
    await card.getByText('Your home area is saved.').waitFor();
    await card.getByText('Your home area is the area of about 500 m around this point.').waitFor();
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'missing-settings-home-area-390');
    // The same picker as Spot's: the map opens on the saved area.
    await card.getByRole('button', { name: 'Change on the map' }).click();
    await card.getByRole('application', { name: 'Map for choosing your home area' }).waitFor();
    await tilesIn(page, '.location-picker');
    await card
      .locator('.location-picker__panel')
      .evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
    await screenshot(page, 'missing-settings-home-area-map-390');
    await card.getByRole('button', { name: 'Cancel' }).click();

    await page.context().close();
  });

  it('lets the caretaker mark the cat missing from its page', async () => {
    const page = await pageAt(keeper, DESKTOP, LAST_SEEN);
    await page.goto(`/cats/${catId}`);
    await page.getByRole('heading', { level: 1, name: CAT }).waitFor();
    await page.getByRole('button', { name: 'Mark as missing' }).click();
    const dialog = page.getByRole('dialog', { name: `Mark ${CAT} as missing` });
    // Nothing chosen yet: the place is asked for, and nothing is sent.
    await dialog.getByRole('button', { name: 'Mark as missing' }).click();
    await dialog.getByText('Choose the place on the map').waitFor();
    await dialog.getByRole('button', { name: 'Use my current location' }).click();
    await dialog.getByText('This is your current location, as your browser reported it.').waitFor();
    await dialog.getByLabel('Note for your neighbours').fill('White with one grey ear. Very shy.');
    await dialog.getByLabel("Tell me with 'I saw this cat', and please do not try to catch the cat.").check();
    await screenshot(page, 'missing-mark-dialog-1280');
    await axeClean(page);
    await dialog.getByRole('button', { name: 'Mark as missing' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('The alert is up: neighbours within 2 km can see it now.').waitFor();

    const alert = page.getByRole('region', { name: `${CAT} is missing` });
    await alert.getByText(/^Last seen (just now|\d+ min ago)\.$/).waitFor();
    await alert.getByText('White with one grey ear. Very shy.').waitFor();
    await alert
      .getByText(
        `If you see ${CAT}, please do not try to catch them: tell the caretakers with 'I saw this cat' instead.`,
      )
      .waitFor();
    await alert
      .getByText(
        'The map shows the exact place you gave. Everyone else sees an area of about 500 m around it.',
      )
      .waitFor();
    await tilesIn(page, '.missing-alert');
    await screenshot(page, 'missing-cat-page-keeper-1280');
    const { alert: saved } = await apiCall<MissingAlertResponse>(
      server.url,
      keeper.accessToken,
      `/api/cats/${catId}/missing`,
    );
    expect(saved?.place).toEqual({ ...LAST_SEEN, locationPrecision: 'exact' });
    await page.context().close();
  });

  it('shows the neighbour the banner in the feed and the pin on Explore, and told them', async () => {
    const page = await pageAt(neighbour, PHONE, NEIGHBOUR_AT);
    await page.goto('/feed');
    const banner = page.getByRole('region', { name: 'Missing cats near you' });
    const item = banner.getByRole('link', { name: new RegExp(`^Missing: ${CAT}\\.`) });
    await item.waitFor();
    await item.getByText('Less than 2 km from your home area.').waitFor();
    await noSideScroll(page, PHONE.width);
    await item.locator('img.post-image__img--loaded').waitFor();
    await screenshot(page, 'missing-feed-banner-390');
    await axeClean(page);
    // Her own picture further down the feed says it too, after her name.
    const card = page.locator('article', { hasText: 'Nieve on the garden wall.' });
    await card.locator('.missing-tag').waitFor();
    expect(await card.locator('.post-card__caption').textContent()).toMatch(new RegExp(`^${CAT} Missing`));
    await card.scrollIntoViewIfNeeded();
    await card.locator('img.post-image__img--loaded').waitFor();
    await screenshot(page, 'missing-feed-card-390');
    // The sample neighbourhood's missing cat is 35 km away: not in this neighbour's banner.
    expect(await banner.getByRole('link').count()).toBe(1);
    // The neighbour was told, without a place.
    const told = await apiCall<NotificationsResponse>(
      server.url,
      neighbour.accessToken,
      '/api/notifications',
    );
    expect(told.notifications.filter((n) => n.type === 'cat_missing_nearby').map((n) => n.cat?.name)).toEqual(
      [CAT],
    );

    const desk = await pageAt(neighbour, DESKTOP, NEIGHBOUR_AT);
    await desk.goto('/feed');
    await desk
      .getByRole('region', { name: 'Missing cats near you' })
      .locator('img.post-image__img--loaded')
      .waitFor();
    await screenshot(desk, 'missing-feed-banner-1280');
    // Explore's pins come from the map's viewport, not the neighbour's area: at the default view (all
    // of southern Spain) the sample neighbourhood's Luna, 35 km away, is pinned beside Nieve.
    const asked: string[] = [];
    desk.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/cats/missing')) asked.push(url.pathname + url.search);
    });
    await desk.goto('/explore');
    const pin = desk.getByRole('button', { name: `Missing cat: ${CAT}. Open the cat's page.` });
    const farPin = desk.getByRole('button', { name: "Missing cat: Luna. Open the cat's page." });
    await pin.waitFor();
    await farPin.waitFor();
    await tilesIn(desk, '.explore-map');
    await screenshot(desk, 'missing-explore-pins-default-view-1280');
    expect(asked.length).toBeGreaterThan(0);
    for (const url of asked)
      expect(url).toMatch(
        /^\/api\/cats\/missing\/map\?west=[^&]+&south=[^&]+&east=[^&]+&north=[^&]+&zoom=8$/,
      );
    // Closer in, around the neighbour (Locate me: zoom 13), the map asks for the new viewport and
    // Luna's pin goes; Nieve's, 1 km away, stays.
    await desk.getByRole('button', { name: 'Locate me' }).click();
    await farPin.waitFor({ state: 'detached' });
    await pin.waitFor();
    expect(asked.at(-1)).toMatch(/&zoom=13$/);
    await tilesIn(desk, '.explore-map');
    await screenshot(desk, 'missing-explore-pin-1280');
    await pin.click();
    await desk.waitForURL(`**/cats/${catId}`);
    await desk.getByRole('region', { name: `${CAT} is missing` }).waitFor();
    await desk.context().close();

    await page.goto(`/cats/${catId}`);
    const alert = page.getByRole('region', { name: `${CAT} is missing` });
    await alert.getByText(`The map shows the area of about 500 m where ${CAT} was last seen.`).waitFor();
    expect(await page.getByRole('button', { name: 'Mark as found' }).count()).toBe(0);
    await tilesIn(page, '.missing-alert');
    await noSideScroll(page, PHONE.width);
    await screenshot(page, 'missing-cat-page-neighbour-390');
    await axeClean(page);
    await page.context().close();
  });

  it("takes the neighbour's 'I saw this cat' without a photo, and offers Spot for one with a photo", async () => {
    const page = await pageAt(neighbour, PHONE, SAW_AT);
    await page.goto(`/cats/${catId}`);
    await page.getByRole('button', { name: 'I saw this cat' }).click();
    const dialog = page.getByRole('dialog', { name: `I saw ${CAT}` });
    expect(await dialog.getByRole('link', { name: 'Post a photo' }).getAttribute('href')).toBe(
      `/spot?cat=${catId}`,
    );
    await dialog.getByText("Your report's place is shared with the cat's caretakers.").waitFor();
    await dialog.getByRole('button', { name: 'Use my current location' }).click();
    await dialog.getByText('This is your current location, as your browser reported it.').waitFor();
    await dialog
      .getByLabel('Note for the caretakers (optional)')
      .fill('Hiding under the blue van by the school.');
    await screenshot(page, 'missing-report-dialog-390');
    await axeClean(page);
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Thank you! The caretakers can see your report now.').waitFor();

    // With a photo: Spot opens with the cat chosen. Nieve lives with someone, so only the caretakers
    // will see that the photo shows her (issue 46), and Spot says so; the neighbour posts it.
    await page.goto(`/spot?cat=${catId}`);
    await page.getByRole('heading', { name: 'Snap a cat' }).waitFor();
    await page.locator('input[type="file"]').setInputFiles({
      name: 'IMG_2002.jpg',
      mimeType: 'image/jpeg',
      buffer: fixture('photo-no-gps.jpg'),
    });
    const crop = page.getByRole('dialog', { name: 'Crop your picture' });
    await crop.getByRole('button', { name: 'Crop' }).click();
    await crop.waitFor({ state: 'detached' });
    const group = page.getByRole('group', { name: 'Which cat is this?' });
    const chosen = group.getByRole('radio', { name: CAT });
    await chosen.waitFor({ state: 'attached' });
    expect(await chosen.isChecked()).toBe(true);
    await group.getByText(`Only ${CAT}'s caretakers will see that your photo shows this cat.`).waitFor();
    expect(await group.getByText(/lives with someone/).count()).toBe(0);
    await screenshot(page, 'missing-spot-linked-390');
    await page.getByLabel('Add a comment').fill('Is this Nieve? On the school wall.');
    await page.getByRole('button', { name: 'Submit' }).click();
    const reminder = page.getByRole('dialog', { name: 'Add a description so everyone can enjoy your cat?' });
    await reminder.getByRole('button', { name: 'Post anyway' }).click();
    await page.waitForURL('**/feed');
    await page.context().close();
  });

  it('shows the caretaker the report on the list and the map, then marks the cat found: the banner goes', async () => {
    const page = await pageAt(keeper, DESKTOP, LAST_SEEN);
    await page.goto(`/cats/${catId}`);
    const reports = page.getByRole('region', { name: 'Reports from neighbours' });
    await reports.getByText(`${neighbour.username} saw ${CAT}.`).waitFor();
    await reports.getByText('Hiding under the blue van by the school.').waitFor();
    await reports.getByText(`${neighbour.username} posted a photo of ${CAT}.`).waitFor();
    // The last-seen place and the report, both exact for the caretaker: two dots, no cells.
    await tilesIn(page, '.missing-alert');
    await expect
      .poll(() =>
        page
          .locator('.missing-alert .leaflet-overlay-pane path')
          .evaluateAll((els) => els.filter((el) => !el.getAttribute('stroke-dasharray')).length),
      )
      .toBe(2);
    await reports.scrollIntoViewIfNeeded();
    await page
      .getByText(`Red marks where ${CAT} was last seen. Purple marks where neighbours saw ${CAT}.`)
      .waitFor();
    await screenshot(page, 'missing-reports-keeper-1280');
    await axeClean(page);
    const listed = await apiCall<MissingReportsResponse>(
      server.url,
      keeper.accessToken,
      `/api/cats/${catId}/missing/reports`,
    );
    expect(listed.reports.map((r) => [r.kind, r.kind === 'photo' ? r.note : r.place])).toEqual([
      ['photo', 'Is this Nieve? On the school wall.'],
      ['sighting', { ...SAW_AT, locationPrecision: 'exact' }],
    ]);

    await page.getByRole('button', { name: 'Mark as found' }).click();
    await page.getByText('Back home!').waitFor();
    await page.getByRole('region', { name: `${CAT} is missing` }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Mark as missing' }).waitFor();
    await page.context().close();

    const phone = await pageAt(neighbour, PHONE, NEIGHBOUR_AT);
    await phone.goto('/feed');
    await phone.locator('article').first().waitFor();
    expect(await phone.getByRole('region', { name: 'Missing cats near you' }).count()).toBe(0);
    // Found: her picture no longer says she is missing.
    const found = phone.locator('article', { hasText: 'Nieve on the garden wall.' });
    await found.locator('[data-cat-link]').waitFor();
    expect(await found.locator('.missing-tag').count()).toBe(0);
    await phone.goto('/notifications');
    await phone.getByRole('link', { name: new RegExp(`${CAT} is back home`) }).waitFor();
    await screenshot(phone, 'missing-found-notification-390');
    await phone.context().close();
  });
});
