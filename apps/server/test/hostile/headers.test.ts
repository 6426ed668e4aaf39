import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../build-app.ts';
import { createUser, DEFAULT_PASSWORD } from '../factories.ts';
import { smallJpeg, uploadPost } from './support/world.ts';
import { authHeader } from '../factories.ts';
import { THEME_SCRIPT_HASH } from '../../src/plugins/security-headers.ts';

/** Security headers on every kind of answer, and the refresh cookie's attributes over http and https. */

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map((parts) => [parts[0]!, parts.slice(1)]),
  );
}

function expectStrictHeaders(headers: Record<string, unknown>, where: string) {
  const csp = directives(String(headers['content-security-policy'] ?? ''));
  expect(csp.get('default-src'), where).toEqual(["'self'"]);
  // Our own files, and the one inline script that applies the colour scheme before the first paint,
  // allowed by its hash alone (decision 015; security-headers.test.ts checks the hash matches it).
  expect(csp.get('script-src'), where).toEqual(["'self'", THEME_SCRIPT_HASH]);
  expect(csp.get('object-src'), where).toEqual(["'none'"]);
  expect(csp.get('base-uri'), where).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors'), where).toEqual(["'none'"]);
  // No inline or evaluated script anywhere in the policy.
  for (const [name, values] of csp) {
    if (name.startsWith('script'))
      expect(values.join(' '), where).not.toMatch(/unsafe-inline|unsafe-eval|data:/);
  }
  expect(headers['x-content-type-options'], where).toBe('nosniff');
  expect(headers['referrer-policy'], where).toBe('strict-origin-when-cross-origin');
  expect(headers['x-frame-options'], where).toBe('SAMEORIGIN');
  expect(headers['x-powered-by'], where).toBeUndefined();
}

async function login(t: TestApp) {
  const user = await createUser(t.db);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: user.email, password: DEFAULT_PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  return { user, res };
}

describe('security headers and cookies over https', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ PUBLIC_URL: 'https://cats.example' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends CSP without inline scripts, nosniff, referrer policy and HSTS on answers, errors and media', async () => {
    const user = await createUser(t.db);
    const post = await uploadPost(t.app, await authHeader(t.app, user.id), await smallJpeg(3));
    const answers = {
      health: await t.app.inject({ method: 'GET', url: '/api/health' }),
      'API 404': await t.app.inject({ method: 'GET', url: '/api/nope' }),
      'API 401': await t.app.inject({ method: 'GET', url: '/api/feed/1' }),
      'malformed JSON': await t.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'content-type': 'application/json' },
        payload: '{',
      }),
      media: await t.app.inject({ method: 'GET', url: post.image.variants['300']! }),
      'media 404': await t.app.inject({ method: 'GET', url: '/media/posts/0000000000000000/1.webp' }),
    };
    for (const [where, res] of Object.entries(answers)) {
      expectStrictHeaders(res.headers, where);
      expect(res.headers['strict-transport-security'], where).toBe('max-age=31536000; includeSubDomains');
    }
    expect(
      directives(String(answers.health.headers['content-security-policy'])).has('upgrade-insecure-requests'),
    ).toBe(true);
  });

  it('sets the refresh token and the device cookie as __Host- cookies: Secure, HttpOnly, SameSite=Strict, Path=/, no Domain', async () => {
    const { res } = await login(t);
    const raw = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(raw.map((c) => c.split('=')[0])).toEqual(['__Host-jwt', '__Host-device']);
    for (const cookie of raw) {
      const attributes = cookie.split(';').map((a) => a.trim().toLowerCase());
      expect(cookie).toMatch(/^__Host-[a-z]+=[^;]+;/);
      expect(attributes).toEqual(expect.arrayContaining(['path=/', 'httponly', 'secure', 'samesite=strict']));
      expect(attributes.some((a) => a.startsWith('domain='))).toBe(false);
      expect(attributes.some((a) => a.startsWith('max-age='))).toBe(true);
    }

    // Only the __Host- cookie counts: the same token under the plain name is no session.
    const token = res.cookies.find((c) => c.name === '__Host-jwt')!.value;
    const plain = await t.app.inject({ method: 'GET', url: '/api/refresh', cookies: { jwt: token } });
    expect(plain.statusCode).toBe(401);
    const hosted = await t.app.inject({
      method: 'GET',
      url: '/api/refresh',
      cookies: { '__Host-jwt': token },
    });
    expect(hosted.statusCode).toBe(200);

    // Logout clears it with the same attributes (a browser ignores a clearing cookie that differs).
    const rotated = hosted.cookies.find((c) => c.name === '__Host-jwt')!.value;
    const out = await t.app.inject({ method: 'GET', url: '/api/logout', cookies: { '__Host-jwt': rotated } });
    expect(out.statusCode).toBe(204);
    const cleared = ([] as string[]).concat(out.headers['set-cookie'] ?? [])[0]!;
    expect(cleared).toMatch(/^__Host-jwt=;/);
    expect(cleared.toLowerCase()).toContain('secure');
    expect(cleared.toLowerCase()).toContain('path=/');
  });
});

describe('security headers and cookies over plain http (development)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps the strict headers but sends no HSTS and a plain, non-Secure cookie', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expectStrictHeaders(health.headers, 'health');
    expect(health.headers['strict-transport-security']).toBeUndefined();
    const { res } = await login(t);
    const cookie = res.cookies.find((c) => c.name === 'jwt')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie.secure).toBeFalsy();
  });
});
