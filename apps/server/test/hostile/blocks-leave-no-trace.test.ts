import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommentsResponse, ExploreViewportResponse } from '@cats/contracts';
import { buildTestApp, type TestApp } from '../build-app.ts';
import { apiRoutes, fillPath } from './support/routes.ts';
import {
  NO_RATE_LIMITS,
  actor,
  addComment,
  call,
  createGroup,
  smallJpeg,
  uploadPost,
  type Actor,
} from './support/world.ts';

/**
 * Issue 23, "Blocks leave no trace": once A and B share a block (either of them blocked the other), A
 * finds none of B's ids in any answer, every comment count A reads is the number of comments A can
 * read, and B's profile and posts answer exactly as an unknown user's. Every GET route of the API is
 * walked, so a route added later is searched too.
 */

let t: TestApp;
let seed = 7000;
beforeAll(async () => {
  t = await buildTestApp(NO_RATE_LIMITS);
});
afterAll(async () => {
  await t?.close();
});

const AT = { latitude: '51.5', longitude: '-0.12', showLocation: 'true', comment: 'On the wall' };
/** A viewport around AT at the deepest zoom: two posts at one spot stay one cluster there. */
const VIEWPORT = 'west=-0.14&south=51.49&east=-0.1&north=51.51&zoom=18';

async function like(who: Actor, postId: string) {
  const res = await call(t.app, who.headers, 'PUT', `/api/posts/likePost/${postId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

/**
 * C's two posts at one spot (one shared with C's group, which A belongs to) and A's post; all three
 * liked and commented by both A and B, and by C, before the block.
 */
async function scene(blocker: 'A' | 'B') {
  const [a, b, c] = [await actor(t.app, t), await actor(t.app, t), await actor(t.app, t)];
  const group = await createGroup(t.app, c.headers, 'Third street');
  await call(t.app, a.headers, 'POST', '/api/groups/joinGroup', { submitData: group.code });
  const accepted = await call(
    t.app,
    c.headers,
    'POST',
    `/api/groups/${group._id}/requests/${a.user.id}/accept`,
  );
  expect(accepted.statusCode, accepted.body).toBe(200);
  const cPost = await uploadPost(t.app, c.headers, await smallJpeg((seed += 1)), AT);
  const cPost2 = await uploadPost(t.app, c.headers, await smallJpeg((seed += 1)), AT);
  const aPost = await uploadPost(t.app, a.headers, await smallJpeg((seed += 1)), AT);
  const shared = await call(t.app, c.headers, 'PUT', `/api/posts/${cPost._id}/groups`, {
    groupIds: [group._id],
  });
  expect(shared.statusCode, shared.body).toBe(200);
  for (const post of [cPost, cPost2, aPost]) {
    for (const who of [a, b, c]) {
      await like(who, post._id);
      await addComment(t.app, who.headers, post._id, `Lovely, says ${who.user.username}`);
    }
  }
  const [from, to] = blocker === 'A' ? [a, b] : [b, a];
  const blocked = await call(t.app, from.headers, 'PUT', '/api/profile/blockUser/', {
    blockedUser: { _id: to.user.id },
  });
  expect(blocked.statusCode, blocked.body).toBe(200);
  return { a, b, c, group, cPost, cPost2, aPost };
}

/** Every object of an answer that carries a commentCount, with its id. */
function countedPosts(value: unknown, out: { _id: string; commentCount: number }[] = []) {
  if (Array.isArray(value)) for (const item of value) countedPosts(item, out);
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record._id === 'string' && typeof record.commentCount === 'number')
      out.push({ _id: record._id, commentCount: record.commentCount });
    for (const child of Object.values(record)) countedPosts(child, out);
  }
  return out;
}

describe.each(['A', 'B'] as const)('when %s blocks the other', (blocker) => {
  let s: Awaited<ReturnType<typeof scene>>;
  beforeAll(async () => {
    s = await scene(blocker);
  }, 120_000);

  it("leaves none of B's ids in any GET answer A gets, and every comment count is what A can read", async () => {
    const answers: { url: string; res: LightMyRequestResponse }[] = [];
    const get = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url, headers: s.a.headers });
      answers.push({ url, res });
      return res;
    };
    const viewport = (await get(`/api/explore?${VIEWPORT}`)).json() as ExploreViewportResponse;
    const stack = viewport.clusters.find((cluster) => cluster.expansionZoom > 18);
    expect(stack, JSON.stringify(viewport)).toBeDefined();

    const postIds = [s.cPost._id, s.cPost2._id, s.aPost._id];
    const queries: Record<string, string[]> = {
      user: [s.c.user.id, s.a.user.id],
      ids: [postIds.join(',')],
      near: [`${AT.latitude},${AT.longitude}`],
    };
    const routes = apiRoutes(t.app).filter((r) => r.method === 'GET' && r.secured);
    for (const route of routes) {
      const params = {
        postId: postIds,
        groupId: [s.group._id],
        userId: [s.b.user.id],
        userid: [s.b.user.id],
        clusterId: [stack!.id],
        page: ['1'],
      };
      // One URL per value of the route's single varying parameter (postId: each post), and one per
      // value of a query parameter the route needs.
      const urls: string[] = [];
      const varying = route.params.find((p) => (params[p as keyof typeof params] ?? []).length > 1);
      const values = varying ? params[varying as keyof typeof params] : [''];
      for (const value of values) {
        const filled = Object.fromEntries(
          route.params.map((p) => [
            p,
            p === varying ? value : (params[p as keyof typeof params]?.[0] ?? randomUUID()),
          ]),
        );
        const base = fillPath(route, filled);
        const named = Object.keys(route.query).filter((q) => queries[q]);
        if (named.length === 0) urls.push(base);
        for (const q of named) for (const v of queries[q]!) urls.push(`${base}?${q}=${v}`);
      }
      for (const url of urls) await get(url);
    }
    // Likes: the toggle's own answer, both ways (unlike, like again).
    for (let i = 0; i < 2; i += 1) {
      const toggled = await like(s.a, s.cPost._id);
      answers.push({ url: `PUT likePost #${i + 1}`, res: toggled });
    }

    const leaks: string[] = [];
    const counts: { url: string; _id: string; commentCount: number }[] = [];
    for (const { url, res } of answers) {
      expect(res.statusCode, `${url} ${res.body}`).toBeLessThan(500);
      // A blocker's own block list names whom they blocked: that is the list's purpose (and unblocking).
      if (blocker === 'A' && url.startsWith('/api/profile/blockedUsers')) continue;
      if (res.body.includes(s.b.user.id) || res.body.includes(s.b.user.username)) leaks.push(url);
      for (const post of countedPosts(res.json())) counts.push({ url, ...post });
    }
    // The walk saw the posts in the feed, the profiles, explore, the group and the detail cards.
    expect(new Set(counts.map((c) => c.url)).size).toBeGreaterThanOrEqual(6);
    const readable = new Map<string, number>();
    for (const id of new Set([...postIds, ...counts.map((c) => c._id)])) {
      const res = await t.app.inject({ url: `/api/posts/getComments/${id}`, headers: s.a.headers });
      expect(res.statusCode).toBe(200);
      readable.set(id, (res.json() as CommentsResponse).comments.length);
    }
    // A and C commented on each post and B's comment is hidden: two readable comments each.
    expect(postIds.map((id) => readable.get(id))).toEqual([2, 2, 2]);
    const mismatches = counts
      .filter((c) => c.commentCount !== readable.get(c._id))
      .map((c) => `${c.url}: ${c._id} counts ${c.commentCount}`);
    expect({ leaks, mismatches }).toEqual({ leaks: [], mismatches: [] });
  });

  it("answers B's profile and posts exactly as an unknown user's: 404 with the same message", async () => {
    for (const url of [
      (id: string) => `/api/profile/getPosts?user=${id}`,
      (id: string) => `/api/profile/getPosts?user=${id}&pagenum=2`,
      (id: string) => `/api/profile/getUserProfile/${id}`,
    ]) {
      const unknown = await t.app.inject({ url: url(randomUUID()), headers: s.a.headers });
      const blocked = await t.app.inject({ url: url(s.b.user.id), headers: s.a.headers });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ message: expect.any(String) });
      expect([blocked.statusCode, blocked.json()], url('B')).toEqual([unknown.statusCode, unknown.json()]);
    }
    // C, with whom A shares no block, still answers.
    const cPosts = await t.app.inject({
      url: `/api/profile/getPosts?user=${s.c.user.id}`,
      headers: s.a.headers,
    });
    expect(cPosts.statusCode).toBe(200);
  });
});
