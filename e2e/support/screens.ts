import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import type { CreateCatResponse, CreateGroupResponse, Post } from '@cats/contracts';
import { apiCall, apiCreatePost, apiUser, type SessionUser } from './posts.ts';

/**
 * What the accessibility sweeps (a11y.e2e.ts) and the dark-mode checks (dark-mode.e2e.ts) share: the
 * people, post, cat, group and notification that give every screen something to show, the axe run
 * and the palette's background colour.
 */

/** WCAG 2.0-2.2 A and AA, plus axe's best practices (landmarks, headings, regions). */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** styles/global.css: --color-bg in each scheme, as getComputedStyle reports it. */
export const LIGHT_BG = 'rgb(251, 247, 242)';
export const DARK_BG = 'rgb(22, 20, 31)';

export const rootBackground = (page: Page): Promise<string> =>
  page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

/**
 * An axe run on the page. A page without frames is checked by one axe.run() in the page (legacy mode):
 * the same rules and the same results as the default's runPartial() plus finishRun(), whose finishRun
 * opens a new blank page and injects axe into it again on every run, half of each run's time here. A
 * page with frames keeps the default, which also reaches into cross-origin frames.
 */
export function axeOn(page: Page): AxeBuilder {
  const builder = new AxeBuilder({ page });
  return page.frames().length === 1 ? builder.setLegacyMode() : builder;
}

/** axe's findings on the page as it is, one readable entry per rule (up to five elements each). */
export async function axeViolations(page: Page): Promise<string[]> {
  const result = await axeOn(page).withTags(AXE_TAGS).analyze();
  return result.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n` +
      v.nodes
        .slice(0, 5)
        .map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ').trim()}`)
        .join('\n'),
  );
}

export interface Neighbourhood {
  /** The person whose screens are visited. */
  member: SessionUser;
  neighbourId: string;
  /** The neighbour's located post of the cat 'Pixel': 'Waiting by the door'. */
  neighbourPost: Post;
  /** The cat page made from that post. */
  catId: string;
  /** The member's group 'Axe Street'. */
  groupId: string;
}

/**
 * A member and a neighbour: the neighbour's located post with its cat page, the member's own located
 * post liked by the neighbour (an unread notification), and a group the member owns.
 */
export async function seedNeighbourhood(baseUrl: string): Promise<Neighbourhood> {
  const [member, neighbour] = await Promise.all([apiUser(baseUrl, 'axe'), apiUser(baseUrl, 'neighbour')]);
  const neighbourPost = await apiCreatePost(baseUrl, neighbour.accessToken, {
    catName: 'Pixel',
    comment: 'Waiting by the door',
    location: { latitude: 37.01, longitude: -4.52 },
  });
  const created = await apiCall<CreateCatResponse>(baseUrl, neighbour.accessToken, '/api/cats', {
    method: 'POST',
    body: JSON.stringify({ name: 'Pixel', postId: neighbourPost._id }),
  });
  const own = await apiCreatePost(baseUrl, member.accessToken, {
    comment: 'On the wall again',
    location: { latitude: 37.02, longitude: -4.51 },
  });
  await apiCall(baseUrl, neighbour.accessToken, `/api/posts/likePost/${own._id}`, {
    method: 'PUT',
    body: '{}',
  });
  const group = await apiCall<CreateGroupResponse>(baseUrl, member.accessToken, '/api/groups/createGroup', {
    method: 'POST',
    body: JSON.stringify({ submitData: 'Axe Street' }),
  });
  return {
    member,
    neighbourId: neighbour.userId,
    neighbourPost,
    catId: created.cat._id,
    groupId: group.ownedGroups[0]!._id,
  };
}
