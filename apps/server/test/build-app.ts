import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig, type Config } from '../src/config.ts';
import { openDatabase, type Database, type DatabaseHandle } from '../src/db/client.ts';
import { openPglite } from '../src/db/pglite-thread.ts';
import { LocalStorage } from '../src/media/local-storage.ts';
import type { MediaStorage } from '../src/media/storage.ts';
import { seedDemoUser } from '../src/seed/seed.ts';

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  database: DatabaseHandle;
  storage: MediaStorage;
  /** Root of the local media store, to assert on files. */
  mediaDir: string;
  config: Config;
  /** The key the app signs access tokens with, to mint tokens the app itself never would. */
  jwtSecret: string;
  /** The PostgreSQL database's URL (to open another instance on it), or null on PGlite. */
  databaseUrl: string | null;
  close(): Promise<void>;
}

async function openTestDatabase(
  dataDir: string,
): Promise<{ handle: DatabaseHandle; url: string | null; drop: () => Promise<void> }> {
  const template = inject('pgTemplate');
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (template && adminUrl) {
    const name = `cats_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const handle = await openDatabase({ databaseUrl: url.toString(), dataDir, poolSize: 10 });
    return {
      handle,
      url: url.toString(),
      drop: async () => {
        const cleanup = new pg.Client({ connectionString: adminUrl });
        await cleanup.connect();
        await cleanup.query(`drop database if exists ${name} with (force)`);
        await cleanup.end();
      },
    };
  }
  const client = await openPglite({ loadDataDir: readFileSync(inject('pgliteDump')) });
  return { handle: await openDatabase({ dataDir }, client), url: null, drop: async () => {} };
}

/**
 * A full app in process on a fresh database (PGlite from the migrated template, or a fresh PostgreSQL
 * database when TEST_DATABASE_URL is set) and a fresh media directory. Close it in afterAll.
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  opts: {
    webDistDir?: string;
    streamHeartbeatMs?: number;
    /** Another storage than local disk under the data directory (an S3 bucket on s3rver). */
    storage?: MediaStorage;
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cats-app-'));
  const mediaDir = join(dataDir, 'media');
  const config = testConfig({ DATA_DIR: dataDir, ...env });
  const { handle, url, drop } = await openTestDatabase(dataDir);
  const storage = opts.storage ?? new LocalStorage(mediaDir);
  await seedDemoUser({ db: handle.db, storage, log: undefined as never });
  const jwtSecret = randomBytes(32).toString('hex');
  const app = await buildApp({
    config,
    database: handle,
    storage,
    jwtSecret,
    webDistDir: opts.webDistDir ?? null,
    ...(opts.streamHeartbeatMs ? { streamHeartbeatMs: opts.streamHeartbeatMs } : {}),
  });
  await app.ready();
  return {
    app,
    db: handle.db,
    database: handle,
    storage,
    mediaDir,
    config,
    jwtSecret,
    databaseUrl: url,
    close: async () => {
      await app.close();
      await handle.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second instance of the app on `t`'s database, as another server process would be: on PostgreSQL
 * its own pool and listening connection; on PGlite, which one process holds, the same database in this
 * process. Its own media directory; the same configuration and signing key. Close it before the test
 * ends (it leaves `t` open).
 */
export async function secondInstance(
  t: TestApp,
  opts: { poolSize?: number } = {},
): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cats-app-b-'));
  const database = t.databaseUrl
    ? await openDatabase({ databaseUrl: t.databaseUrl, dataDir, poolSize: opts.poolSize ?? 2 })
    : t.database;
  const release = async () => {
    if (database !== t.database) await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const app = await buildApp({
      config: t.config,
      database,
      storage: new LocalStorage(join(dataDir, 'media')),
      jwtSecret: t.jwtSecret,
      webDistDir: null,
    });
    await app.ready();
    return {
      app,
      close: async () => {
        await app.close();
        await release();
      },
    };
  } catch (err) {
    await release();
    throw err;
  }
}

export const uniqueSuffix = () => randomUUID().slice(0, 8);
