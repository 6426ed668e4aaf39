import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { APPEAL_MESSAGES } from '@cats/contracts';
import { DESKTOP, newContext, PHONE, screenshot } from './support/browser.ts';
import { axeOn } from './support/screens.ts';
import { serverAndBrowser } from './support/suite.ts';
import { apiLogin, signedInPage } from './support/api.ts';
import { apiCall, apiCreatePost, apiUser, card, type SessionUser } from './support/posts.ts';

/** The seeded sample admin (apps/server/src/seed/sample-content.ts), who makes moderators. */
const ADMIN = { email: 'whiskers@example.com', password: 'Neighbour1Cats' };

/**
 * Issue 27, the author's side, in the browser: a removal with a rule and an explanation, the statement
 * of reasons it gives the author, the appeal, and another moderator undoing the decision.
 */
describe('moderation decisions and appeals', () => {
  const suite = serverAndBrowser();

  async function axeViolations(page: Page): Promise<string[]> {
    const result = await axeOn(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  }

  async function makeModerator(user: SessionUser) {
    const admin = await apiLogin(suite.server.url, ADMIN.email, ADMIN.password);
    await apiCall(suite.server.url, admin.accessToken, `/api/moderation/staff/${user.userId}`, {
      method: 'PUT',
      body: JSON.stringify({ role: 'moderator' }),
    });
  }

  const appealCard = (page: Page, username: string) =>
    page.getByRole('article', { name: `Appeal by ${username}` });

  it('a removal is explained to the author, who appeals; another moderator undoes it', async () => {
    const url = suite.server.url;
    const [author, reporter, mod, mod2] = await Promise.all([
      apiUser(url, 'author'),
      apiUser(url, 'reporter'),
      apiUser(url, 'mod'),
      apiUser(url, 'modtwo'),
    ]);
    await makeModerator(mod);
    await makeModerator(mod2);
    const post = await apiCreatePost(url, author.accessToken, { comment: 'Luna by our front door' });
    await apiCall(url, reporter.accessToken, '/api/reports', {
      method: 'POST',
      body: JSON.stringify({ targetType: 'post', targetId: post._id, reason: 'private_information' }),
    });

    // The first moderator removes it, with the rule and an explanation.
    const modPage = await signedInPage(suite.browser, url, mod, DESKTOP, '/moderation');
    const queued = modPage.getByRole('article', { name: `Post by ${author.username}` });
    // The reported picture comes through the moderators' route with the token (issue 46), as a blob
    // URL the browser decoded: an <img> pointing at the route itself could not send the token.
    const reported = queued.locator('img.queue-card__picture');
    await expect
      .poll(() => reported.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
      .toBeGreaterThan(0);
    expect(await reported.getAttribute('src')).toMatch(/^blob:/);
    await queued.getByRole('checkbox', { name: 'Remove' }).check();
    await queued
      .getByRole('group', { name: 'Rule broken' })
      .getByRole('radio', { name: "Shows someone's home or private information" })
      .check();
    await queued
      .getByLabel('Explanation for the person affected')
      .fill('The house number is readable in the picture.');
    await queued.getByRole('button', { name: 'Apply' }).click();
    await modPage.getByRole('status').getByText('Your decision was applied.').waitFor();

    // The author no longer sees the picture in the feed, and is told.
    const authorPage = await signedInPage(suite.browser, url, author, PHONE, '/feed');
    await authorPage.locator('article[data-post-id]').first().waitFor();
    expect(await card(authorPage, post._id).count()).toBe(0);
    await authorPage.goto('/notifications');
    const notice = authorPage
      .getByRole('list', { name: 'Notifications' })
      .getByRole('link', { name: /A moderator removed your picture/ });
    expect(await notice.getAttribute('href')).toMatch(/^\/settings\/moderation#decision-[0-9a-f-]{36}$/);
    await notice.click();
    await authorPage.waitForURL(/\/settings\/moderation#decision-/);

    // The statement of reasons the notification led to, outlined.
    const statement = authorPage.getByRole('article', { name: 'A moderator removed your picture.' });
    await statement.waitFor();
    expect(await statement.getAttribute('class')).toContain('statement--highlighted');
    await statement.getByText("Rule: Shows someone's home or private information").waitFor();
    await statement.getByText('Why: The house number is readable in the picture.').waitFor();
    await statement.getByText('Luna by our front door').waitFor();
    await statement.getByText(/^You can appeal until \d+ \w+ \d{4}\.$/).waitFor();

    await statement.getByRole('button', { name: 'Appeal' }).click();
    await statement
      .getByLabel('Why should this decision change?')
      .fill('That door is the vet on our street, not anyone’s home.');
    await statement.getByRole('button', { name: 'Send appeal' }).click();
    await statement.getByText(APPEAL_MESSAGES.sent).waitFor();
    await statement.getByText(/^You appealed on \d+ \w+ \d{4}\. Waiting for a moderator\.$/).waitFor();
    expect(await statement.getByRole('button', { name: 'Appeal' }).count()).toBe(0);
    expect(await axeViolations(authorPage)).toEqual([]);
    await screenshot(authorPage, 'statements-390');
    await authorPage.setViewportSize(DESKTOP);
    await screenshot(authorPage, 'statements-1280');

    // The moderator who decided may not answer: another one exists.
    await modPage.reload();
    const own = appealCard(modPage, author.username);
    await own.getByText('You took this decision.').waitFor();
    await own.getByRole('button', { name: 'Undo the decision' }).click();
    await own.getByRole('alert').getByText(APPEAL_MESSAGES.sameModerator).waitFor();

    // The second moderator undoes it.
    const mod2Page = await signedInPage(suite.browser, url, mod2, DESKTOP, '/moderation');
    const appeal = appealCard(mod2Page, author.username);
    await appeal.getByText('That door is the vet on our street, not anyone’s home.').waitFor();
    await appeal.getByText(`by ${mod.username}`, { exact: false }).waitFor();
    expect(await appeal.getByText('You took this decision.').count()).toBe(0);
    expect(await axeViolations(mod2Page)).toEqual([]);
    await appeal.scrollIntoViewIfNeeded();
    await screenshot(mod2Page, 'appeals-1280');
    await mod2Page.setViewportSize(PHONE);
    await appeal.scrollIntoViewIfNeeded();
    await screenshot(mod2Page, 'appeals-390');
    await mod2Page.setViewportSize(DESKTOP);
    await appeal.getByLabel('Explanation for the person who appealed').fill('The vet confirmed it.');
    await appeal.getByRole('button', { name: 'Undo the decision' }).click();
    await mod2Page
      .getByRole('status')
      .getByText(`The decision is undone and ${author.username} is told.`)
      .waitFor();
    await appeal.waitFor({ state: 'detached' });
    // The audit log shows the removal as undone, and the restore beside it.
    const log = mod2Page.getByRole('region', { name: 'Audit log' });
    await log.getByRole('button', { name: 'Show the audit log' }).click();
    const removal = log.getByRole('listitem').filter({ hasText: `${mod.username} · Removed` });
    await removal.getByText('undone', { exact: true }).waitFor();
    expect(await removal.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    await log
      .getByRole('listitem')
      .filter({ hasText: `${mod2.username} · Restored` })
      .first()
      .waitFor();

    // The picture is back, and the statement says the appeal was accepted.
    await authorPage.goto('/feed');
    await card(authorPage, post._id).waitFor();
    await authorPage.goto('/settings/moderation');
    const after = authorPage.getByRole('article', { name: 'A moderator removed your picture.' });
    await after.getByText('Your appeal was accepted: the decision is undone.').waitFor();
    await after.getByText('Undone', { exact: true }).waitFor();

    // The reporter finds, from Settings, what came of the report.
    const reporterPage = await signedInPage(suite.browser, url, reporter, DESKTOP, '/profile/settings');
    await reporterPage.getByRole('link', { name: 'Open moderation decisions' }).click();
    await reporterPage.getByRole('heading', { level: 1, name: 'Moderation decisions' }).waitFor();
    const reports = reporterPage.getByRole('region', { name: 'Your reports' });
    await reports.getByText('We removed the post you reported.').waitFor();
    await reports.getByText("Shows someone's home or private information", { exact: false }).waitFor();

    for (const page of [modPage, mod2Page, authorPage, reporterPage]) await page.context().close();
  });

  it('a suspended person, who cannot sign in, reads why on the login page and appeals', async () => {
    const url = suite.server.url;
    const [person, reporter, mod] = await Promise.all([
      apiUser(url, 'suspended'),
      apiUser(url, 'witness'),
      apiUser(url, 'modthree'),
    ]);
    await makeModerator(mod);
    await apiCall(url, reporter.accessToken, '/api/reports', {
      method: 'POST',
      body: JSON.stringify({ targetType: 'user', targetId: person.userId, reason: 'harassment' }),
    });
    const queue = await apiCall<{ groups: { reportId: string; targetId: string }[] }>(
      url,
      mod.accessToken,
      '/api/moderation/reports',
    );
    const reportId = queue.groups.find((g) => g.targetId === person.userId)!.reportId;
    await apiCall(url, mod.accessToken, `/api/moderation/reports/${reportId}/actions`, {
      method: 'POST',
      body: JSON.stringify({
        actions: [
          { action: 'suspend', rule: 'harassment', explanation: 'Threats in comments.', suspendDays: 7 },
        ],
      }),
    });

    const page = await (await newContext(suite.browser, url, PHONE)).newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText(/^Your account is suspended until /).waitFor();
    await page.getByRole('button', { name: 'Read why and appeal' }).click();
    const why = page.getByRole('region', { name: 'Why your account is suspended' });
    await why.getByText('Why: Threats in comments.').waitFor();
    await why.getByText('Rule: Harassment or hate').waitFor();
    await why.getByLabel('Your appeal').fill('I was quoting what was said to me.');
    await why.getByRole('button', { name: 'Send appeal' }).click();
    await why.getByText(APPEAL_MESSAGES.sent).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'login-suspended-390');
    expect(page.url()).toMatch(/\/login$/);
    await page.context().close();
  });
});
