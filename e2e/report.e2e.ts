import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MODERATION_MESSAGES } from '@cats/contracts';
import { animationsSettled, DESKTOP, PHONE } from './support/browser.ts';
import type { RunningServer } from './support/server.ts';
import { sharedServerAndBrowser } from './support/shared.ts';
import { signedInPage } from './support/api.ts';
import { apiCreatePost, apiUser, card, cardIds } from './support/posts.ts';

/** Issue 27, "Reporting": a report from a card's menu, with a note, in the browser. */
describe('reporting a picture', () => {
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

  it('the reporter stops seeing the picture at once; another neighbour still sees it', async () => {
    const author = await apiUser(server.url, 'author');
    const reported = await apiCreatePost(server.url, author.accessToken, { comment: 'Buy my cat food' });
    const kept = await apiCreatePost(server.url, author.accessToken, { comment: 'A cat in the sun' });
    const reporter = await apiUser(server.url, 'reporter');
    const bystander = await apiUser(server.url, 'bystander');
    const page = await feedAs(reporter, PHONE);

    await card(page, reported._id).getByRole('button', { name: 'Post options' }).click();
    await card(page, reported._id).getByRole('menuitem', { name: 'Report' }).click();
    const dialog = page.getByRole('dialog', { name: 'Report this picture' });
    await dialog.waitFor();
    // Nothing is sent without a reason.
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog.getByRole('alert').getByText(MODERATION_MESSAGES.reasonInvalid).waitFor();
    await dialog.getByRole('radio', { name: 'Spam' }).check();
    await dialog
      .getByLabel('Anything the moderators should know (optional)')
      .fill('Advertising, not a neighbour');
    expect(await dialog.getByText('28 / 1000').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Send report' }).click();

    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('status').getByText(MODERATION_MESSAGES.reported).waitFor();
    await card(page, reported._id).waitFor({ state: 'detached' });
    expect(await cardIds(page)).toContain(kept._id);
    // Still gone after a reload (the server hid it for the reporter), and its page is not there.
    await page.reload();
    await card(page, kept._id).waitFor();
    expect(await cardIds(page)).not.toContain(reported._id);

    const other = await feedAs(bystander);
    await card(other, reported._id).waitFor();
    expect(await cardIds(other)).toContain(kept._id);
    await other.context().close();
    await page.context().close();
  });

  it('reports a comment: it leaves the reporter’s list, and asking to block takes the author away', async () => {
    const author = await apiUser(server.url, 'gardener');
    const post = await apiCreatePost(server.url, author.accessToken, { comment: 'Our garden cat' });
    const troll = await apiUser(server.url, 'troll');
    const trollPost = await apiCreatePost(server.url, troll.accessToken, { comment: 'Troll cat' });
    const res = await fetch(`${server.url}/api/posts/createComment/${post._id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${troll.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ newComment: 'Nasty words' }),
    });
    expect(res.status).toBe(200);
    const reporter = await apiUser(server.url, 'flagger');
    const page = await feedAs(reporter, DESKTOP);
    const postCard = card(page, post._id);
    await postCard.getByRole('button', { name: /comments?$/ }).click();
    const panel = postCard.getByRole('region', { name: 'Comments' });
    await panel.getByText('Nasty words').waitFor();
    await panel.getByRole('button', { name: `Report comment by ${troll.username}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Report this comment' });
    await dialog.getByRole('radio', { name: 'Harassment or hate' }).check();
    await dialog.getByRole('checkbox', { name: `Also block ${troll.username}` }).check();
    await animationsSettled(dialog);
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog.waitFor({ state: 'detached' });
    await panel.getByText('Nasty words').waitFor({ state: 'detached' });
    await card(page, trollPost._id).waitFor({ state: 'detached' });
    expect(await cardIds(page)).toContain(post._id);
    await page.context().close();
  });
});
