import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createUser } from '../../../test/factories.ts';
import { freePort } from '../../../test/free-port.ts';
import { openSse } from '../../../test/sse-client.ts';
import { NO_RATE_LIMITS, smallJpeg, uploadPost } from '../../../test/hostile/support/world.ts';
import { bearerMatches, METRICS_MESSAGES } from './metrics.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of one series in the exposition text (labels in any order), or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries(
      [...(match[3] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => present[k] === v)) return Number(match[4]);
  }
  return undefined;
}

describe('metrics are off by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 404 at /metrics, with or without a token, and opens no second listener', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found' });
    }
    expect(t.app.metricsAddress()).toBeNull();
  });

  it('keeps /metrics out of the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
  });
});

describe('metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  let base: string;
  const scrape = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    t = await buildTestApp({ ...NO_RATE_LIMITS, METRICS_TOKEN: TOKEN, RATE_LIMIT_LOGIN_PER_MINUTE: '7' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a missing or wrong token with 401 {message}', async () => {
    const cases = [
      {},
      { authorization: 'Bearer wrong-token-of-some-length-000000' },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: TOKEN },
      { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` },
    ];
    for (const headers of cases) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json()).toEqual({ message: METRICS_MESSAGES.tokenRequired });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    }
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
  });

  it('serves the Prometheus text format with the right token', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('# TYPE http_requests_total counter');
    expect(res.body).toContain('# TYPE http_request_duration_seconds histogram');
    // Process memory and event-loop lag come from prom-client's default metrics.
    expect(sample(res.body, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(sample(res.body, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(res.body, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('counts requests by route template and status, never by URL, and not the scrapes', async () => {
    const user = await createUser(t.db);
    const headers = await authHeader(t.app, user.id);
    const before = await scrape();
    const postRoute = { route: '/api/posts/:postId', method: 'GET', status_code: '404' };
    const healthRoute = { route: '/api/health', method: 'GET', status_code: '200' };
    const unmatched = { route: '(unmatched)', method: 'GET', status_code: '404' };
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of ids) {
      const res = await t.app.inject({ method: 'GET', url: `/api/posts/${id}`, headers });
      expect(res.statusCode).toBe(404);
    }
    for (let i = 0; i < 2; i += 1) await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.app.inject({ method: 'GET', url: `/api/no-such-route/${ids[0]}` });
    await scrape();
    const after = await scrape();

    const counted = (labels: Record<string, string>) =>
      (sample(after, 'http_requests_total', labels) ?? 0) -
      (sample(before, 'http_requests_total', labels) ?? 0);
    expect(counted(postRoute)).toBe(3);
    expect(counted(healthRoute)).toBe(2);
    expect(counted(unmatched)).toBe(1);
    const histogramCount = (text: string) =>
      sample(text, 'http_request_duration_seconds_count', postRoute) ?? 0;
    expect(histogramCount(after) - histogramCount(before)).toBe(3);
    expect(sample(after, 'http_request_duration_seconds_bucket', { ...postRoute, le: '+Inf' })).toBe(
      histogramCount(after),
    );
    // Nothing personal or unbounded in a label: no id from a URL, no user, no email; no /metrics series.
    for (const id of [...ids, user.id]) expect(after).not.toContain(id);
    expect(after).not.toContain(user.email);
    expect(after).not.toContain('route="/metrics"');
  });

  it('counts 429s by the limit that refused them: the per-IP login limit and the per-account throttle', async () => {
    const user = await createUser(t.db, { password: 'RightPassword123' });
    const before = await scrape();
    const statuses: number[] = [];
    // Seven per minute from this address; the account locks after five failures.
    for (let i = 0; i < 8; i += 1) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: user.email, password: `Wrong${i}Password` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const after = await scrape();
    const refused = (limit: string) =>
      (sample(after, 'cats_rate_limit_refusals_total', { limit }) ?? 0) -
      (sample(before, 'cats_rate_limit_refusals_total', { limit }) ?? 0);
    expect(refused('login_account')).toBe(2);
    expect(refused('login')).toBe(1);
    expect(refused('other')).toBe(0);
    for (const limit of ['signup', 'writes', 'uploads', 'reports'])
      expect(sample(after, 'cats_rate_limit_refusals_total', { limit })).toBe(0);
    expect(
      sample(after, 'http_requests_total', { route: '/api/login', method: 'POST', status_code: '429' }),
    ).toBe(3);
    expect(after).not.toContain(user.email);
  });

  it('shows the database connection use and wait', async () => {
    const text = await scrape();
    if (t.database.kind === 'postgres') {
      expect(sample(text, 'cats_db_pool_max_connections')).toBe(10);
      const idle = sample(text, 'cats_db_pool_connections', { state: 'idle' })!;
      const inUse = sample(text, 'cats_db_pool_connections', { state: 'in_use' })!;
      expect(idle + inUse).toBeGreaterThan(0);
      expect(idle + inUse).toBeLessThanOrEqual(10);
      expect(sample(text, 'cats_db_pool_waiting')).toBe(0);
      expect(sample(text, 'cats_db_pool_wait_seconds_count')).toBeGreaterThan(0);
      expect(text).not.toContain('cats_db_embedded');
    } else {
      expect(sample(text, 'cats_db_embedded_in_flight')).toBe(0);
      expect(sample(text, 'cats_db_embedded_request_seconds_count')).toBeGreaterThan(0);
      expect(text).not.toContain('cats_db_pool');
    }
  });

  it('shows requests waiting for the database while transactions hold every connection, and their wait', async () => {
    const postgres = t.database.kind === 'postgres';
    const waitSum = postgres ? 'cats_db_pool_wait_seconds_sum' : 'cats_db_embedded_request_seconds_sum';
    const before = await scrape();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let holding = 0;
    // The pool's ten connections (buildTestApp), or PGlite's one: each held by an open transaction.
    const holders = Array.from({ length: postgres ? 10 : 1 }, () =>
      t.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        holding += 1;
        await gate;
      }),
    );
    await expect.poll(() => holding).toBe(holders.length);
    const waiting = t.database.ping();
    const during = async () => {
      const text = await scrape();
      return postgres ? sample(text, 'cats_db_pool_waiting') : sample(text, 'cats_db_embedded_in_flight');
    };
    await expect.poll(during).toBeGreaterThanOrEqual(1);
    if (postgres) expect(sample(await scrape(), 'cats_db_pool_connections', { state: 'in_use' })).toBe(10);
    await new Promise((resolve) => setTimeout(resolve, 150));
    release();
    await Promise.all([...holders, waiting]);
    const after = await scrape();
    // The ping waited at least the 150 ms the connections were held.
    expect((sample(after, waitSum) ?? 0) - (sample(before, waitSum) ?? 0)).toBeGreaterThanOrEqual(0.14);
    expect(await during()).toBe(0);
  });

  it('shows image processing: the queue, and the time of each image', async () => {
    const user = await createUser(t.db);
    const before = await scrape();
    await uploadPost(t.app, await authHeader(t.app, user.id), await smallJpeg(7));
    const after = await scrape();
    const count = (text: string) => sample(text, 'cats_image_processing_seconds_count') ?? 0;
    expect(count(after) - count(before)).toBe(1);
    expect(sample(after, 'cats_image_processing_seconds_sum')).toBeGreaterThan(0);
    expect(sample(after, 'cats_image_queue_wait_seconds_count')).toBe(count(after));
    expect(sample(after, 'cats_image_queue_length')).toBe(0);
    expect(sample(after, 'cats_image_processing')).toBe(0);
    expect(sample(after, 'cats_uploads_in_transit')).toBe(0);
  });

  it('shows the open notification streams', async () => {
    const user = await createUser(t.db);
    const ticket = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/stream-ticket',
      headers: await authHeader(t.app, user.id),
    });
    expect(sample(await scrape(), 'cats_notification_streams_open')).toBe(0);
    const query = new URLSearchParams({ ticket: (ticket.json() as { ticket: string }).ticket });
    const stream = await openSse(`${base}/api/notifications/stream?${query}`);
    try {
      expect(stream.status).toBe(200);
      await stream.next();
      expect(sample(await scrape(), 'cats_notification_streams_open')).toBe(1);
    } finally {
      stream.close();
    }
    await expect.poll(async () => sample(await scrape(), 'cats_notification_streams_open')).toBe(0);
    expect(sample(await scrape(), 'cats_draining')).toBe(0);
  });
});

describe('metrics on METRICS_PORT', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    t = await buildTestApp({ METRICS_PORT: String(port) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves /metrics on 127.0.0.1 only, without a token, and not on the main port', async () => {
    expect(t.app.metricsAddress()).toMatchObject({ address: '127.0.0.1', port });
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('process_resident_memory_bytes');
    expect(sample(text, 'cats_notification_streams_open')).toBe(0);
    const other = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ message: 'Not found' });

    const mainPort = (t.app.server.address() as AddressInfo).port;
    const main = await fetch(`http://127.0.0.1:${mainPort}/metrics`);
    expect(main.status).toBe(404);
    expect(await main.json()).toEqual({ message: 'Not found' });
    // Requests on the main port are counted; the metrics listener's own are not requests of the app.
    await fetch(`http://127.0.0.1:${mainPort}/api/health`);
    const again = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(
      sample(again, 'http_requests_total', { route: '/api/health', method: 'GET', status_code: '200' }),
    ).toBe(1);
  });

  it('does not answer on another interface of this machine', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (!external) return; // a machine with loopback only: 127.0.0.1 is all there is
    await expect(
      fetch(`http://${external.address}:${port}/metrics`, { signal: AbortSignal.timeout(2000) }),
    ).rejects.toThrow();
  });

  it('stops listening when the app closes', async () => {
    const other = await buildTestApp({ METRICS_PORT: String(await freePort()) });
    const address = other.app.metricsAddress()!;
    await other.close();
    await expect(fetch(`http://127.0.0.1:${address.port}/metrics`)).rejects.toThrow();
  });
});
