import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readinessResponseSchema, readinessUnavailableSchema } from '@cats/contracts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { freePort } from '../../../test/free-port.ts';
import { redisAnswers } from '../../../test/redis-answers.ts';
import { READY_CHECK_TIMEOUT_MS } from './readiness.ts';

/** Redis on the development and CI machines' default port; the check against a live Redis skips elsewhere. */
const redisHere = await redisAnswers();

const ready = (t: TestApp) => t.app.inject({ method: 'GET', url: '/api/health/ready' });

describe('readiness', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 200 ready with every check when the database and the media directory answer', async () => {
    const res = await ready(t);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { database: 'ok', storage: 'ok' } });
    expect(readinessResponseSchema.parse(res.json())).toBeTruthy();
    expect(res.headers['cache-control']).toBe('no-store');
    // The storage probe leaves nothing behind in the media directory.
    expect(readdirSync(t.mediaDir).filter((name) => name.startsWith('.ready-probe'))).toEqual([]);
  });

  it('answers 503 naming the storage when the media directory cannot be written, and 200 once it can', async () => {
    // Root may write anywhere whatever the mode, so the directory becomes a file: no write can succeed.
    rmSync(t.mediaDir, { recursive: true, force: true });
    writeFileSync(t.mediaDir, 'not a directory');
    try {
      const res = await ready(t);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'unavailable',
        message: 'Not ready: storage unavailable',
        checks: { database: 'ok', storage: 'failed' },
      });
      expect(readinessUnavailableSchema.parse(res.json())).toBeTruthy();
      // Liveness is about the process and its database: unaffected.
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      rmSync(t.mediaDir, { force: true });
      mkdirSync(t.mediaDir, { recursive: true });
    }
    expect((await ready(t)).statusCode).toBe(200);
  });

  it('gives up on a check that does not answer within its timeout', async () => {
    const probe = t.storage.probe.bind(t.storage);
    t.storage.probe = () => new Promise(() => {});
    try {
      const started = Date.now();
      const res = await ready(t);
      const took = Date.now() - started;
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ checks: { database: 'ok', storage: 'failed' } });
      expect(took).toBeGreaterThanOrEqual(READY_CHECK_TIMEOUT_MS - 50);
      expect(took).toBeLessThan(READY_CHECK_TIMEOUT_MS + 2000);
    } finally {
      t.storage.probe = probe;
    }
  });

  it('answers 503 draining while the server drains, when liveness and every other route still answer', async () => {
    const other = await buildTestApp();
    try {
      other.app.readiness.startDraining();
      const res = await ready(other);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'draining', message: 'The server is shutting down', checks: {} });
      expect(res.headers.connection).toBe('close');
      const live = await other.app.inject({ method: 'GET', url: '/api/health' });
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ status: 'ok' });
      const config = await other.app.inject({ method: 'GET', url: '/api/config/map' });
      expect(config.statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('readiness when the database is gone', () => {
  it('answers 503 naming the database', async () => {
    const t = await buildTestApp();
    try {
      await t.database.close();
      const res = await ready(t);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'unavailable',
        message: 'Not ready: database unavailable',
        checks: { database: 'failed', storage: 'ok' },
      });
    } finally {
      await t.close();
    }
  });
});

describe('readiness with REDIS_URL', () => {
  it('answers 503 naming Redis when it is configured but nothing listens there', async () => {
    const t = await buildTestApp({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    try {
      const res = await ready(t);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'unavailable',
        message: 'Not ready: redis unavailable',
        checks: { database: 'ok', storage: 'ok', redis: 'failed' },
      });
    } finally {
      await t.close();
    }
  });

  it.runIf(redisHere)('answers 200 with a Redis check when Redis answers', async () => {
    const t = await buildTestApp({ REDIS_URL: 'redis://127.0.0.1:6379' });
    try {
      const res = await ready(t);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ status: 'ready', checks: { database: 'ok', storage: 'ok', redis: 'ok' } });
    } finally {
      await t.close();
    }
  });
});
