import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../build-app.ts';
import { baselineBody, baselineParams, refusalMayWrite } from './support/inputs.ts';
import { NASTY_STRINGS, Prober, Tally, WRONG_TYPES } from './support/probe.ts';
import {
  apiRoutes,
  deleteAt,
  fieldPaths,
  fillPath,
  isWrite,
  setAt,
  stringFieldPaths,
  type ApiRoute,
} from './support/routes.ts';
import { buildWorld, makeModerator, NO_RATE_LIMITS, type World } from './support/world.ts';

/**
 * Every write route, enumerated from the app's OpenAPI document, gets malformed, oversized, mistyped,
 * incomplete and padded JSON, and every text field gets long, unusual and hostile strings. Each answer
 * must be below 500, a refusal JSON {message}, a refusal must write nothing, and the server must keep
 * answering /api/health.
 */

const MALFORMED_JSON: [string, string][] = [
  ['unterminated object', '{"a":'],
  ['unquoted key', '{a:1}'],
  ['single quotes', "{'a':'b'}"],
  ['trailing comma', '{"a":1,}'],
  ['extra closing brace', '{"a":1}}'],
  ['garbage after value', '{"a":1} trailing'],
  ['bare word', 'nul'],
  ['NaN literal', '{"a":NaN}'],
  ['only a NUL byte', '\u0000'],
  ['unterminated string', '{"a":"b'],
  ['bad escape', '{"a":"\\x41"}'],
  ['lone surrogate escape', '{"newComment":"\\ud800"}'],
];

const ROOT_VALUES: [string, string][] = [
  ['array', '[]'],
  ['string', '"string"'],
  ['number', '123'],
  ['null', 'null'],
  ['boolean', 'true'],
  ['empty object', '{}'],
];

const OVERSIZED = JSON.stringify({ newComment: 'x'.repeat(1024 * 1024 + 10), submitData: 'y' });
const DEEP_NESTING = `{"currentUserId":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;

describe('hostile JSON bodies on every write route', () => {
  let t: TestApp;
  let w: World;
  let routes: ApiRoute[];
  const tally = new Tally();
  let probe: Prober;

  beforeAll(async () => {
    t = await buildTestApp(NO_RATE_LIMITS);
    w = await buildWorld(t);
    // A moderator sends the bodies, so that the moderation routes read them too.
    await makeModerator(t, w.a.user.id);
    routes = apiRoutes(t.app).filter(isWrite);
    probe = new Prober(t, tally);
  });
  afterAll(async () => {
    console.log(tally.summary('hostile JSON bodies'));
    await t?.close();
  });

  it('finds the write routes in the OpenAPI document', () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routes.map((r) => r.key)).toContain('POST /api/posts/createComment/:postId');
  });

  it('answers every hostile body with 4xx {message} (or a clean success) and writes nothing on refusal', async () => {
    for (const route of routes) {
      const url = fillPath(route, baselineParams(route, w));
      const headers = { ...w.a.headers, 'content-type': 'application/json' };
      const opts = refusalMayWrite(route, t.db);
      const raw = (label: string, payload: string, extraHeaders: Record<string, string> = {}) =>
        probe.send(
          route.key,
          label,
          { method: route.method, url, headers: { ...headers, ...extraHeaders }, payload },
          opts,
        );
      const json = (label: string, body: unknown) => raw(label, JSON.stringify(body));

      for (const [label, payload] of MALFORMED_JSON) {
        const res = await raw(`malformed: ${label}`, payload);
        if (label !== 'lone surrogate escape') expect(res.statusCode, `${route.key} ${label}`).toBe(400);
      }
      const big = await raw('oversized 1 MB', OVERSIZED);
      expect(big.statusCode, `${route.key} oversized`).toBe(413);
      expect(big.json()).toEqual({ message: 'Request body is too large' });
      await raw('50k deep nesting', DEEP_NESTING);
      await raw('empty body', '');
      await raw('text/plain', '{"a":1}', { 'content-type': 'text/plain' });
      await raw('form-encoded', 'a=1&b=2', { 'content-type': 'application/x-www-form-urlencoded' });
      await raw('JSON in latin1', '{"a":1}', { 'content-type': 'application/json; charset=latin1' });
      await raw('__proto__ key', '{"__proto__":{"polluted":true},"newComment":"x"}');
      await raw('constructor.prototype', '{"constructor":{"prototype":{"polluted":true}}}');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      for (const [label, payload] of ROOT_VALUES) await raw(`root ${label}`, payload);

      if (route.body) {
        const base = baselineBody(route, w);
        await json('extra fields', {
          ...base,
          isAdmin: true,
          role: 'owner',
          userId: w.b.user.id,
          _id: w.b.user.id,
          currentUserId: w.b.user.id,
          extra: 'x'.repeat(1000),
        });
        for (const path of fieldPaths(route.body)) {
          await json(`missing ${path.join('.')}`, deleteAt(base, path));
          for (const [label, value] of WRONG_TYPES) {
            await json(`${path.join('.')} as ${label}`, setAt(base, path, value));
          }
        }
        for (const path of stringFieldPaths(route.body)) {
          for (const [label, value] of NASTY_STRINGS) {
            await json(`${path.join('.')}: ${label}`, setAt(base, path, value));
          }
        }
      }
      probe.reset();
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode, `health after ${route.key}`).toBe(200);
    }
    expect(tally.problems).toEqual([]);
    expect(tally.cases).toBeGreaterThan(500);
  }, 600_000);
});
