import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../build-app.ts';
import { baselineBody, baselineParams, refusalMayWrite } from './support/inputs.ts';
import { HOSTILE_IDS, NASTY_STRINGS, Prober, Tally } from './support/probe.ts';
import { apiRoutes, fillPath, type ApiRoute } from './support/routes.ts';
import { buildWorld, NO_RATE_LIMITS, type World } from './support/world.ts';

/**
 * Every route's path parameters get malformed, unknown, traversing and someone else's ids; page numbers
 * get negative, huge and non-numeric values; every query parameter gets hostile strings and numbers.
 * Media URLs get path traversal. Same rules: below 500, refusals JSON {message}, nothing written.
 */

/** encodeURIComponent, except that an unpaired surrogate is sent as the raw %ED%A0%80 bytes it cannot encode. */
const encodeLoosely = (value: string) =>
  value
    .split(/([\uD800-\uDFFF])/)
    .map((part) => (/^[\uD800-\uDFFF]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
    .join('');

const PAGES: [string, string][] = [
  ['negative', '-1'],
  ['zero', '0'],
  ['float', '1.5'],
  ['exponent', '1e3'],
  ['overflowing exponent', '1e309'],
  ['Infinity', 'Infinity'],
  ['NaN', 'NaN'],
  ['hex', '0x10'],
  ['leading space', '%201'],
  ['20 digits', '99999999999999999999'],
  ['just past the limit', '100001'],
  ['word', 'abc'],
  ['NUL', '%00'],
  ['max safe + 1', '9007199254740993'],
];

const QUERY_VALUES: [string, string][] = [
  ...PAGES,
  ['empty', ''],
  ['5000 chars', 'a'.repeat(5000)],
  ...NASTY_STRINGS.filter(([label]) => !label.startsWith('100k') && !label.startsWith('10k')).map(
    ([label, value]): [string, string] => [`text: ${label}`, encodeLoosely(value)],
  ),
];

/** What someone else owns, by parameter name. */
function othersId(name: string, w: World): string | undefined {
  return (
    {
      postId: w.bPost._id,
      commentId: w.bComment,
      groupId: w.bGroup._id,
      userId: w.b.user.id,
      userid: w.b.user.id,
    } as Record<string, string>
  )[name];
}

describe('hostile ids, page numbers and query strings on every route', () => {
  let t: TestApp;
  let w: World;
  let routes: ApiRoute[];
  const tally = new Tally();
  let probe: Prober;

  beforeAll(async () => {
    t = await buildTestApp(NO_RATE_LIMITS);
    w = await buildWorld(t);
    routes = apiRoutes(t.app);
    probe = new Prober(t, tally);
  });
  afterAll(async () => {
    console.log(tally.summary('hostile ids, pages and queries'));
    await t?.close();
  });

  function request(route: ApiRoute, url: string) {
    const write = route.method !== 'GET';
    return {
      method: route.method,
      url,
      headers: { ...w.a.headers, ...(write ? { 'content-type': 'application/json' } : {}) },
      ...(write && !route.multipart
        ? { payload: JSON.stringify(route.body ? baselineBody(route, w) : {}) }
        : {}),
    };
  }

  it('refuses malformed, unknown, traversing and foreign ids with 4xx {message}', async () => {
    const withParams = routes.filter((r) => r.params.length > 0);
    expect(withParams.length).toBeGreaterThanOrEqual(15);
    for (const route of withParams) {
      const base = baselineParams(route, w);
      for (const param of route.params) {
        const values = param === 'page' ? PAGES : HOSTILE_IDS;
        for (const [label, value] of values) {
          const url = fillPath(route, { ...base, [param]: value });
          const res = await probe.send(
            route.key,
            `${param}: ${label}`,
            request(route, url),
            refusalMayWrite(route, t.db),
          );
          // An id that is no id is the same 404 as an unknown one (never 400 or 500), page numbers 400.
          if (param !== 'page' && res.statusCode < 500) {
            expect(res.statusCode, `${route.key} ${param}: ${label}`).toBeGreaterThanOrEqual(400);
          }
        }
        const foreign = othersId(param, w);
        if (foreign) {
          const url = fillPath(route, { ...base, [param]: foreign });
          await probe.send(
            route.key,
            `${param}: someone else's`,
            request(route, url),
            refusalMayWrite(route, t.db),
          );
        }
      }
      probe.reset();
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    }
    expect(tally.problems).toEqual([]);
  }, 600_000);

  it('refuses hostile query strings and page numbers with 4xx {message}', async () => {
    for (const route of routes) {
      const url = fillPath(route, baselineParams(route, w));
      const names = Object.keys(route.query);
      for (const name of names) {
        for (const [label, value] of QUERY_VALUES) {
          await probe.send(
            route.key,
            `?${name}: ${label}`,
            request(route, `${url}?${name}=${value}`),
            refusalMayWrite(route, t.db),
          );
        }
        await probe.send(
          route.key,
          `?${name} twice`,
          request(route, `${url}?${name}=1&${name}=2`),
          refusalMayWrite(route, t.db),
        );
      }
      await probe.send(
        route.key,
        'junk query',
        request(
          route,
          `${url}?__proto__[polluted]=1&constructor[prototype][polluted]=1&a[b][c]=d&${'x'.repeat(2000)}=1`,
        ),
        refusalMayWrite(route, t.db),
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
    expect(tally.problems).toEqual([]);
  }, 600_000);

  it('serves no file outside the media store, whatever the media URL', async () => {
    const variant = w.aPost.image.variants['800']!;
    const hash = variant.split('/')[3]!;
    const urls = [
      '/media/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/media/..%2f..%2f..%2fetc%2fpasswd',
      '/media/posts/%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json',
      `/media/posts/${hash}/..%2f..%2f..%2fpglite%2fPG_VERSION`,
      `/media/posts/${hash}/800.webp%00.png`,
      `/media/posts/${hash}/800.webp/..`,
      `/media/posts/${hash}/..%5C..%5C..%5Cetc%5Cpasswd`,
      `/media/posts/${hash.toUpperCase()}/800.webp`,
      `/media/posts/${hash}/800.WEBP`,
      `/media/posts/${hash}/999.webp`,
      `/media/posts/${hash}/800.webp.tmp`,
      `/media/avatars/${hash}/800.webp`,
      '/media/posts/short/800.webp',
      '/media/',
      '/media/%FF%FE',
      `/media/${'a/'.repeat(300)}x.webp`,
    ];
    const secrets = [readFileSync('/etc/passwd', 'utf8').slice(0, 20), '"name": "@cats'];
    for (const url of urls) {
      const res = await probe.send('GET /media/*', url, { method: 'GET', url });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      for (const secret of secrets) expect(res.body.includes(secret), url).toBe(false);
    }
    const real = await probe.send('GET /media/*', 'real variant', { method: 'GET', url: variant });
    expect(real.statusCode).toBe(200);
    expect(real.headers['content-type']).toBe('image/webp');
    expect(tally.problems).toEqual([]);
  });

  it('refuses unnormalised traversal sent raw over a socket (no client cleans the path)', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const raw = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const socket = connect(address.port, '127.0.0.1');
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString('latin1')));
        socket.on('end', () =>
          resolve({ status: Number(data.split(' ')[1]), body: data.split('\r\n\r\n').slice(1).join('') }),
        );
        socket.on('error', reject);
        socket.write(
          `GET ${path} HTTP/1.1\r\nHost: cats\r\nAuthorization: ${w.a.headers.authorization}\r\nConnection: close\r\n\r\n`,
        );
      });
    const hash = w.aPost.image.variants['800']!.split('/')[3]!;
    const paths = [
      '/media/../../../../etc/passwd',
      '/media/posts/../../../../../etc/passwd',
      `/media/posts/${hash}/../../../pglite/PG_VERSION`,
      '/media/./posts/./x/800.webp',
      '/media//etc/passwd',
      '/api/posts/getComments/../../../../etc/passwd',
      '/api/profile/getUserProfile/..',
      '/api/groups/../../etc/passwd/map',
    ];
    const passwd = readFileSync('/etc/passwd', 'utf8').slice(0, 20);
    for (const path of paths) {
      const res = await raw(path);
      tally.record('raw socket', res.status);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(res.body.includes(passwd), path).toBe(false);
      expect(JSON.parse(res.body), path).toHaveProperty('message');
    }
  });
});
