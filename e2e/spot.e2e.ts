import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { DEMO_DISABLED_MESSAGE, WRONG_FILE_TYPE_MESSAGE, type PagedPostsResponse } from '@cats/contracts';
import { newContext, PHONE, DESKTOP, screenshot } from './support/browser.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';
import { DEMO, signInThroughApi } from './support/api.ts';
import { apiCall, apiUser, cardIds, fixture, FIXTURE_GPS, type SessionUser } from './support/posts.ts';

interface SentUpload {
  fields: Record<string, string>;
  type: string;
  width: number;
  height: number;
}

/** Runs in the page: records the multipart upload the Spot screen sends (playwright cannot read blob bodies). */
function recordUploads() {
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body) {
    if (body instanceof FormData) {
      const fields: Record<string, string> = {};
      body.forEach((value, key) => {
        if (typeof value === 'string') fields[key] = value;
      });
      const file = body.get('file');
      if (file instanceof Blob) {
        void createImageBitmap(file).then((bitmap) => {
          (window as unknown as { __upload: unknown }).__upload = {
            fields,
            type: file.type,
            width: bitmap.width,
            height: bitmap.height,
          };
        });
      }
    }
    return send.call(this, body);
  };
}

const LOCATION_WARNING = 'App in development! Every user can see the location of your pictures when active.';
const NO_LOCATION = 'No location data available for this picture';

/** Issue 4, points 9 and 12: the Spot screen, from choosing a photo to the new post on top of the feed. */
describe('spot a cat', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await sharedServerAndBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  async function openSpot(
    user: { email: string; password: string },
    viewport: { width: number; height: number } = DESKTOP,
  ): Promise<Page> {
    const context = await newContext(browser, server.url, viewport);
    const page = await context.newPage();
    await page.addInitScript(recordUploads);
    await signInThroughApi(page, user, '/spot');
    await page.getByRole('heading', { name: 'Snap a cat' }).waitFor();
    return page;
  }

  const chooseFile = (page: Page, name: string, mimeType: string, buffer: Buffer) =>
    page.locator('input[type="file"]').setInputFiles({ name, mimeType, buffer });

  /** What the page's upload actually sent: the fields and the decoded size and type of the file. */
  const lastUpload = async (page: Page): Promise<SentUpload> => {
    await page.waitForFunction(() => (window as unknown as { __upload?: unknown }).__upload !== undefined);
    return page.evaluate(() => (window as unknown as { __upload: SentUpload }).__upload);
  };

  const cropDialog = (page: Page) => page.getByRole('dialog', { name: 'Crop your picture' });

  /** Submit without a description: the reminder (on by default, issue 24) asks once; post anyway. */
  async function submitWithoutDescription(page: Page) {
    await page.getByRole('button', { name: 'Submit' }).click();
    const reminder = page.getByRole('dialog', { name: 'Add a description so everyone can enjoy your cat?' });
    await reminder.getByRole('button', { name: 'Post anyway' }).click();
  }

  it('posts a GPS-tagged photo through crop, comment and submit, and shows it on top of the feed', async () => {
    const user = await apiUser(server.url, 'spotter');
    const page = await openSpot(user);
    await expect.poll(() => page.locator('input[type="file"]').getAttribute('required')).not.toBeNull();
    await page.getByText('Add a photo').waitFor();

    await chooseFile(page, 'IMG_0001.jpg', 'image/jpeg', fixture('photo-gps.jpg'));
    const dialog = cropDialog(page);
    await dialog.waitFor();
    const zoom = dialog.getByLabel('Zoom');
    expect(await zoom.getAttribute('min')).toBe('1');
    expect(await zoom.getAttribute('max')).toBe('3');
    expect(await zoom.getAttribute('step')).toBe('0.01');
    await zoom.fill('1.4');
    await dialog.locator('img').first().waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'spot-crop-1280');
    await page.setViewportSize(PHONE);
    await page.waitForTimeout(300);
    await screenshot(page, 'spot-crop-390');
    await page.setViewportSize(DESKTOP);

    await dialog.getByRole('button', { name: 'Crop' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('img', { name: 'Your cropped picture' }).waitFor();

    expect(await page.getByLabel('Location visible').isChecked()).toBe(true);
    await page.getByText(LOCATION_WARNING).waitFor();
    await page.getByText('Other people see this spot to within about 500 m.', { exact: false }).waitFor();
    expect(await page.getByText(NO_LOCATION).count()).toBe(0);

    const caption = `Spotted on the wall ${Date.now()}`;
    await page.getByLabel('Add a comment').fill(caption);
    await page.getByLabel("Cat's name").fill('Marmalade');
    await page
      .getByLabel("Describe this photo for people who can't see it")
      .fill('A ginger cat asleep on a garden wall');
    await screenshot(page, 'spot-form-1280');
    await page.getByRole('button', { name: 'Submit' }).click();

    // What left the browser: a square JPEG with the photo's coordinates, location on.
    const sent = await lastUpload(page);
    expect(sent.type).toBe('image/jpeg');
    expect(sent.width).toBe(sent.height);
    expect(sent.width).toBeLessThanOrEqual(1200);
    expect(sent.fields).toMatchObject({
      comment: caption,
      catName: 'Marmalade',
      altText: 'A ginger cat asleep on a garden wall',
      showLocation: 'true',
    });
    expect(Number(sent.fields.latitude)).toBeCloseTo(FIXTURE_GPS.latitude, 4);
    expect(Number(sent.fields.longitude)).toBeCloseTo(FIXTURE_GPS.longitude, 4);
    expect(JSON.parse(sent.fields.exifData!)).toMatchObject({
      DateTimeOriginal: expect.stringMatching(/^2024-05-0[45]T/),
    });

    await page.waitForURL('**/feed');
    const first = page.locator('article[data-post-id]').first();
    await first.getByText(caption).waitFor();
    await first.getByText('Marmalade').waitFor();
    await first.getByRole('link', { name: user.username }).waitFor();

    // The server stored the photo's coordinates, shown to their owner exactly.
    const feed = await apiCall<PagedPostsResponse>(server.url, user.accessToken, '/api/feed/1');
    const post = feed.posts[0]!;
    expect(post.caption).toBe(caption);
    expect(post._id).toBe((await cardIds(page))[0]);
    expect(post.showLocation).toBe(true);
    expect(post.latitude).toBeCloseTo(FIXTURE_GPS.latitude, 3);
    expect(post.longitude).toBeCloseTo(FIXTURE_GPS.longitude, 3);
    await page.context().close();
  });

  it('refuses a picture that is not jpg or png with a modal', async () => {
    const user = await apiUser(server.url, 'wrongtype');
    const page = await openSpot(user, PHONE);
    await chooseFile(page, 'cat.webp', 'image/webp', fixture('cat.webp'));
    const modal = page.getByRole('alertdialog', { name: WRONG_FILE_TYPE_MESSAGE });
    await modal.waitFor();
    expect(await cropDialog(page).count()).toBe(0);
    await modal.getByRole('button', { name: 'OK' }).click();
    await modal.waitFor({ state: 'hidden' });
    await page.getByText('Add a photo').waitFor();
    expect(await page.locator('input[type="file"]').inputValue()).toBe('');
    await page.context().close();
  });

  it('says when a picture has no location, posts it without one, and delete returns to the file choice', async () => {
    const user = await apiUser(server.url, 'nogps');
    const page = await openSpot(user, PHONE);

    // Delete after cropping goes back to choosing a file.
    await chooseFile(page, 'cat.png', 'image/png', fixture('cat.png'));
    await cropDialog(page).getByRole('button', { name: 'Crop' }).click();
    await page.getByRole('img', { name: 'Your cropped picture' }).waitFor();
    await page.getByRole('button', { name: 'Delete picture' }).click();
    await page.getByText('Add a photo').waitFor();
    expect(await page.getByRole('button', { name: 'Submit' }).count()).toBe(0);

    await chooseFile(page, 'IMG_0002.jpg', 'image/jpeg', fixture('photo-no-gps.jpg'));
    await cropDialog(page).getByRole('button', { name: 'Crop' }).click();
    await page.getByText(NO_LOCATION).waitFor();
    expect(await page.getByRole('switch').count()).toBe(0);
    expect(await page.getByText(LOCATION_WARNING).count()).toBe(0);
    await page.getByLabel('Add a comment').fill('No idea where this was');
    await submitWithoutDescription(page);
    await page.waitForURL('**/feed');
    await page.locator('article[data-post-id]').first().getByText('No idea where this was').waitFor();

    const feed = await apiCall<PagedPostsResponse>(server.url, user.accessToken, '/api/feed/1');
    expect(feed.posts[0]!.latitude).toBeNull();
    expect(feed.posts[0]!.showLocation).toBe(false);
    await page.context().close();
  });

  it('turns the location switch off, and downscales a large photo before upload', async () => {
    const user: SessionUser = await apiUser(server.url, 'bigphoto');
    const page = await openSpot(user);
    const big = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#c98a4b' } })
      .jpeg({ quality: 80 })
      .withExif({
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '37/1 10/1 0/1',
          GPSLongitudeRef: 'W',
          GPSLongitude: '3/1 36/1 0/1',
        },
      })
      .toBuffer();
    await chooseFile(page, 'IMG_BIG.jpg', 'image/jpeg', big);
    await cropDialog(page).getByRole('button', { name: 'Crop' }).click();

    const toggle = page.getByRole('switch');
    expect(await toggle.isChecked()).toBe(true);
    await toggle.uncheck();
    await page.getByText('Location hidden').waitFor();
    expect(await page.getByText(LOCATION_WARNING).count()).toBe(0);

    await submitWithoutDescription(page);
    const sent = await lastUpload(page);
    expect(sent).toMatchObject({ type: 'image/jpeg', width: 2048, height: 2048 });
    expect(sent.fields.showLocation).toBe('false');
    await page.waitForURL('**/feed');

    const feed = await apiCall<PagedPostsResponse>(server.url, user.accessToken, '/api/feed/1');
    expect(feed.posts[0]!.user._id).toBe(user.userId);
    expect(feed.posts[0]!.showLocation).toBe(false);
    await page.context().close();
  });

  it('shows the upload progress modal, and the demo modal when the demo user submits', async () => {
    const page = await openSpot(DEMO);
    // Hold the upload's answer so the progress modal can be seen.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/posts/createPost', async (route) => {
      await held;
      await route.continue();
    });
    await chooseFile(page, 'IMG_0003.jpg', 'image/jpeg', fixture('photo-gps.jpg'));
    await cropDialog(page).getByRole('button', { name: 'Crop' }).click();
    await submitWithoutDescription(page);
    const uploading = page.getByRole('dialog', { name: 'File uploading' });
    await uploading.waitFor();
    expect(await uploading.getByRole('progressbar').count()).toBe(1);
    release();
    const demo = page.getByRole('alertdialog', { name: DEMO_DISABLED_MESSAGE });
    await demo.waitFor();
    await demo.getByRole('button', { name: 'OK' }).click();
    await demo.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/spot');
    await page.context().close();
  });
});
