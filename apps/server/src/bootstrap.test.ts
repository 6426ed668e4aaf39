import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD, DEMO_USER_ID } from '@cats/contracts';
import { bootstrap } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import { SAMPLE_PASSWORD, SAMPLE_USERS } from './seed/sample-content.ts';

const LUNA = SAMPLE_USERS.find((u) => u.email === 'luna@example.com')!;

/** A production start as server.ts does it: embedded PGlite in a fresh DATA_DIR, migrated, seeded. */
async function productionStart(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'cats-boot-'));
  const app = await bootstrap(
    loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'p'.repeat(40),
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      ...env,
    }),
  );
  cleanups.push(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return app;
}
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const login = (app: FastifyInstance, email: string, password: string) =>
  app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });

describe('production start (issue 23)', () => {
  it('seeds the demo account only: no sample neighbour with the published password', async () => {
    const app = await productionStart();
    const demo = await login(app, DEMO_EMAIL, DEMO_PASSWORD);
    expect(demo.statusCode).toBe(200);
    expect(demo.json()).toMatchObject({ userId: DEMO_USER_ID });
    const luna = await login(app, LUNA.email, SAMPLE_PASSWORD);
    expect(luna.statusCode).toBe(401);
    expect(luna.json()).toEqual({ message: expect.any(String) });
    const feed = await app.inject({
      url: '/api/feed/1',
      headers: { authorization: `Bearer ${demo.json<{ accessToken: string }>().accessToken}` },
    });
    expect(feed.json<{ posts: unknown[] }>().posts).toEqual([]);
  }, 60_000);

  it('seeds the sample neighbourhood too when SEED=sample says so', async () => {
    const app = await productionStart({ SEED: 'sample' });
    expect((await login(app, DEMO_EMAIL, DEMO_PASSWORD)).statusCode).toBe(200);
    const luna = await login(app, LUNA.email, SAMPLE_PASSWORD);
    expect(luna.statusCode).toBe(200);
    expect(luna.json()).toMatchObject({ userId: LUNA.id });
  }, 120_000);
});
