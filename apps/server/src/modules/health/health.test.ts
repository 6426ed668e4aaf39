import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';

describe('health and error shapes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers ok when the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['x-request-id']).toMatch(/.+/);
  });

  it('keeps a safe incoming request id and replaces an unsafe one', async () => {
    const kept = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'lb-123' },
    });
    expect(kept.headers['x-request-id']).toBe('lb-123');
    const replaced = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'bad id<script>' },
    });
    expect(replaced.headers['x-request-id']).not.toBe('bad id<script>');
  });

  it('answers 404 JSON for an unknown API route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Route GET /api/does-not-exist not found' });
  });

  it('serves the OpenAPI document generated from the route schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths).toHaveProperty('/api/health');
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });

  it('answers 400 JSON for malformed JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/health',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken": ',
    });
    expect([400, 404]).toContain(res.statusCode);
    expect(res.json()).toHaveProperty('message');
  });
});

describe('the API explorer in production (issue 23)', () => {
  const production = { NODE_ENV: 'production', JWT_SECRET: 'j'.repeat(32) };
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const t of apps) await t.close();
  });
  async function start(env: Record<string, string>) {
    const t = await buildTestApp(env);
    apps.push(t);
    return t;
  }

  it('is off by default: /api/docs answers the usual 404, the OpenAPI document stays', async () => {
    const t = await start(production);
    for (const url of ['/api/docs', '/api/docs/', '/api/docs/static/index.html']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ message: `Route GET ${url} not found` });
    }
    const doc = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json()).toHaveProperty(['paths', '/api/health']);
  });

  it('is on with API_DOCS=true', async () => {
    const t = await start({ ...production, API_DOCS: 'true' });
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toMatch(/text\/html/);
    expect((await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).statusCode).toBe(200);
  });
});

describe('health when the database is gone', () => {
  it('answers 503', async () => {
    const t = await buildTestApp();
    try {
      await t.database.close();
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable', message: 'Database unavailable' });
    } finally {
      await t.close();
    }
  });
});

describe('security headers', () => {
  it('sends a strict CSP, nosniff and a referrer policy; no HSTS over plain http', async () => {
    const t = await buildTestApp();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('sends HSTS when the public URL is https', async () => {
    const t = await buildTestApp({ PUBLIC_URL: 'https://cats.example' });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    } finally {
      await t.close();
    }
  });
});
