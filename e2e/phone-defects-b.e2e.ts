import { describe, expect, it } from 'vitest';
import {
  GROUP_MESSAGES,
  type CreateGroupResponse,
  type GroupDetail,
  type NotificationsResponse,
  type UserProfileResponse,
} from '@cats/contracts';
import { DESKTOP, PHONE, screenshot } from './support/browser.ts';
import { loginThroughUi } from './support/api.ts';
import { peopleInBrowsers } from './support/suite.ts';
import { apiCall, apiCreatePost, apiUser, card, type SessionUser } from './support/posts.ts';

/** Issue 28, points 6 to 8: another user's profile on a phone, pending join requests, the home page. */
describe('phone defects 6-8', () => {
  const suite = peopleInBrowsers();
  const { signedIn, modalText } = suite;

  const joinRequestEntries = async (owner: SessionUser) =>
    (
      await apiCall<NotificationsResponse>(suite.server.url, owner.accessToken, '/api/notifications')
    ).notifications.filter((n) => n.type === 'join_request');

  it("6: another user's profile starts with a compact header on a phone; its cards open comments", async () => {
    const author = await apiUser(suite.server.url, 'pdbauthor');
    const viewer = await apiUser(suite.server.url, 'pdbviewer');
    const hidden = await apiCreatePost(suite.server.url, author.accessToken, {
      comment: 'Asleep on the bins',
    });
    await apiCreatePost(suite.server.url, author.accessToken, { comment: 'Tabby by the gate' });
    const latest = await apiCreatePost(suite.server.url, author.accessToken, {
      comment: 'Stripes in the sun',
    });
    await apiCall(suite.server.url, viewer.accessToken, `/api/posts/createComment/${latest._id}`, {
      method: 'POST',
      body: JSON.stringify({ newComment: 'Lovely stripes' }),
    });
    // The viewer hid one: neither listed nor counted for them.
    await apiCall(suite.server.url, viewer.accessToken, `/api/posts/hidePost/${hidden._id}`, {
      method: 'PUT',
      body: JSON.stringify({}),
    });
    const profile = await apiCall<UserProfileResponse>(
      suite.server.url,
      viewer.accessToken,
      `/api/profile/getUserProfile/${author.userId}`,
    );
    expect(profile.postCount).toBe(2);
    const month = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric' }).format(
      new Date(profile.memberSince!),
    );

    const page = await signedIn(viewer, PHONE, `/profile/${author.userId}`);
    const head = page.getByRole('region', { name: 'Profile' });
    await head.getByRole('heading', { level: 1, name: author.username }).waitFor();
    await head.getByText('2 pictures', { exact: true }).waitFor();
    await head.getByText(`Member since ${month}`, { exact: true }).waitFor();
    const placeholder = head.getByRole('img', { name: 'No profile picture' });
    expect((await placeholder.boundingBox())!.height).toBeLessThanOrEqual(100);
    await head.getByRole('button', { name: 'Block' }).waitFor();
    await head.getByRole('button', { name: 'Report' }).waitFor();

    // The pictures start on the first screen: the newest card's top is in its upper half.
    const first = card(page, latest._id);
    await first.waitFor();
    expect((await first.boundingBox())!.y).toBeLessThan(PHONE.height / 2);
    expect(await page.locator('article[data-post-id]').count()).toBe(2);
    expect(await card(page, hidden._id).count()).toBe(0);
    await screenshot(page, 'phone-defects-b-profile-390');

    // Comments as on the feed's cards.
    await first.getByRole('button', { name: '1 comment' }).click();
    await first.getByText('Lovely stripes').waitFor();
    await screenshot(page, 'phone-defects-b-profile-comments-390');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'phone-defects-b-profile-1280');
    await page.setViewportSize(PHONE);

    // Report opens the existing dialog about the person; Cancel leaves it.
    await head.getByRole('button', { name: 'Report' }).click();
    const report = page.getByRole('dialog', { name: `Report ${author.username}` });
    await report.waitFor();
    await report.getByRole('button', { name: 'Cancel' }).click();
    await report.waitFor({ state: 'hidden' });

    // Block asks first, then the profile says so; the server answers 404 from then on.
    await head.getByRole('button', { name: 'Block' }).click();
    const confirm = page.getByRole('alertdialog', { name: `Block ${author.username}?` });
    await confirm.getByRole('button', { name: 'Block', exact: true }).click();
    // The profile says so (the toast with Undo says it too).
    await head.getByText(`You blocked ${author.username}.`, { exact: true }).waitFor();
    const res = await fetch(`${suite.server.url}/api/profile/getUserProfile/${author.userId}`, {
      headers: { authorization: `Bearer ${viewer.accessToken}` },
    });
    expect(res.status).toBe(404);
  }, 180_000);

  it('7: a pending join request is listed on /groups and can be cancelled; creating a group opens it', async () => {
    const owner = await apiUser(suite.server.url, 'pdbowner');
    const asker = await apiUser(suite.server.url, 'pdbasker');
    const { group } = await apiCall<CreateGroupResponse>(
      suite.server.url,
      owner.accessToken,
      '/api/groups/createGroup',
      { method: 'POST', body: JSON.stringify({ submitData: 'Corner Cats' }) },
    );

    const page = await signedIn(asker, PHONE, '/groups');
    await page.getByRole('heading', { name: 'Manage your groups' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Your requests to join' }).count()).toBe(0);
    await page.getByLabel('Group code').fill(group.code);
    await page.getByRole('button', { name: 'Request to join group' }).click();
    expect(await modalText(page)).toBe(GROUP_MESSAGES.requestSent);
    const pending = page.getByRole('region', { name: 'Your requests to join' });
    await pending.getByText('Corner Cats', { exact: true }).waitFor();
    const cancel = pending.getByRole('button', { name: 'Cancel request to join Corner Cats' });
    expect(await cancel.textContent()).toBe('Cancel request');
    expect(await joinRequestEntries(owner)).toHaveLength(1);
    await pending.scrollIntoViewIfNeeded();
    await screenshot(page, 'phone-defects-b-groups-pending-390');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'phone-defects-b-groups-pending-1280');
    await page.setViewportSize(PHONE);

    // Cancelling removes the request and the owner's notification about it.
    await cancel.click();
    expect(await modalText(page)).toBe(GROUP_MESSAGES.requestCancelled);
    await pending.waitFor({ state: 'detached' });
    expect(await joinRequestEntries(owner)).toEqual([]);
    const detail = await apiCall<GroupDetail>(
      suite.server.url,
      owner.accessToken,
      `/api/groups/${group._id}`,
    );
    expect(detail.pendingRequests).toEqual([]);

    // Creating a group opens its page, where the result modal tells the code; a reload shows no modal.
    await page.getByLabel('Group name').fill('Night Owls');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.waitForURL(/\/groups\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1, name: 'Night Owls' }).waitFor();
    const dialog = page.locator('dialog[open]');
    await dialog.getByText(/^Group Night Owls created\. Share the code NightOwls-/).waitFor();
    await screenshot(page, 'phone-defects-b-group-created-390');
    expect(await modalText(page)).toMatch(/^Group Night Owls created/);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Night Owls' }).waitFor();
    await page.getByRole('region', { name: /Members/ }).waitFor();
    expect(await page.locator('dialog[open]').count()).toBe(0);
  }, 180_000);

  it('8: logging in lands on the feed, / sends members there, and About links to the landing', async () => {
    const user = await apiUser(suite.server.url, 'pdbhome');
    const page = await suite.page(PHONE);

    // A visitor sees the landing at / and at /welcome.
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Neighbourhood Cats' }).waitFor();
    await page.goto('/welcome');
    await page.getByRole('link', { name: 'Create an account' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/welcome');

    // Logging in without a remembered destination lands on the feed, not the marketing page.
    await loginThroughUi(page, user.email, user.password, { remember: true });
    await page.waitForURL((url) => url.pathname === '/feed');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Feed' }).waitFor();
    // The brand link (to /) opens the feed too, and so does typing / (the session restored).
    await page.locator('.topbar__brand').click();
    await page.waitForURL((url) => url.pathname === '/feed');
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/feed');
    await page.locator('article[data-post-id]').first().waitFor();

    // About links to the landing page, shown to members too.
    await page.goto('/about');
    await page.getByRole('heading', { level: 1, name: 'About Neighbourhood Cats' }).waitFor();
    await screenshot(page, 'phone-defects-b-about-390');
    await page.getByRole('link', { name: 'See the welcome page' }).click();
    await page.waitForURL((url) => url.pathname === '/welcome');
    await page.getByRole('heading', { level: 1, name: 'Neighbourhood Cats' }).waitFor();
    await page.getByRole('link', { name: 'Open your feed' }).waitFor();
    await screenshot(page, 'phone-defects-b-welcome-390');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'phone-defects-b-welcome-1280');

    // Logout still lands on the landing page at /, not on the feed or the login form.
    await page.getByRole('button', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('link', { name: 'Log in as demo user' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByRole('heading', { level: 1, name: 'Neighbourhood Cats' }).waitFor();
    await screenshot(page, 'phone-defects-b-after-logout-1280');
  }, 180_000);
});
