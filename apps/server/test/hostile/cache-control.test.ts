import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../build-app.ts';
import { DEFAULT_PASSWORD } from '../factories.ts';
import { baselineParams } from './support/inputs.ts';
import { apiRoutes, fillPath } from './support/routes.ts';
import { NO_RATE_LIMITS, buildWorld, makeModerator, type World } from './support/world.ts';

/**
 * Issue 23: whatever a signed-in caller is answered stays out of shared caches and off the browser's
 * disk. Every GET route of the OpenAPI document is walked with a valid token, so a new route is covered
 * without touching this file.
 */
const PRIVATE = 'private, no-store';

describe('Cache-Control on signed-in answers', () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await buildTestApp(NO_RATE_LIMITS);
    w = await buildWorld(t);
    // A moderator walks the routes, so that the moderation routes answer too.
    await makeModerator(t, w.a.user.id);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is private, no-store on every GET route behind a token, successes and refusals alike', async () => {
    const routes = apiRoutes(t.app).filter((r) => r.method === 'GET' && r.secured);
    expect(routes.length).toBeGreaterThanOrEqual(10);
    // Values the routes' query strings need to answer something real (the rest are optional).
    const query: Record<string, string> = {
      user: w.b.user.id,
      ids: w.aPost._id,
      near: '51.5,-0.12',
      // A map's viewport (Explore's markers and missing-cat pins).
      west: '-0.2',
      south: '51.45',
      east: '0',
      north: '51.55',
      zoom: '12',
    };
    // A report with a picture (issue 46), by someone else, for the moderators' picture route.
    const reported = await t.app.inject({
      method: 'POST',
      url: '/api/reports',
      headers: w.c.headers,
      payload: { targetType: 'post', targetId: w.bPost._id, reason: 'spam' },
    });
    expect(reported.statusCode, reported.body).toBe(201);
    const { reportId } = reported.json() as { reportId: string };
    /** Routes that answer a file rather than JSON. */
    const FILES: Record<string, RegExp> = {
      'GET /api/moderation/reports/:reportId/picture': /^image\/webp/,
    };
    const statuses: Record<string, number> = {};
    for (const route of routes) {
      const names = Object.keys(route.query).filter((name) => query[name] !== undefined);
      const search = names.map((name) => `${name}=${query[name]}`).join('&');
      const params = {
        ...baselineParams(route, w),
        ...(route.params.includes('reportId') ? { reportId } : {}),
      };
      const url = fillPath(route, params) + (search ? `?${search}` : '');
      const res = await t.app.inject({ method: 'GET', url, headers: w.a.headers });
      statuses[route.key] = res.statusCode;
      const type = res.statusCode === 200 ? (FILES[route.key] ?? /^application\/json/) : /^application\/json/;
      expect(res.headers['content-type'], `${route.key} ${res.body.slice(0, 200)}`).toMatch(type);
      expect(res.headers['cache-control'], route.key).toBe(PRIVATE);
    }
    // The walk reached real answers, not only refusals.
    expect(
      Object.values(statuses).filter((s) => s === 200).length,
      JSON.stringify(statuses),
    ).toBeGreaterThanOrEqual(routes.length - 3);
  });

  it('is private, no-store on login and refresh, which answer tokens', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: w.a.user.email, password: DEFAULT_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe(PRIVATE);
    const cookie = login.cookies.find((c) => c.value !== '')!;
    const refresh = await t.app.inject({
      method: 'GET',
      url: '/api/refresh',
      cookies: { [cookie.name]: cookie.value },
    });
    expect(refresh.statusCode).toBe(200);
    expect(refresh.json()).toHaveProperty('accessToken');
    expect(refresh.headers['cache-control']).toBe(PRIVATE);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: w.a.user.email, password: 'Wrong-password1' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['cache-control']).toBe(PRIVATE);
  });

  it('leaves media and public answers their own caching', async () => {
    const media = await t.app.inject({ url: w.aPost.imageUrl });
    expect(media.statusCode).toBe(200);
    expect(media.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const map = await t.app.inject({ url: '/api/config/map' });
    expect(map.headers['cache-control']).toBe('public, max-age=3600');
  });
});
