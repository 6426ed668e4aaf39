/**
 * The embedded database's own thread (started by pglite-thread.ts).
 *
 * PGlite is PostgreSQL compiled to WebAssembly: every statement runs synchronously on the thread that
 * calls it. On the server's thread that meant no request was read, parsed or answered while a query
 * ran, and at 50 connections some waited seconds before the server even read them (docs/performance.md,
 * "Feed on PGlite"). Here PGlite has a thread of its own; the server's thread only sends statements
 * and receives rows, so it keeps serving HTTP on the other core.
 *
 * This thread runs requests as they arrive and leaves their order to PGlite's two locks, which run one
 * statement at a time and one transaction at a time, in the order they were asked for: a statement
 * from outside an open transaction waits until it ends, while the transaction's own statements go ahead.
 *
 * Statements are prepared once per SQL text and then only bound and executed, as node-postgres does
 * with named statements on PostgreSQL. PGlite's own query() parses and plans every statement again:
 * for the feed's page that was a third of its time (docs/performance.md).
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { collectGarbage } from '../lib/garbage.ts';
import { PRIVATE_UMASK } from '../lib/private-files.ts';
import { rawReply, readNotifications, readReply } from './pglite-reply.ts';
import { parse, PGlite, protocol, type Results, type Transaction } from '@electric-sql/pglite';

export interface PgliteWorkerData {
  dataDir?: string;
  /** A dumped data directory (tar) to start from, e.g. a migrated template in tests. */
  loadDataDir?: Uint8Array;
  /** PostgreSQL's WebAssembly, compiled already (tests open many databases in one process). */
  wasmModule?: WebAssembly.Module;
}

/** What the server's thread asks. `tx` names the open transaction a statement belongs to. */
export type PgliteRequest = { id: number } & (
  | {
      op: 'query';
      sql: string;
      params: unknown[];
      rowMode: 'array' | 'object' | undefined;
      /** Types to hand back as PostgreSQL's text (drizzle's parsers for dates and intervals). */
      textTypes: number[];
      tx?: number;
    }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin' | 'commit' | 'rollback'; tx: number }
  | { op: 'dump' }
  /** A dump and the rows of `sql` read at the same moment, no transaction in between (backups). */
  | { op: 'snapshot'; sql: string[] }
  | { op: 'listen'; channel: string }
  | { op: 'gc' }
  | { op: 'close' }
);

/** A database error's fields (code, constraint, detail…), which a structured clone would drop. */
export type SerializedError = { name: string; message: string } & Record<string, unknown>;

export interface PgliteSnapshot {
  dump: Uint8Array;
  results: Results[];
}

export type PgliteReply =
  | { id: number; result: Results | Results[] | Uint8Array | PgliteSnapshot | null }
  | { id: number; error: SerializedError }
  | { ready: true }
  /** A NOTIFY on a channel the server's thread listens on (op 'listen'). */
  | { notification: { channel: string; payload: string } };

/**
 * Start-up settings that keep the embedded server small (measured by bench/pglite-memory.ts, recorded in
 * docs/performance.md). shared_buffers is what counts: PGlite's 128 MB default costs ~130 MB of resident
 * memory over 8 MB, and 8 MB answered the feed of a 100,000-post dataset as fast as 16 or 32 MB.
 * work_mem (PostgreSQL's default, made explicit) and maintenance_work_mem bound how far one sort or one
 * index build can grow the WebAssembly heap, which never shrinks.
 *
 * random_page_cost=1.1, as PostgreSQL's documentation advises where reads seldom reach a disk: with the
 * default 4 the planner reads a post's likes and comments by bitmap heap scans, and each one started
 * (once per card of a feed page) asks the file's size, an lseek that PGlite's Node file system answers
 * with an fstat call: 48 a feed page, a quarter of this thread's time under load. With 1.1 they are
 * index scans (6 a page), and feed page 1 went from 416-462 to 671-845 req/s at 50 connections, cat
 * suggestions from 1,115-1,189 to 1,490-1,658 (docs/performance.md, "PGlite's planner costs").
 */
const PGLITE_START_PARAMS = [
  '-c',
  'random_page_cost=1.1',
  '-c',
  'shared_buffers=8MB',
  '-c',
  'work_mem=4MB',
  '-c',
  'maintenance_work_mem=16MB',
];

/** Thrown into PGlite's transaction callback to make it roll back. */
const ROLL_BACK = Symbol('roll back');

interface OpenTransaction {
  tx: Transaction;
  /** Ends the transaction's callback: true commits, false rolls back. */
  finish: (commit: boolean) => void;
  /** PGlite's transaction() call, settled once COMMIT or ROLLBACK ran. */
  done: Promise<unknown>;
}

const port = parentPort;
if (!port) throw new Error('pglite-worker.ts runs as a worker thread (pglite-thread.ts)');
const options = workerData as PgliteWorkerData;

// PGlite's file system (Emscripten's NODEFS) creates each file and then chmods it to 0666, which no
// umask masks: the embedded database's files, password hashes and exact places among them, came out
// readable and writable by every local user (issue 46). On this thread, which runs PGlite only, a
// chmod never grants the group or others anything.
const chmodSync = fs.chmodSync;
fs.chmodSync = (path, mode) =>
  chmodSync(path, typeof mode === 'number' ? mode & ~PRIVATE_UMASK : parseInt(mode, 8) & ~PRIVATE_UMASK);
syncBuiltinESMExports();

const pg = await PGlite.create({
  ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  ...(options.loadDataDir ? { loadDataDir: new Blob([options.loadDataDir]) } : {}),
  ...(options.wasmModule ? { pgliteWasmModule: options.wasmModule } : {}),
  startParams: [
    ...(PGlite as unknown as { defaultStartParams: string[] }).defaultStartParams,
    ...PGLITE_START_PARAMS,
  ],
});
// Opening leaves hundreds of MB of garbage behind in this thread's heap (the file-system bundle, the
// WebAssembly module's bytes and, on a new data directory, initdb's): an idle server would keep it
// resident for a long time. One full collection now returns it (docs/performance.md, "PGlite settings").
collectGarbage();

const transactions = new Map<number, OpenTransaction>();

/**
 * Channels the server's thread listens on. PGlite is one session: it LISTENs itself and hears its own
 * NOTIFYs when their transaction commits, through PGlite's parser for what runs by query() and exec()
 * (transactions), and in the raw replies of prepared statements (runPrepared), read here.
 */
const listening = new Set<string>();
const forward = (channel: string, payload: string) => {
  if (listening.has(channel)) port.postMessage({ notification: { channel, payload } } satisfies PgliteReply);
};
pg.onNotification(forward);

/** How many prepared statements to keep: the app's queries are a few dozen shapes. */
const STATEMENT_CACHE_SIZE = 200;
/** Prepared statements by SQL text, least recently used first (a Map keeps insertion order). */
interface PreparedStatement {
  name: string;
  paramTypes: number[];
}
const statements = new Map<string, PreparedStatement>();
let statementCount = 0;
/** The parser of a type drizzle keeps as PostgreSQL's text. */
const keepText = (value: string) => value;
/**
 * PGlite's parsers with drizzle's kept-text types laid over them, one object per set of types. Given
 * them in its options, parseResults copies all of PGlite's 318 parsers into a new object on every
 * call: ~66 µs a statement, a tenth of this thread's time under the feed's load (docs/performance.md).
 * pg.parsers is complete once PGlite has started (it adds the array types then, and again only if
 * refreshArrayTypes() is called, which nothing here does), so each merge is made once.
 */
type Parsers = typeof pg.parsers;
const parsersByTextTypes = new Map<string, Parsers>();

function parsersFor(textTypes: number[]): Parsers {
  const key = textTypes.join(',');
  let parsers = parsersByTextTypes.get(key);
  if (!parsers) {
    parsers = { ...pg.parsers, ...Object.fromEntries(textTypes.map((type) => [type, keepText])) };
    parsersByTextTypes.set(key, parsers);
  }
  return parsers;
}
/** PostgreSQL's answer when a statement's result columns changed under it (a migration, say). */
const PLAN_CHANGED = /cached plan must not change result type/;

port.on('message', (request: PgliteRequest) => {
  // Not awaited: a statement that waits for an open transaction must not hold up that transaction's
  // own statements, which arrive after it.
  run(request).then(
    (result) =>
      port.postMessage(
        { id: request.id, result } satisfies PgliteReply,
        result instanceof Uint8Array
          ? [result.buffer as ArrayBuffer]
          : result && 'dump' in result
            ? [result.dump.buffer as ArrayBuffer]
            : [],
      ),
    (error: unknown) =>
      port.postMessage({ id: request.id, error: serializeError(error) } satisfies PgliteReply),
  );
});
port.postMessage({ ready: true } satisfies PgliteReply);

async function run(
  request: PgliteRequest,
): Promise<Results | Results[] | Uint8Array | PgliteSnapshot | null> {
  switch (request.op) {
    case 'query': {
      const parsers = parsersFor(request.textTypes);
      const statement = () => runPrepared(request.sql, request.params, parsers, request.rowMode);
      if (request.tx !== undefined) {
        openTransaction(request.tx);
        return pg._runExclusiveQuery(statement);
      }
      // Outside a transaction: wait for any open one, then make the change durable as query() does.
      // A statement whose columns changed since it was prepared failed without effect: it runs once
      // more, prepared again (inside a transaction the failure has aborted the transaction).
      return pg._runExclusiveTransaction(() =>
        pg._runExclusiveQuery(async () => {
          const result = await statement().catch((error: unknown) => {
            if (error instanceof Error && PLAN_CHANGED.test(error.message)) return statement();
            throw error;
          });
          await pg.syncToFs();
          return result;
        }),
      );
    }
    case 'exec':
      return (request.tx === undefined ? pg : openTransaction(request.tx).tx).exec(request.sql);
    case 'begin':
      return begin(request.tx);
    case 'commit':
    case 'rollback': {
      const open = openTransaction(request.tx);
      transactions.delete(request.tx);
      open.finish(request.op === 'commit');
      await open.done.catch((error: unknown) => {
        if (error !== ROLL_BACK) throw error;
      });
      return null;
    }
    case 'dump': {
      const dump = await pg.dumpDataDir('none');
      return new Uint8Array(await dump.arrayBuffer());
    }
    case 'snapshot':
      // Holding the transaction lock, no transaction is open and none starts (statements outside one
      // take this lock too: 'query' above): the rows read and the dump show the same committed state.
      // (query() and exec() take that lock themselves, so the rows are read as 'query' reads them.)
      return pg._runExclusiveTransaction(async () => {
        const results = await pg._runExclusiveQuery(async () => {
          const read: Results[] = [];
          for (const text of request.sql) read.push(await runPrepared(text, [], parsersFor([]), 'object'));
          return read;
        });
        const dump = await pg.dumpDataDir('none');
        return { dump: new Uint8Array(await dump.arrayBuffer()), results };
      });
    case 'listen':
      if (!listening.has(request.channel)) {
        listening.add(request.channel);
        await pg.exec(`LISTEN ${request.channel}`);
      }
      return null;
    case 'gc':
      collectGarbage();
      return null;
    case 'close':
      await pg.close();
      return null;
  }
}

/**
 * One statement through the extended protocol, as PGlite's query() runs it (parse, describe, bind,
 * describe, execute, sync), except that the parse and the parameter types are kept under a name the
 * first time and reused after, and the reply is read by readReply (pglite-reply.ts). The caller holds
 * PGlite's statement lock.
 */
async function runPrepared(
  sql: string,
  params: unknown[],
  parsers: Parsers,
  rowMode: 'array' | 'object' | undefined,
): Promise<Results> {
  const { name, paramTypes } = await prepare(sql);
  const values = params.map((value, i) => {
    if (value === null || value === undefined) return null;
    const serializer = pg.serializers[paramTypes[i]!];
    return serializer ? (serializer(value) as string) : String(value);
  });
  const { serialize } = protocol;
  // One call for the four messages: on an error PostgreSQL skips to the Sync by itself.
  const reply = await rawReply(
    pg,
    Buffer.concat([
      serialize.bind({ statement: name, values }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ]),
  );
  if (listening.size > 0) {
    for (const { channel, payload } of readNotifications(reply)) forward(channel, payload);
  }
  try {
    return readReply(reply, parsers, rowMode);
  } catch (error) {
    // A statement whose columns changed under it (a migration) is prepared again next time.
    if (error instanceof Error && PLAN_CHANGED.test(error.message)) {
      statements.delete(sql);
      await send(serialize.close({ type: 'S', name }));
      await send(serialize.sync());
    }
    throw error;
  }
}

/** The named statement for a SQL text, prepared (and the least recently used one closed) if new. */
async function prepare(sql: string): Promise<PreparedStatement> {
  const known = statements.get(sql);
  if (known) {
    // Most recently used last.
    statements.delete(sql);
    statements.set(sql, known);
    return known;
  }
  const { serialize } = protocol;
  const name = `cats_${(statementCount += 1)}`;
  let statement: PreparedStatement;
  try {
    await send(serialize.parse({ name, text: sql }));
    statement = {
      name,
      paramTypes: parse.parseDescribeStatementResults(await send(serialize.describe({ type: 'S', name }))),
    };
  } catch (error) {
    // Until Sync PostgreSQL ignores every message after an error; then the failed name is let go.
    await send(serialize.sync());
    await send(serialize.close({ type: 'S', name }));
    await send(serialize.sync());
    throw error;
  }
  const [oldestSql, oldest] = statements.size >= STATEMENT_CACHE_SIZE ? [...statements][0]! : [];
  if (oldestSql !== undefined && oldest) {
    statements.delete(oldestSql);
    await send(serialize.close({ type: 'S', name: oldest.name }));
  }
  await send(serialize.sync());
  statements.set(sql, statement);
  return statement;
}

/** Messages through PGlite's parser, for the few sent outside runPrepared's single call. */
function send(message: Uint8Array) {
  return pg.execProtocolStream(message, { syncToFs: false });
}

/** Opens a transaction and answers once BEGIN has run (or failed). */
function begin(id: number): Promise<null> {
  return new Promise((begun, failed) => {
    let finish!: (commit: boolean) => void;
    const decided = new Promise<boolean>((resolve) => (finish = resolve));
    const done = pg.transaction(async (tx) => {
      transactions.set(id, { tx, finish, done });
      begun(null);
      if (!(await decided)) throw ROLL_BACK;
    });
    // Before BEGIN ran this rejects the request; afterwards commit or rollback reports the outcome.
    done.catch(failed);
  });
}

function openTransaction(id: number): OpenTransaction {
  const open = transactions.get(id);
  if (!open) throw new Error(`Transaction ${id} is not open`);
  return open;
}

function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    // PostgreSQL's error fields are strings and numbers; the failed query's parameters stay here.
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  return { ...fields, name: error.name, message: error.message };
}
