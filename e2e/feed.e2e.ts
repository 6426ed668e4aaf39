import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PHONE, DESKTOP, screenshot } from './support/browser.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';
import { signInThroughApi, signedInPage } from './support/api.ts';
import { apiCreatePost, apiUser, apiWholeFeed, cardIds, fixture, type SessionUser } from './support/posts.ts';

/** Issue 4, points 10 and 12: the feed's cards, its infinite scroll and its states. */
describe('feed', () => {
  let server: RunningServer;
  let browser: Browser;
  let reader: SessionUser;

  beforeAll(async () => {
    [server, browser] = await sharedServerAndBrowser();
    reader = await apiUser(server.url, 'reader');
    // The seed has 30+ posts; a few more make sure the feed spans at least three pages of 20.
    const poster = await apiUser(server.url, 'poster');
    const image = fixture('photo-no-gps.jpg');
    for (let i = 0; i < 12; i += 1) {
      await apiCreatePost(server.url, poster.accessToken, { image, comment: `Extra cat ${i}` });
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  async function openFeed(
    viewport: { width: number; height: number } = DESKTOP,
    opts: { deviceScaleFactor?: number } = {},
  ): Promise<Page> {
    const context = await browser.newContext({ baseURL: server.url, viewport, ...opts });
    const page = await context.newPage();
    await signInThroughApi(page, reader, '/feed');
    await page.locator('article[data-post-id]').first().waitFor();
    return page;
  }

  it('scrolls through every page without showing a post twice, even when someone posts meanwhile', async () => {
    const expected = await apiWholeFeed(server.url, reader.accessToken);
    expect(expected.length).toBeGreaterThanOrEqual(41);

    const page = await openFeed(PHONE);
    const feedRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/feed/')) feedRequests.push(r.url());
    });
    // The first cards render first, the rest of the page right after (components/post/infinite-list.tsx).
    await expect.poll(async () => (await cardIds(page)).length).toBe(20);

    // A new post after the first page was read must neither repeat nor push anything out.
    const other = await apiUser(server.url, 'latecomer');
    await apiCreatePost(server.url, other.accessToken, { comment: 'Posted while you scrolled' });

    for (let i = 0; i < 40; i += 1) {
      const ids = await cardIds(page);
      if (
        ids.length >= expected.length &&
        (await page.getByText('You have seen every cat', { exact: false }).count())
      )
        break;
      await page.locator('article[data-post-id]').last().scrollIntoViewIfNeeded();
      await page.waitForTimeout(250);
    }
    const ids = await cardIds(page);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expected.map((p) => p._id));
    expect(feedRequests.length).toBeGreaterThanOrEqual(2);
    expect(feedRequests.every((url) => /cursor=/.test(url))).toBe(true);
    await page.context().close();
  });

  it('keeps a like made while the next page is on its way', async () => {
    const page = await openFeed();
    // Page 2 is held until the like has been answered: it was read before the like.
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/feed\/2/, async (route) => {
      await released;
      await route.continue();
    });
    const cards = page.locator('article[data-post-id]');
    // The first cards render first, the rest of page 1 right after (components/post/infinite-list.tsx).
    await expect.poll(() => cards.count()).toBe(20);
    const asked = page.waitForRequest(/\/api\/feed\/2/);
    await cards.last().scrollIntoViewIfNeeded();
    await asked;

    // Pinned by id: the card stays the same one however the list above it changes meanwhile.
    const firstId = await cards.first().getAttribute('data-post-id');
    const target = page.locator(`article[data-post-id="${firstId}"]`);
    const like = target.getByRole('button', { name: /^Like,/ });
    // The count is the button beside the heart (it opens 'Liked by').
    const likeCount = target.locator('.post-like__count');
    const count = Number(await likeCount.textContent());
    const wasLiked = (await like.getAttribute('aria-pressed')) === 'true';
    const answered = page.waitForResponse((r) => r.url().includes('/api/posts/likePost/'));
    await like.click();
    expect((await answered).status()).toBe(200);
    const pressed = wasLiked ? 'false' : 'true';
    const after = count + (wasLiked ? -1 : 1);
    await expect.poll(() => like.getAttribute('aria-pressed')).toBe(pressed);

    const before = await cards.count();
    release();
    await expect.poll(() => cards.count()).toBeGreaterThan(before);
    expect(await like.getAttribute('aria-pressed')).toBe(pressed);
    expect(Number(await likeCount.textContent())).toBe(after);
    await page.context().close();
  });

  it('returns to the same card on Back and after a reload, though the list renders its first cards first', async () => {
    const page = await openFeed(PHONE);
    await expect.poll(async () => (await cardIds(page)).length).toBe(20);
    const target = page.locator('article[data-post-id]').nth(12);
    // The link the reader will follow, on screen (so the click itself does not scroll).
    const author = target.locator('header a').first();
    await author.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300); // the position is saved on the next frame
    const id = await target.getAttribute('data-post-id');
    const left = await page.evaluate(() => window.scrollY);
    expect(left).toBeGreaterThan(2000);

    // Away through the card's author link, then Back: the feed mounts again from the query cache.
    await author.click();
    await page.waitForURL(/\/profile\//);
    await page.goBack();
    await page.waitForURL(/\/feed$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(left);
    const onScreen = async () => {
      const box = await page.locator(`article[data-post-id="${id}"]`).boundingBox();
      return box !== null && box.y < PHONE.height && box.y + box.height > 0;
    };
    expect(await onScreen()).toBe(true);

    // A reload starts the app afresh: the feed's first render has three cards, the page is too short
    // for the saved position until the rest arrive, and the restore keeps trying until it gets there.
    await page.reload();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(left);
    expect(await onScreen()).toBe(true);
    await page.context().close();
  });

  it('renders cards with author, responsive image, placeholder, caption, likes and comments', async () => {
    const author = await apiUser(server.url, 'author');
    const post = await apiCreatePost(server.url, author.accessToken, {
      image: fixture('photo-gps.jpg'),
      comment: 'Sunbathing on the wall',
      catName: 'Tigger',
    });
    // Phone at 3x: the browser must still not pick the 1600 px variant.
    const page = await openFeed(PHONE, { deviceScaleFactor: 3 });
    const card = page.locator(`article[data-post-id="${post._id}"]`);
    await card.waitFor();
    const profileLink = card.getByRole('link', { name: author.username });
    expect(await profileLink.getAttribute('href')).toBe(`/profile/${author.userId}`);
    expect(await card.locator('header svg, header img').count()).toBeGreaterThan(0);
    await card.getByText('Sunbathing on the wall').waitFor();
    await card.getByText('Tigger').waitFor();
    expect(await card.getByRole('button', { name: /^Like/ }).getAttribute('aria-pressed')).toBe('false');
    await card.getByRole('button', { name: /0 comments/ }).waitFor();

    const img = card.locator('img.post-image__img');
    expect(await img.getAttribute('width')).toBe(String(post.image.width));
    expect(await img.getAttribute('height')).toBe(String(post.image.height));
    expect(await img.getAttribute('srcset')).toMatch(/ 300w, .* 400w, .* 800w$/);
    expect(await img.getAttribute('sizes')).toBeTruthy();
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
      .toBe(true);
    const chosen = await img.evaluate((el: HTMLImageElement) => el.currentSrc);
    expect(chosen).toBe(new URL(post.image.variants['800']!, server.url).href);
    await page.waitForTimeout(400);
    await screenshot(page, 'feed-390');
    await page.context().close();

    const desktop = await openFeed(DESKTOP);
    await desktop.waitForTimeout(500);
    await screenshot(desktop, 'feed-1280');
    const firstImg = desktop.locator('img.post-image__img').first();
    await expect
      .poll(() => firstImg.evaluate((el: HTMLImageElement) => el.currentSrc))
      .toMatch(/\/800\.webp$/);
    await desktop.context().close();
  });

  it('shows the thumbhash placeholder until the image arrives', async () => {
    const page = await signedInPage(browser, server.url, reader);
    await page.route('**/media/**', () => {
      /* never answered: the placeholder stays */
    });
    await page.goto('/feed');
    const frame = page.locator('.post-image').first();
    await frame.waitFor();
    // The average colour paints first; the decoded preview follows right after (post-image.tsx).
    await expect
      .poll(() => frame.evaluate((el) => getComputedStyle(el).backgroundImage))
      .toMatch(/^url\("data:image\/png;base64,/);
    const box = await frame.boundingBox();
    expect(box!.height).toBeGreaterThan(100);
    await page.context().close();
  });

  it("says 'Error: {message}' when the feed fails, \"Can't connect to server\" when there is no server, and links to /spot when empty", async () => {
    const page = await signedInPage(browser, server.url, reader);

    await page.route('**/api/feed/**', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Database is asleep' }),
      }),
    );
    await page.goto('/feed');
    await page.getByText('Error: Database is asleep').waitFor();
    // One message, the one that applies (issue 28, defect 5).
    expect(await page.getByText("Can't connect to server").count()).toBe(0);

    await page.unroute('**/api/feed/**');
    await page.route('**/api/feed/**', (route) => route.abort('connectionrefused'));
    await page.reload();
    await page.getByText("Can't connect to server").waitFor();
    expect(await page.getByText(/^Error: /).count()).toBe(0);

    await page.unroute('**/api/feed/**');
    await page.route('**/api/feed/**', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ posts: [], info: { next: null, nextCursor: null } }),
      }),
    );
    await page.reload();
    const link = page.getByRole('link', { name: 'Snap the first cat' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('/spot');
    await page.context().close();
  });

  it("starts a returning visitor's session restore and first page before the app code has run", async () => {
    const page = await openFeed(PHONE);
    // Which script started each request (CDP's initiator), and when each was sent.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const sent: { url: string; initiator: string }[] = [];
    cdp.on('Network.requestWillBeSent', (e) => {
      const frames = e.initiator.stack?.callFrames ?? [];
      const parent = e.initiator.stack?.parent?.callFrames ?? [];
      sent.push({ url: e.request.url, initiator: [...frames, ...parent].map((f) => f.url).join(' ') });
    });
    await page.reload();
    await page.locator('article[data-post-id]').first().waitFor();
    const refreshes = sent.filter((r) => r.url.endsWith('/api/refresh'));
    const firstPages = sent.filter((r) => r.url.endsWith('/api/feed/1'));
    // One refresh (the refresh token rotates: a second one would be refused) and one first page, both
    // sent by the small boot entry rather than by the app bundle.
    expect(refreshes).toHaveLength(1);
    expect(firstPages).toHaveLength(1);
    // The boot entry's own files: its script and the chunks it imports (the build names a shared
    // chunk after one of its modules, so the file name alone says nothing).
    const bootSrc = await page.locator('script[type="module"][src*="/boot-"]').getAttribute('src');
    expect(bootSrc).toBeTruthy();
    const bootCode = await (await page.request.get(bootSrc!)).text();
    const bootFiles = [bootSrc!, ...[...bootCode.matchAll(/from\s*"\.\/([\w.-]+\.js)"/g)].map((m) => m[1]!)];
    const fileOf = (url: string) => url.split('/').pop()!;
    for (const request of [...refreshes, ...firstPages]) {
      const files = request.initiator.split(' ').map(fileOf);
      expect(files.length).toBeGreaterThan(0);
      expect(files.every((file) => bootFiles.map(fileOf).includes(file))).toBe(true);
    }
    await expect.poll(() => page.locator('article[data-post-id]').count()).toBe(20);
    // The session works afterwards: a like goes through with the restored token.
    const like = page
      .locator('article[data-post-id]')
      .first()
      .getByRole('button', { name: /^Like,/ });
    const answer = page.waitForResponse((r) => r.url().includes('/api/posts/likePost/'));
    await like.click();
    expect((await answer).status()).toBe(200);
    await page.context().close();
  });
});
