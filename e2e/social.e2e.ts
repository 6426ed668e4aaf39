import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEMO_DISABLED_MESSAGE } from '@cats/contracts';
import { DESKTOP, PHONE, screenshot } from './support/browser.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';
import { DEMO, signedInPage } from './support/api.ts';
import { apiCall, apiCreatePost, apiUser, card, cardIds, type SessionUser } from './support/posts.ts';

/** Issue 5, points 7 and 11: likes, comments, the popup menu, hiding and blocking, in the browser. */
describe('likes, comments, hide and block', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await sharedServerAndBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  async function feedAs(
    user: { email: string; password: string },
    viewport: { width: number; height: number } = DESKTOP,
  ): Promise<Page> {
    const page = await signedInPage(browser, server.url, user, viewport, '/feed');
    await page.locator('article[data-post-id]').first().waitFor();
    return page;
  }

  const likeButton = (page: Page, postId: string) =>
    card(page, postId).getByRole('button', { name: /^Like/ });
  // The count sits beside the heart, as its own button (it opens 'Liked by').
  const likeCount = (page: Page, postId: string) => card(page, postId).locator('.post-like__count');

  it('one user comments and likes, the other sees both after reload', async () => {
    const owner = await apiUser(server.url, 'owner');
    const fan = await apiUser(server.url, 'fan');
    const post = await apiCreatePost(server.url, owner.accessToken, { comment: 'Please admire this cat' });

    const [ownerPage, fanPage] = await Promise.all([feedAs(owner), feedAs(fan, PHONE)]);

    // The fan likes (the count moves at once) and comments.
    const like = likeButton(fanPage, post._id);
    expect(await like.getAttribute('aria-pressed')).toBe('false');
    expect(await likeCount(fanPage, post._id).textContent()).toBe('0');
    await like.click();
    await expect.poll(() => like.getAttribute('aria-pressed')).toBe('true');
    expect(await likeCount(fanPage, post._id).textContent()).toBe('1');

    const fanCard = card(fanPage, post._id);
    await fanCard.getByRole('button', { name: /comments?$/ }).click();
    const panel = fanCard.getByRole('region', { name: 'Comments' });
    await panel.getByText('No comments yet.').waitFor();
    const input = panel.getByLabel('Add a comment');
    expect(await input.getAttribute('required')).not.toBeNull();
    // An empty comment is not sent: the input is required.
    await panel.getByRole('button', { name: 'Post' }).click();
    expect(await input.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
    await input.fill('What a magnificent floof');
    await panel.getByRole('button', { name: 'Post' }).click();
    await panel.getByText('What a magnificent floof').waitFor();
    expect(await input.inputValue()).toBe('');
    await fanCard.getByRole('button', { name: '1 comment' }).waitFor();
    await panel.scrollIntoViewIfNeeded();
    await screenshot(fanPage, 'feed-comments-390');

    // The owner reloads and sees the like and the comment; as post owner they may delete it.
    await ownerPage.reload();
    const ownerCard = card(ownerPage, post._id);
    await ownerCard.waitFor();
    expect(await likeCount(ownerPage, post._id).textContent()).toBe('1');
    expect(await likeButton(ownerPage, post._id).getAttribute('aria-pressed')).toBe('false');
    // The owner's own menu (issue 24) has no Hide post / Block user: those are for others' posts.
    await ownerCard.getByRole('button', { name: 'Post options' }).click();
    const ownMenu = ownerCard.getByRole('menu');
    await ownMenu.getByRole('menuitem', { name: 'Delete' }).waitFor();
    expect(await ownMenu.getByRole('menuitem', { name: 'Hide post' }).count()).toBe(0);
    expect(await ownMenu.getByRole('menuitem', { name: 'Block user' }).count()).toBe(0);
    await ownerPage.keyboard.press('Escape');
    await ownMenu.waitFor({ state: 'detached' });
    await ownerCard.getByRole('button', { name: '1 comment' }).click();
    const ownerPanel = ownerCard.getByRole('region', { name: 'Comments' });
    await ownerPanel.getByText('What a magnificent floof').waitFor();
    await ownerPanel.getByRole('link', { name: fan.username }).waitFor();
    await ownerPanel.getByRole('button', { name: `Delete comment by ${fan.username}` }).click();
    await ownerPanel.getByText('No comments yet.').waitFor();

    // The fan reloads: still liked, and the comment is gone.
    await fanPage.reload();
    await expect.poll(() => likeButton(fanPage, post._id).getAttribute('aria-pressed')).toBe('true');
    await card(fanPage, post._id).getByRole('button', { name: '0 comments' }).waitFor();
    await Promise.all([ownerPage.context().close(), fanPage.context().close()]);
  });

  it('shows HTML in captions and comments as plain text, never as markup', async () => {
    const owner = await apiUser(server.url, 'markup');
    const fan = await apiUser(server.url, 'markupfan');
    const caption = '<b>bold</b> <img src="/nope-caption" onerror="window.__pwned = 1">';
    const comment =
      '<script>window.__pwned = 2</script><img src="/nope-comment" onerror="window.__pwned = 3">';
    const post = await apiCreatePost(server.url, owner.accessToken, { comment: caption });
    await apiCall(server.url, fan.accessToken, `/api/posts/createComment/${post._id}`, {
      method: 'POST',
      body: JSON.stringify({ newComment: comment }),
    });

    const page = await feedAs(owner);
    const ownerCard = card(page, post._id);
    await ownerCard.getByText(caption, { exact: true }).waitFor();
    await ownerCard.getByRole('button', { name: '1 comment' }).click();
    await ownerCard.getByRole('region', { name: 'Comments' }).getByText(comment, { exact: true }).waitFor();
    expect(await ownerCard.locator('b, script, img[src^="/nope"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.context().close();
  });

  it('puts the like back when the server refuses it', async () => {
    const author = await apiUser(server.url, 'likedauthor');
    const post = await apiCreatePost(server.url, author.accessToken, { comment: 'Like me if you can' });
    const viewer = await apiUser(server.url, 'unlucky');
    const page = await feedAs(viewer);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/posts/likePost/**', async (route) => {
      await held;
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Nope"}' });
    });
    const like = likeButton(page, post._id);
    await like.click();
    await expect.poll(() => likeCount(page, post._id).textContent()).toBe('1');
    release();
    await expect.poll(() => likeCount(page, post._id).textContent()).toBe('0');
    expect(await like.getAttribute('aria-pressed')).toBe('false');
    await page.context().close();
  });

  it("hiding removes the card, blocking removes all of that author's cards, and both last", async () => {
    const neighbour = await apiUser(server.url, 'neighbour');
    const first = await apiCreatePost(server.url, neighbour.accessToken, { comment: 'Neighbour cat one' });
    const second = await apiCreatePost(server.url, neighbour.accessToken, { comment: 'Neighbour cat two' });
    const third = await apiCreatePost(server.url, neighbour.accessToken, { comment: 'Neighbour cat three' });
    const other = await apiUser(server.url, 'bystander');
    const unrelated = await apiCreatePost(server.url, other.accessToken, { comment: 'Unrelated cat' });
    const viewer: SessionUser = await apiUser(server.url, 'viewer');
    const page = await feedAs(viewer, PHONE);

    // Hide one post: only that card goes; the menu closes.
    const menuButton = card(page, second._id).getByRole('button', { name: 'Post options' });
    await menuButton.click();
    expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'feed-menu-390');
    await card(page, second._id).getByRole('menuitem', { name: 'Hide post' }).click();
    await card(page, second._id).waitFor({ state: 'detached' });
    expect(await page.getByRole('menu').count()).toBe(0);
    const ids = await cardIds(page);
    expect(ids).toContain(first._id);
    expect(ids).toContain(third._id);

    // The menu closes on a click outside without doing anything.
    await card(page, first._id).getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menu').waitFor();
    await page.mouse.click(5, 300);
    await page.getByRole('menu').waitFor({ state: 'detached' });

    // Block the author: all their cards go, others stay.
    await card(page, first._id).getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'Block user' }).click();
    // Blocking asks first (issue 24).
    await page
      .getByRole('alertdialog', { name: `Block ${neighbour.username}?` })
      .getByRole('button', { name: 'Block' })
      .click();
    await card(page, first._id).waitFor({ state: 'detached' });
    await card(page, third._id).waitFor({ state: 'detached' });
    expect(await page.getByRole('menu').count()).toBe(0);
    expect(await cardIds(page)).toContain(unrelated._id);

    await page.reload();
    await card(page, unrelated._id).waitFor();
    const after = await cardIds(page);
    for (const gone of [first, second, third]) expect(after).not.toContain(gone._id);
    await page.context().close();
  });

  it('shows the demo modal when the demo user hides, blocks or comments', async () => {
    const author = await apiUser(server.url, 'demoseen');
    const post = await apiCreatePost(server.url, author.accessToken, { comment: 'Seen by the demo user' });
    const page = await feedAs(DEMO);
    const demoCard = card(page, post._id);
    await demoCard.getByRole('link', { name: 'Anonymised for demo' }).waitFor();

    await demoCard.getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'Hide post' }).click();
    const modal = page.getByRole('alertdialog', { name: DEMO_DISABLED_MESSAGE });
    await modal.waitFor();
    await modal.getByRole('button', { name: 'OK' }).click();
    await modal.waitFor({ state: 'hidden' });
    await demoCard.waitFor();

    await demoCard.getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'Block user' }).click();
    await page
      .getByRole('alertdialog', { name: /^Block / })
      .getByRole('button', { name: 'Block' })
      .click();
    await modal.waitFor();
    await modal.getByRole('button', { name: 'OK' }).click();
    await modal.waitFor({ state: 'hidden' });

    await demoCard.getByRole('button', { name: /comments?$/ }).click();
    const panel = demoCard.getByRole('region', { name: 'Comments' });
    await panel.getByLabel('Add a comment').fill('Demo says hi');
    await panel.getByRole('button', { name: 'Post' }).click();
    await modal.waitFor();
    await modal.getByRole('button', { name: 'OK' }).click();
    expect(await panel.getByText('Demo says hi', { exact: true }).count()).toBe(0);
    await page.context().close();
  });
});
