import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/client.ts';
import { isDatabaseUnavailable, isUnstorableText } from '../../src/lib/db-errors.ts';
import { LocalStorage } from '../../src/media/local-storage.ts';
import { signStreamTicket } from '../../src/modules/notifications/stream-ticket.ts';
import { SERVICE_UNAVAILABLE_MESSAGE } from '../../src/plugins/error-handler.ts';

/**
 * The database away (PostgreSQL restarting, a network split): every request that needs it is answered
 * at once with 503 {message} and Retry-After, never a hang or a 500, and the process keeps serving.
 * The real restart of a PostgreSQL server mid-load is e2e/db-restart.e2e.ts.
 */

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 1));
    });
  });
}

describe('requests while the database is unreachable', () => {
  let app: FastifyInstance;
  let database: DatabaseHandle;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cats-outage-'));
    const url = `postgres://cats@127.0.0.1:${await closedPort()}/cats`;
    database = await openDatabase({ databaseUrl: url, dataDir });
    app = await buildApp({
      config: testConfig({ DATA_DIR: dataDir, DATABASE_URL: url }),
      database,
      storage: new LocalStorage(join(dataDir, 'media')),
      jwtSecret: randomBytes(32).toString('hex'),
      webDistDir: null,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 {message} with Retry-After, fast, on every kind of route', async () => {
    const token = `Bearer ${await app.accessTokens.sign(randomUUID())}`;
    const requests = [
      { method: 'GET' as const, url: '/api/feed/1', headers: { authorization: token } },
      {
        method: 'PUT' as const,
        url: `/api/posts/likePost/${randomUUID()}`,
        headers: { authorization: token },
        payload: {},
      },
      {
        method: 'POST' as const,
        url: '/api/login',
        payload: { email: 'cat@example.com', password: 'Whiskers123' },
      },
      {
        method: 'POST' as const,
        url: '/api/signup',
        payload: { username: 'outage_cat', email: 'o@example.com', password: 'Whiskers123' },
      },
      { method: 'GET' as const, url: '/api/refresh', cookies: { jwt: 'a'.repeat(43) } },
      // A notification stream with a good ticket: 503 before anything is streamed, and EventSource's
      // owner takes a new ticket and tries again (issue 25).
      {
        method: 'GET' as const,
        url: `/api/notifications/stream?lastEventId=3&ticket=${signStreamTicket(
          app.sessionKeys.streamTicket,
          { userId: randomUUID(), generation: 0 },
          new Date(Date.now() + 60_000),
        )}`,
      },
    ];
    for (const request of requests) {
      const started = Date.now();
      const res = await app.inject(request);
      expect(res.statusCode, request.url).toBe(503);
      expect(res.json(), request.url).toEqual({ message: SERVICE_UNAVAILABLE_MESSAGE });
      expect(res.headers['retry-after'], request.url).toBe('5');
      expect(Date.now() - started, request.url).toBeLessThan(3500);
    }
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({ status: 'unavailable', message: 'Database unavailable' });
    // Nothing that needs no database is affected.
    expect((await app.inject({ method: 'GET', url: '/api/config/map' })).statusCode).toBe(200);
  });
});

describe('database error classification', () => {
  const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause });

  it.each([
    ['refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    [
      'refused on every address',
      Object.assign(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })], ''), {}),
    ],
    [
      'admin shutdown 57P01',
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ],
    ['starting up 57P03', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['connection terminated', new Error('Connection terminated unexpectedly')],
    ['connect timeout', new Error('timeout exceeded when trying to connect')],
    ['reset', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['too many connections', Object.assign(new Error('sorry, too many clients already'), { code: '53300' })],
  ])('treats %s as the database being unavailable, also when wrapped', (_label, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(isDatabaseUnavailable(wrapped(err))).toBe(true);
  });

  it('does not mistake other errors for an outage', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(
      isUnstorableText(wrapped(Object.assign(new Error('invalid byte sequence'), { code: '22021' }))),
    ).toBe(true);
    expect(isUnstorableText(new Error('boom'))).toBe(false);
  });
});
