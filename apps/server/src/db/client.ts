import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite, QueryOptions } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import {
  ANNOUNCE_AFTER_COMMIT_OPTION,
  announcingClient,
  Announcer,
  NOTIFY_BATCH_SQL,
} from './announce-after-commit.ts';
import { upkeep, type UpkeepResult } from './embedded-upkeep.ts';
import { listen, type Listener } from './listen.ts';
import { openPglite, type PgliteClient, type PgliteTransaction } from './pglite-thread.ts';
import * as schema from './schema/index.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Repositories accept either the root database or a transaction. */
export type Executor = Database | Transaction;

/** How busy the database connections are now, read by the metrics (modules/metrics/metrics.ts). */
export type DatabaseUsage =
  | {
      kind: 'postgres';
      /** Connections open, idle among them, the pool's maximum, and checkouts waiting for one. */
      total: number;
      idle: number;
      max: number;
      waiting: number;
    }
  | {
      kind: 'pglite';
      /** Requests sent to the one embedded connection's thread and not answered yet. */
      inFlight: number;
    };

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  ping(): Promise<void>;
  /** Applies pending migrations, all in one transaction (a failure leaves the schema as it was). */
  migrate(folder?: string): Promise<void>;
  /**
   * The embedded database only: its data directory as a tar, with the rows of `sql` read at that same
   * moment (backups: modules/backup). Absent on PostgreSQL, where pg_dump takes the snapshot.
   */
  snapshot?(sql: string[]): Promise<{ dump: Uint8Array; rows: Record<string, unknown>[][] }>;
  /** Garbage collection of the database's own thread, where it has one (PGlite). */
  collectGarbage(): Promise<void>;
  /**
   * Vacuums and analyses the tables that need it, as autovacuum would (embedded-upkeep.ts). PGlite has
   * no autovacuum; on PostgreSQL autovacuum does this and the call does nothing.
   */
  upkeep(): Promise<UpkeepResult>;
  /**
   * Calls `listener` if the database is gone for good (PGlite's thread stopped). A PostgreSQL pool
   * reconnects by itself, so it never calls it.
   */
  onLost(listener: (error: Error) => void): void;
  /**
   * Calls `listener` when notification announcements made after commit (announce-after-commit.ts)
   * could not be sent and are tried again; `dropped` of them were given up. PGlite never calls it: its
   * NOTIFYs go with their transaction.
   */
  onAnnounceFailed(listener: (error: Error, dropped: number) => void): void;
  /**
   * Hears what any connection NOTIFYs on `channel`, other instances' included (PostgreSQL: listen.ts;
   * PGlite, one process's own database, hears its own NOTIFYs: pglite-worker.ts). `onResume` is called
   * when listening starts again after a time in which NOTIFYs may have been missed (PostgreSQL's
   * listening connection was lost or never made); PGlite never misses one.
   */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onError?: (error: Error) => void,
    onResume?: () => void,
  ): Promise<Listener>;
  close(): Promise<void>;
  /** The connections' use now (metrics). */
  usage(): DatabaseUsage;
  /**
   * Calls `listener` with each wait for the database in seconds (metrics): on PostgreSQL the time to
   * check a connection out of the pool; on PGlite a request's time from sending to answer (one
   * connection: waiting behind the others included). Returns a function that stops it.
   */
  onWait(listener: (seconds: number) => void): () => void;
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
 * PGlite is a single connection, on a thread of its own (pglite-thread.ts). It runs every statement and
 * transaction exclusively, so requests never interleave inside a transaction; the one way to hang it
 * is a query on the root database issued from inside a transaction callback (it would wait for the
 * transaction that waits for it). We mark transaction callbacks with AsyncLocalStorage and turn that
 * mistake into an immediate error.
 */
const insideTransaction = new AsyncLocalStorage<true>();

export class NestedRootQueryError extends Error {
  override name = 'NestedRootQueryError';
  constructor() {
    super('A query on the root database was issued inside a transaction; use the transaction (tx) instead');
  }
}

/** What drizzle's PGlite driver calls, and all the guard passes on. */
type DrizzlePgliteClient = Pick<PgliteClient, 'query' | 'exec' | 'transaction'>;

function guardSingleConnection(client: PgliteClient): DrizzlePgliteClient {
  const outside =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      insideTransaction.getStore() ? Promise.reject(new NestedRootQueryError()) : run(...args);
  return {
    query: outside((sql: string, params?: unknown[], options?: QueryOptions) =>
      client.query(sql, params, options),
    ),
    exec: outside((sql: string) => client.exec(sql)),
    transaction: outside(<T>(callback: (tx: PgliteTransaction) => Promise<T>) =>
      client.transaction((tx) => insideTransaction.run(true, () => callback(tx))),
    ) as PgliteClient['transaction'],
  } as DrizzlePgliteClient;
}

/** pg_advisory_lock key for migrations (any constant; this one spells "cats" in ASCII). */
const MIGRATION_LOCK_KEY = 0x63617473;

export async function openDatabase(
  opts: { databaseUrl?: string | undefined; dataDir: string; poolSize?: number },
  pglite?: PgliteClient,
): Promise<DatabaseHandle> {
  const { databaseUrl } = opts;
  if (databaseUrl) {
    const announceFailed = new Set<(error: Error, dropped: number) => void>();
    const announcer = new Announcer({
      send: async (payloads) => {
        await pool.query(NOTIFY_BATCH_SQL, [payloads]);
      },
      onError: (error, dropped) => announceFailed.forEach((listener) => listener(error, dropped)),
    });
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: 3000,
      idleTimeoutMillis: 30_000,
      // Notification announcements wait for their transaction's commit (migration 0015).
      Client: announcingClient((payloads) => announcer.announce(payloads)),
      options: ANNOUNCE_AFTER_COMMIT_OPTION,
    });
    // A lost connection is reported per query; an idle client's error must not crash the process.
    pool.on('error', () => {});
    const waitListeners = timePoolCheckouts(pool);
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    let closed = false;
    return {
      db,
      kind: 'postgres',
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      migrate: async (folder = migrationsFolder()) => {
        // Instances started together (a rollout) migrate one at a time: the lock is held on a connection
        // of its own, and whoever comes second finds nothing left to do.
        const lock = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 3000 });
        await lock.connect();
        try {
          await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
          await migratePg(db as never, { migrationsFolder: folder });
        } finally {
          await lock.end();
        }
      },
      collectGarbage: async () => {},
      upkeep: async () => ({ vacuumed: [], analyzed: [] }),
      onLost: () => {},
      onAnnounceFailed: (listener) => announceFailed.add(listener),
      listen: (channel, onMessage, onError, onResume) =>
        listen(databaseUrl, channel, onMessage, onError, onResume),
      usage: () => ({
        kind: 'postgres',
        total: pool.totalCount,
        idle: pool.idleCount,
        max: opts.poolSize ?? 10,
        waiting: pool.waitingCount,
      }),
      onWait: (listener) => {
        waitListeners.add(listener);
        return () => waitListeners.delete(listener);
      },
      close: async () => {
        if (closed) return;
        closed = true;
        await announcer.close();
        await pool.end();
      },
    };
  }
  const client = pglite ?? (await openPglite({ dataDir: resolve(opts.dataDir, 'pglite') }));
  // drizzle's PGlite driver calls query, exec and transaction only, which the thread's client has.
  const db = drizzlePglite({
    client: guardSingleConnection(client) as unknown as PGlite,
    schema,
  }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    migrate: async (folder = migrationsFolder()) => {
      await migratePglite(db as never, { migrationsFolder: folder });
    },
    snapshot: async (statements) => {
      const { dump, results } = await client.snapshot(statements);
      return { dump, rows: results.map((r) => r.rows as Record<string, unknown>[]) };
    },
    collectGarbage: () => client.collectGarbage(),
    upkeep: () => upkeep(client),
    onLost: (listener) => client.onLost(listener),
    onAnnounceFailed: () => {},
    // The same NOTIFYs as on PostgreSQL, from this process's one database (pglite-worker.ts).
    listen: async (channel, onMessage) => {
      const stop = await client.listen(channel, onMessage);
      return { close: async () => stop() };
    },
    close: async () => {
      await client.close();
    },
    usage: () => ({ kind: 'pglite', inFlight: client.inFlight }),
    onWait: (listener) => client.onAnswered(listener),
  };
}

/**
 * Times every checkout of a pool connection (drizzle's queries and transactions all go through
 * pool.connect) for the metrics' wait histogram. A one-line wrapper rather than pg's 'acquire' event,
 * which says when a checkout ended but not when it began.
 */
function timePoolCheckouts(pool: pg.Pool): Set<(seconds: number) => void> {
  const listeners = new Set<(seconds: number) => void>();
  const connect = pool.connect.bind(pool) as (
    callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: () => void) => void,
  ) => Promise<pg.PoolClient> | undefined;
  const observe = (startedAt: number) => {
    if (listeners.size === 0) return;
    const seconds = (performance.now() - startedAt) / 1000;
    for (const listener of listeners) listener(seconds);
  };
  pool.connect = ((callback?: Parameters<typeof connect>[0]) => {
    const startedAt = performance.now();
    if (callback) {
      return connect((err, client, done) => {
        observe(startedAt);
        callback(err, client, done);
      });
    }
    return connect()!.then(
      (client) => {
        observe(startedAt);
        return client;
      },
      (err: unknown) => {
        observe(startedAt);
        throw err;
      },
    );
  }) as typeof pool.connect;
  return listeners;
}
