import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  ANONYMISED_USERNAME,
  DEMO_DISABLED_MESSAGE,
  GROUP_MESSAGES,
  type GroupMapResponse,
  type Post,
} from '@cats/contracts';
import { DESKTOP, PHONE, screenshot } from './support/browser.ts';
import { ROOT } from './support/server.ts';
import { DEMO } from './support/api.ts';
import { peopleInBrowsers } from './support/suite.ts';
import { apiCall, apiUser, card, fixture, type SessionUser } from './support/posts.ts';

/** Issue 7, point 10: two people, two browsers: create, request, accept, share, see it on the map. */
describe('groups', () => {
  const suite = peopleInBrowsers();
  const { signedIn, modalText } = suite;

  /** A whole-page screenshot beside the viewport ones, for a person to look at. */
  async function fullPage(page: Page, name: string) {
    await page.screenshot({ path: join(ROOT, 'screenshots', `${name}.png`), fullPage: true });
  }

  /** Uploads a located picture as the Spot screen does, shared with the given groups. */
  async function uploadShared(
    user: SessionUser,
    groupIds: string[],
    at: { latitude: number; longitude: number },
  ) {
    const form = new FormData();
    form.append('comment', 'Ginger on the garden wall');
    form.append('catName', 'Marmalade');
    form.append('latitude', String(at.latitude));
    form.append('longitude', String(at.longitude));
    // Location on: the group sees the exact spot, everyone else the ~500 m cell (a switched-off
    // location would show no one, the group included: issue 23).
    form.append('showLocation', 'true');
    form.append('groupIds', JSON.stringify(groupIds));
    form.append(
      'file',
      new Blob([new Uint8Array(fixture('photo-no-gps.jpg'))], { type: 'image/jpeg' }),
      'cat.jpg',
    );
    const res = await fetch(`${suite.server.url}/api/posts/createPost`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.accessToken}` },
      body: form,
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { post: Post }).post;
  }

  it('A creates a group, B asks to join, A accepts, B shares a picture, A sees it on the map', async () => {
    const a = await apiUser(suite.server.url, 'gowner');
    const b = await apiUser(suite.server.url, 'gmember');
    const [pageA, pageB] = await Promise.all([signedIn(a, DESKTOP), signedIn(b, PHONE)]);

    // A: the Groups screen as the spec describes it, then a new group.
    await pageA.goto('/groups');
    await pageA.getByRole('heading', { name: 'Join or create a group', level: 1 }).waitFor();
    await pageA.getByText('Every member of a group can see the exact location').waitFor();
    expect(await pageA.getByText('Not yet functional').count()).toBe(0);
    const codeInput = pageA.getByLabel('Group code');
    expect(await codeInput.getAttribute('placeholder')).toBe('London#1234');
    expect(await codeInput.getAttribute('required')).not.toBeNull();
    const nameInput = pageA.getByLabel('Group name');
    expect(await nameInput.getAttribute('required')).not.toBeNull();
    await pageA.getByText('(Max 20 characters)').waitFor();
    // Required: an empty name is not sent.
    await pageA.getByRole('button', { name: 'Create group' }).click();
    expect(await nameInput.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);

    await nameInput.fill('Garden Cats');
    await pageA.getByRole('button', { name: 'Create group' }).click();
    // Creating opens the new group's page, where the result modal tells the code (issue 28).
    await pageA.waitForURL(/\/groups\/[0-9a-f-]{36}$/);
    const created = await modalText(pageA);
    const code = /GardenCats-[0-9A-Z]{4}-[0-9A-Z]{4}/.exec(created)?.[0];
    expect(code, created).toMatch(/^GardenCats-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    const groupId = new URL(pageA.url()).pathname.split('/').pop()!;
    await pageA.getByRole('heading', { name: 'Garden Cats', level: 1 }).waitFor();
    await pageA.getByRole('link', { name: '← All groups' }).click();
    const ownedLink = pageA.getByRole('link', { name: /Garden Cats\s*Owner/ });
    await ownedLink.waitFor();
    expect(await ownedLink.getAttribute('href')).toBe(`/groups/${groupId}`);
    await screenshot(pageA, 'groups-1280');
    await fullPage(pageA, 'groups-1280-full');

    // B: an unknown code shows the server's message; the right code sends a request.
    await pageB.goto('/groups');
    await pageB.getByLabel('Group code').fill('Nowhere#0000');
    await pageB.getByRole('button', { name: 'Request to join group' }).click();
    expect(await modalText(pageB)).toBe(GROUP_MESSAGES.codeNotFound);
    await pageB.getByLabel('Group code').fill(code!);
    await pageB.getByRole('button', { name: 'Request to join group' }).click();
    expect(await modalText(pageB)).toBe(GROUP_MESSAGES.requestSent);
    expect(await pageB.getByLabel('Group code').inputValue()).toBe('');
    await pageB.getByLabel('Group code').fill(code!);
    await pageB.getByRole('button', { name: 'Request to join group' }).click();
    expect(await modalText(pageB)).toBe(GROUP_MESSAGES.alreadyRequested);
    await screenshot(pageB, 'groups-390');
    await fullPage(pageB, 'groups-390-full');

    // A: the group page lists B's request; Accept makes B a member.
    await ownedLink.click();
    await pageA.waitForURL(`**/groups/${groupId}`);
    await pageA.getByRole('heading', { name: 'Garden Cats', level: 1 }).waitFor();
    await pageA.getByRole('code').getByText(code!, { exact: true }).waitFor();
    const requests = pageA.getByRole('region', { name: /Pending requests/ });
    await requests.getByText(b.username).waitFor();
    await screenshot(pageA, 'group-requests-1280');
    await pageA.setViewportSize(PHONE);
    await fullPage(pageA, 'group-requests-390-full');
    await pageA.setViewportSize(DESKTOP);
    await requests.getByRole('button', { name: `Accept ${b.username}` }).click();
    await requests.getByText('No one is waiting to join.').waitFor();
    const members = pageA.getByRole('region', { name: /Members/ });
    await members.getByText(b.username).waitFor();
    await members.getByRole('button', { name: `Remove ${b.username}` }).waitFor();

    // B now sees the group tagged Member, and shares a located picture with it.
    await pageB.reload();
    await pageB.getByRole('link', { name: /Garden Cats\s*Member/ }).waitFor();
    const exact = { latitude: 36.721_987_3, longitude: -4.420_345_9 };
    const post = await uploadShared(b, [groupId], exact);
    expect(post.groupIds).toEqual([groupId]);

    // A: the picture is in the group's feed, and on its map at the exact place.
    await pageA.reload();
    await card(pageA, post._id).waitFor();
    await card(pageA, post._id).getByText('Ginger on the garden wall').waitFor();
    const map = await apiCall<GroupMapResponse>(
      suite.server.url,
      a.accessToken,
      `/api/groups/${groupId}/map`,
    );
    expect(map.posts.map((p) => [p._id, p.latitude, p.longitude, p.locationPrecision])).toEqual([
      [post._id, exact.latitude, exact.longitude, 'exact'],
    ]);
    await screenshot(pageA, 'group-1280');
    await fullPage(pageA, 'group-1280-full');
    await pageA.getByRole('button', { name: 'Map', exact: true }).click();
    const marker = pageA.locator('.groups-map__marker');
    await marker.first().waitFor();
    expect(await marker.count()).toBe(1);
    expect(await marker.locator('img').getAttribute('src')).toBe(post.image.variants['64']);
    await screenshot(pageA, 'group-map-1280');
    await marker.first().click();
    const detail = pageA.getByRole('dialog', { name: 'Picture on the map' });
    await detail.locator(`article[data-post-id="${post._id}"]`).waitFor();
    await detail.getByRole('button', { name: '← Back to the map' }).click();
    await detail.waitFor({ state: 'detached' });

    // B, on a phone: the group page as a member (no requests, no remove buttons), then leaves.
    await pageB.getByRole('link', { name: /Garden Cats\s*Member/ }).click();
    await pageB.getByRole('heading', { name: 'Garden Cats', level: 1 }).waitFor();
    await card(pageB, post._id).waitFor();
    expect(await pageB.getByRole('region', { name: /Pending requests/ }).count()).toBe(0);
    expect(await pageB.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    expect(await pageB.getByRole('button', { name: 'New code' }).count()).toBe(0);
    await screenshot(pageB, 'group-390');
    await fullPage(pageB, 'group-390-full');
    await pageB.getByRole('button', { name: 'Map', exact: true }).click();
    await pageB.locator('.groups-map__marker').first().waitFor();
    await screenshot(pageB, 'group-map-390');

    // The owner regenerates the code: the old one stops working.
    await pageA.getByRole('button', { name: 'New code' }).click();
    await pageA
      .getByRole('dialog', { name: 'Create a new code?' })
      .getByRole('button', { name: 'Create new code' })
      .click();
    expect(await modalText(pageA)).toBe(GROUP_MESSAGES.codeRegenerated);
    await expect
      .poll(async () => pageA.locator('.groups-code__value').textContent(), { timeout: 30_000 })
      .not.toBe(code);

    await pageB.getByRole('button', { name: 'Leave group' }).click();
    await pageB
      .getByRole('dialog', { name: /^Leave Garden Cats/ })
      .getByRole('button', { name: 'Leave group' })
      .click();
    await pageB.waitForURL('**/groups');
    await pageB.getByText('You are not in any group yet.').waitFor();

    // The owner deletes the group after confirming.
    await pageA.reload();
    await pageA.getByRole('region', { name: /Members/ }).waitFor();
    expect(
      await pageA
        .getByRole('region', { name: /Members/ })
        .getByText(b.username)
        .count(),
    ).toBe(0);
    await pageA.getByRole('button', { name: 'Delete group' }).click();
    await pageA
      .getByRole('dialog', { name: /^Delete Garden Cats/ })
      .getByRole('button', { name: 'Delete group' })
      .click();
    await pageA.waitForURL('**/groups');
    await pageA.getByText('You are not in any group yet.').waitFor();
  }, 240_000);

  it('the demo user can look at groups but gets the demo modal on writes', async () => {
    const page = await signedIn(DEMO, PHONE, '/groups');
    await page.getByRole('heading', { name: 'Manage your groups' }).waitFor();
    await page.getByLabel('Group name').fill('Demo Cats');
    await page.getByRole('button', { name: 'Create group' }).click();
    expect(await modalText(page)).toBe(DEMO_DISABLED_MESSAGE);
    await page.getByLabel('Group code').fill('Anything#1234');
    await page.getByRole('button', { name: 'Request to join group' }).click();
    expect(await modalText(page)).toBe(DEMO_DISABLED_MESSAGE);

    // The seeded sample group shows what a group looks like, members anonymised for the demo.
    await page.getByRole('link', { name: /Calle Luna Cats\s*Member/ }).click();
    await page.getByRole('heading', { name: 'Calle Luna Cats', level: 1 }).waitFor();
    await page.locator('article[data-post-id]').first().waitFor();
    expect(await page.getByText(ANONYMISED_USERNAME).count()).toBeGreaterThan(0);
    // No join code for the shared account (issue 23), and a word on why locations are approximate.
    expect(await page.locator('.groups-code__value').count()).toBe(0);
    await page.getByText('the join code is not shown').waitFor();
    await screenshot(page, 'groups-demo-390');
    await page.getByRole('button', { name: 'Leave group' }).click();
    await page
      .getByRole('dialog', { name: /^Leave Calle Luna Cats/ })
      .getByRole('button', { name: 'Leave group' })
      .click();
    expect(await modalText(page)).toBe(DEMO_DISABLED_MESSAGE);
    await page.goto('/groups');
    await page.getByRole('link', { name: /Calle Luna Cats\s*Member/ }).waitFor();
  });

  it('a group page for a non-member or a malformed id says the group was not found', async () => {
    const c = await apiUser(suite.server.url, 'gstranger');
    const page = await signedIn(c, PHONE);
    for (const id of ['3f1c2b9a-1111-4222-8333-444455556666', 'not-an-id']) {
      await page.goto(`/groups/${id}`);
      await page.getByRole('heading', { name: 'Group not found' }).waitFor();
    }
  });
});
