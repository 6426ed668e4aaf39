/**
 * The embedded database on a thread of its own (pglite-worker.ts), as the part of PGlite's interface
 * drizzle's PGlite driver uses: query, exec and transaction. The server's thread stays free to read and
 * answer requests while PostgreSQL runs; why, and what it changed, is in docs/performance.md.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import type {
  PgliteReply,
  PgliteRequest,
  PgliteSnapshot,
  PgliteWorkerData,
  SerializedError,
} from './pglite-worker.ts';

export interface PgliteOptions {
  dataDir?: string;
  /** A dumped data directory (tar) to start from, e.g. a migrated template in tests. */
  loadDataDir?: Uint8Array;
}

/** What a transaction's callback gets: statements inside the transaction. */
export interface PgliteTransaction {
  query<T = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
}

export interface PgliteClient extends PgliteTransaction {
  transaction<T>(callback: (tx: PgliteTransaction) => Promise<T>): Promise<T>;
  /** The data directory as an uncompressed tar (to start other databases from, as tests do). */
  dumpDataDir(): Promise<Uint8Array>;
  /**
   * The data directory as a tar and the rows of each statement of `sql`, read with no transaction in
   * between: the rows describe exactly what the dump holds (a backup's media list).
   */
  snapshot(sql: string[]): Promise<PgliteSnapshot>;
  /** One full garbage collection of the database thread's heap. */
  collectGarbage(): Promise<void>;
  /** Calls `listener` if the database thread stops other than by close(): every statement fails after. */
  onLost(listener: (error: Error) => void): void;
  /**
   * Hears the NOTIFYs on `channel` once their transaction commits (the database LISTENs from the first
   * call on). Returns a function that stops this listener.
   */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => void>;
  close(): Promise<void>;
  readonly closed: boolean;
  /** Requests sent to the database thread and not answered yet: one runs, the others wait (metrics). */
  readonly inFlight: number;
  /**
   * Calls `listener` with each answered request's seconds from sending to answer (its wait included);
   * returns a function that stops it. For metrics (modules/metrics/metrics.ts).
   */
  onAnswered(listener: (seconds: number) => void): () => void;
}

type Request = PgliteRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

/** Started from source (tsx, Vitest) the worker is TypeScript; in the bundle it sits beside server.js. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

let postgresModule: Promise<WebAssembly.Module> | undefined;
/** Node's WebAssembly global: the server's TypeScript libraries (no DOM) declare its types only. */
const wasm = (
  globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } }
).WebAssembly;

/** PGlite's PostgreSQL, compiled once for this process (test processes only: see openPglite). */
function compiledPostgres(): Promise<WebAssembly.Module> {
  postgresModule ??= wasm.compile(
    readFileSync(
      join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), 'pglite.wasm'),
    ),
  );
  return postgresModule;
}

export async function openPglite(options: PgliteOptions = {}): Promise<PgliteClient> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const workerData: PgliteWorkerData = {
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  };
  // The tests' global setup bundles the worker once (test/global-setup.ts): a thread that loads plain
  // JavaScript starts in ~0.35 s less CPU than one that registers tsx and transpiles, on every one of
  // the ~150 databases a test run opens.
  const bundled = FROM_SOURCE ? process.env.CATS_TEST_PGLITE_WORKER : undefined;
  // A test process opens a database per test file: PostgreSQL's WebAssembly is compiled once per
  // process and handed to each thread (~0.25 s of CPU an open, docs/performance.md, "CI").
  if (bundled) workerData.wasmModule = await compiledPostgres();
  const worker = bundled
    ? new Worker(bundled, { workerData })
    : FROM_SOURCE
      ? new Worker(typeScriptWorker(new URL('./pglite-worker.ts', import.meta.url)), {
          eval: true,
          workerData,
        })
      : new Worker(new URL('./pglite-worker.js', import.meta.url), { workerData });
  const client = new PgliteThread(worker);
  await client.ready;
  return client;
}

/**
 * A worker that loads a TypeScript module through tsx (a development dependency). On Node 20 a worker
 * given `--import tsx` still could not load a .ts entry, so it registers tsx itself, then imports it.
 */
function typeScriptWorker(module: URL): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  const api = pathToFileURL(join(dirname(manifest), exports['./esm/api']!.import.default)).href;
  return `import(${JSON.stringify(api)}).then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); });`;
}

/** Exported for tests, which drive it with a stand-in worker; openPglite() is the way to start one. */
export class PgliteThread implements PgliteClient {
  readonly ready: Promise<void>;
  #worker: Worker;
  #pending = new Map<
    number,
    { resolve: (value: never) => void; reject: (error: Error) => void; sentAt: number }
  >();
  #answeredListeners = new Set<(seconds: number) => void>();
  #nextId = 1;
  /** Why the thread is gone: every request after that fails with it. */
  #stopped: Error | null = null;
  #closing: Promise<void> | null = null;
  #lostListeners: ((error: Error) => void)[] = [];
  #channelListeners = new Map<string, Set<(payload: string) => void>>();

  constructor(worker: Worker) {
    this.#worker = worker;
    this.ready = new Promise((resolve, reject) => {
      worker.on('message', (reply: PgliteReply) => {
        if ('ready' in reply) {
          resolve();
          this.#idle();
          return;
        }
        if ('notification' in reply) {
          const { channel, payload } = reply.notification;
          for (const listener of this.#channelListeners.get(channel) ?? []) listener(payload);
          return;
        }
        const pending = this.#pending.get(reply.id);
        if (!pending) return;
        this.#pending.delete(reply.id);
        if (this.#answeredListeners.size > 0) {
          const seconds = (performance.now() - pending.sentAt) / 1000;
          for (const listener of this.#answeredListeners) listener(seconds);
        }
        if ('error' in reply) pending.reject(deserializeError(reply.error));
        else pending.resolve(reply.result as never);
        this.#idle();
      });
      const stop = (error: Error) => {
        if (this.#stopped) return;
        this.#stopped = error;
        reject(error);
        for (const { reject: fail } of this.#pending.values()) fail(error);
        this.#pending.clear();
        if (!this.#closing) for (const listener of this.#lostListeners) listener(error);
      };
      worker.on('error', (error) =>
        stop(new Error(`The embedded database stopped: ${error.message}`, { cause: error })),
      );
      worker.on('exit', (code) => stop(new Error(`The embedded database stopped (exit code ${code})`)));
    });
  }

  onLost(listener: (error: Error) => void): void {
    this.#lostListeners.push(listener);
  }

  async listen(channel: string, onMessage: (payload: string) => void): Promise<() => void> {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
    let listeners = this.#channelListeners.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.#channelListeners.set(channel, listeners);
    }
    listeners.add(onMessage);
    await this.#request({ op: 'listen', channel });
    return () => {
      listeners.delete(onMessage);
    };
  }

  get inFlight(): number {
    return this.#pending.size;
  }

  onAnswered(listener: (seconds: number) => void): () => void {
    this.#answeredListeners.add(listener);
    return () => this.#answeredListeners.delete(listener);
  }

  get closed(): boolean {
    return this.#stopped !== null || this.#closing !== null;
  }

  async query<T>(sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    return this.#request(queryRequest(sql, params, options, undefined));
  }

  exec(sql: string): Promise<Results[]> {
    return this.#request({ op: 'exec', sql });
  }

  async transaction<T>(callback: (tx: PgliteTransaction) => Promise<T>): Promise<T> {
    const id = this.#nextId++;
    await this.#request({ op: 'begin', tx: id });
    const tx: PgliteTransaction = {
      query: async (sql, params = [], options) => this.#request(queryRequest(sql, params, options, id)),
      exec: (sql) => this.#request({ op: 'exec', sql, tx: id }),
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      // The callback's error is the one to report; a failed ROLLBACK means the thread is gone anyway.
      await this.#request({ op: 'rollback', tx: id }).catch(() => {});
      throw error;
    }
    await this.#request({ op: 'commit', tx: id });
    return result;
  }

  dumpDataDir(): Promise<Uint8Array> {
    return this.#request({ op: 'dump' });
  }

  snapshot(sql: string[]): Promise<PgliteSnapshot> {
    return this.#request({ op: 'snapshot', sql });
  }

  async collectGarbage(): Promise<void> {
    // Nothing to collect on a thread that is closing or gone (a quiet spell during shutdown).
    if (this.closed) return;
    await this.#request({ op: 'gc' });
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (this.#stopped) return;
      try {
        await this.#request({ op: 'close' }, true);
      } finally {
        await this.#worker.terminate();
      }
    })();
    return this.#closing;
  }

  #request<T>(request: Request, closing = false): Promise<T> {
    if (this.#closing && !closing) return Promise.reject(new Error('The embedded database is closed'));
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, {
        resolve: resolve as (value: never) => void,
        reject,
        sentAt: performance.now(),
      });
      // Keeps the process alive while the database answers (a CLI awaiting a migration has nothing
      // else to wait on); an idle database thread alone does not.
      if (this.#pending.size === 1) this.#worker.ref();
      try {
        this.#worker.postMessage({ ...request, id } as PgliteRequest);
      } catch (error) {
        // Parameters the thread cannot receive (a function, say) fail this statement only.
        this.#pending.delete(id);
        this.#idle();
        reject(error as Error);
      }
    });
  }

  #idle(): void {
    if (this.#pending.size === 0) this.#worker.unref();
  }
}

function queryRequest(
  sql: string,
  params: unknown[],
  options: QueryOptions | undefined,
  tx: number | undefined,
): Request {
  if (options?.serializers || options?.blob || options?.paramTypes) {
    throw new Error('The embedded database thread accepts rowMode and text parsers only');
  }
  const parsers = Object.entries(options?.parsers ?? {});
  // drizzle's parsers keep dates, timestamps and intervals as PostgreSQL's text. Functions cannot cross
  // threads, so the thread applies that same rule to the types named here, and nothing else is accepted.
  if (parsers.some(([, parse]) => parse('Any text', 25) !== 'Any text')) {
    throw new Error('The embedded database thread accepts parsers that keep the text only');
  }
  return {
    op: 'query',
    sql,
    params,
    rowMode: options?.rowMode,
    textTypes: parsers.map(([type]) => Number(type)),
    ...(tx === undefined ? {} : { tx }),
  };
}

/** An Error with PostgreSQL's fields (code, constraint…) as the database's own error has them. */
function deserializeError({ name, message, ...fields }: SerializedError): Error {
  const error = new Error(message);
  error.name = name;
  return Object.assign(error, fields);
}
