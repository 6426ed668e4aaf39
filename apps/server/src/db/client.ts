import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Repositories accept either the root database or a transaction. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  ping(): Promise<void>;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/** drizzle-kit's output folder, found from this file whether it runs from src/ or a bundled dist/. */
export function migrationsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    const candidate = join(dir, 'drizzle');
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('Could not find the drizzle migrations folder');
}

/**
 * PGlite is a single connection. It already runs every query and transaction exclusively, so requests
 * never interleave inside a transaction; the one way to hang it is a query on the root database issued
 * from inside a transaction callback (it would wait for the transaction that waits for it). We mark
 * transaction callbacks with AsyncLocalStorage and turn that mistake into an immediate error.
 */
const insideTransaction = new AsyncLocalStorage<true>();

export class NestedRootQueryError extends Error {
  override name = 'NestedRootQueryError';
  constructor() {
    super('A query on the root database was issued inside a transaction; use the transaction (tx) instead');
  }
}

function guardSingleConnection(client: PGlite): PGlite {
  const guarded = ['query', 'exec', 'sql', 'transaction'] as const;
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (!(guarded as readonly (string | symbol)[]).includes(prop)) return value.bind(target);
      return (...args: unknown[]) => {
        if (insideTransaction.getStore()) return Promise.reject(new NestedRootQueryError());
        if (prop === 'transaction') {
          const [callback] = args as [(tx: unknown) => Promise<unknown>];
          return target.transaction((tx) => insideTransaction.run(true, () => callback(tx)));
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

export interface PgliteOptions {
  dataDir?: string;
  /** A dumped data directory (tar) to start from, e.g. a migrated template in tests. */
  loadDataDir?: Blob;
}

/**
 * Start-up settings that keep the embedded server small (measured by bench/pglite-memory.ts, recorded in
 * docs/performance.md). shared_buffers is what counts: PGlite's 128 MB default costs ~130 MB of resident
 * memory over 8 MB, and 8 MB answered the feed of a 100,000-post dataset as fast as 16 or 32 MB.
 * work_mem (PostgreSQL's default, made explicit) and maintenance_work_mem bound how far one sort or one
 * index build can grow the WebAssembly heap, which never shrinks.
 */
const PGLITE_START_PARAMS = [
  '-c',
  'shared_buffers=8MB',
  '-c',
  'work_mem=4MB',
  '-c',
  'maintenance_work_mem=16MB',
];

/**
 * One full garbage collection, also without node --expose-gc (V8's documented flag, exposed for this
 * call only through a fresh context).
 */
export function collectGarbage(): void {
  let gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

export async function openPglite(options: PgliteOptions): Promise<PGlite> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    startParams: [
      ...(PGlite as unknown as { defaultStartParams: string[] }).defaultStartParams,
      ...PGLITE_START_PARAMS,
    ],
  });
  // Opening leaves hundreds of MB of garbage behind (the file-system bundle, the WebAssembly module's
  // bytes and, on a new data directory, initdb's): an idle server would keep it resident for a long
  // time. One collection now returns it (docs/performance.md, "PGlite settings").
  collectGarbage();
  return client;
}

/** pg_advisory_lock key for migrations (any constant; this one spells "cats" in ASCII). */
const MIGRATION_LOCK_KEY = 0x63617473;

export async function openDatabase(
  opts: { databaseUrl?: string | undefined; dataDir: string; poolSize?: number },
  pglite?: PGlite,
): Promise<DatabaseHandle> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: 3000,
      idleTimeoutMillis: 30_000,
    });
    // A lost connection is reported per query; an idle client's error must not crash the process.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    let closed = false;
    return {
      db,
      kind: 'postgres',
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      migrate: async () => {
        // Instances started together (a rollout) migrate one at a time: the lock is held on a connection
        // of its own, and whoever comes second finds nothing left to do.
        const lock = new pg.Client({ connectionString: opts.databaseUrl, connectionTimeoutMillis: 3000 });
        await lock.connect();
        try {
          await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
          await migratePg(db as never, { migrationsFolder: migrationsFolder() });
        } finally {
          await lock.end();
        }
      },
      close: async () => {
        if (closed) return;
        closed = true;
        await pool.end();
      },
    };
  }
  const client = pglite ?? (await openPglite({ dataDir: resolve(opts.dataDir, 'pglite') }));
  const db = drizzlePglite(guardSingleConnection(client), { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    migrate: async () => {
      await migratePglite(db as never, { migrationsFolder: migrationsFolder() });
    },
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}
