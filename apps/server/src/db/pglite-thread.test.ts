import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openPglite, PgliteThread, type PgliteClient } from './pglite-thread.ts';
import type { PgliteRequest } from './pglite-worker.ts';

/** The embedded database on its own thread: what crosses between the threads, and what does not. */
describe('PGlite on its own thread', () => {
  let db: PgliteClient;
  beforeAll(async () => {
    db = await openPglite();
    await db.exec('create table cats (id int primary key, name text not null, seen timestamptz)');
  });
  afterAll(async () => {
    await db.close();
  });

  it('keeps the server thread free while a statement runs', async () => {
    let timerRan = false;
    let timerRanFirst: boolean | undefined;
    setTimeout(() => (timerRan = true), 0);
    // Long enough to span many turns of the event loop, were the database on this thread.
    await db.query('select count(*) from generate_series(1, 3000000)').then(() => (timerRanFirst = timerRan));
    expect(timerRanFirst).toBe(true);
  });

  it('answers rows in either mode and keeps drizzle’s text types as text', async () => {
    await db.query('insert into cats values ($1, $2, $3)', [1, 'Tom', '2026-11-23T10:00:00Z']);
    const objects = await db.query<{ id: number; name: string }>('select id, name from cats');
    expect(objects.rows).toEqual([{ id: 1, name: 'Tom' }]);
    const TIMESTAMPTZ = 1184;
    const arrays = await db.query('select id, seen from cats', [], {
      rowMode: 'array',
      parsers: { [TIMESTAMPTZ]: (value: string) => value },
    });
    expect(arrays.rows).toEqual([[1, '2026-11-23 10:00:00+00']]);
    expect(arrays.fields.map((f) => f.name)).toEqual(['id', 'seen']);
    const parsed = await db.query<{ seen: unknown }>('select seen from cats');
    expect(parsed.rows[0]!.seen).toBeInstanceOf(Date);
  });

  it('refuses a parser that would change the value, which could not run on the other thread', async () => {
    await expect(
      db.query('select 1', [], { parsers: { 25: (value: string) => value.toUpperCase() } }),
    ).rejects.toThrow('accepts parsers that keep the text only');
  });

  it('passes PostgreSQL’s error fields across, so constraint checks still see them', async () => {
    const error = (await db
      .query('insert into cats values (1, $1)', ['Again'])
      .catch((e: unknown) => e)) as Record<string, unknown>;
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 'cats_pkey', table: 'cats' });
    expect(error.message).toMatch(/duplicate key/);
  });

  it('fails only the statement whose parameters cannot cross threads', async () => {
    await expect(db.query('select $1::text', [() => 'fn'])).rejects.toThrow();
    await expect(db.query('select 1 as one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
  });

  it('commits, rolls back on error, and holds other statements until the transaction ends', async () => {
    const order: string[] = [];
    const tx = db.transaction(async (t) => {
      await t.query('insert into cats values (2, $1)', ['Kit']);
      order.push('tx insert');
      // Give the statement from outside every chance to run in between.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const inside = await t.query<{ n: number }>('select count(*)::int as n from cats');
      order.push(`tx sees ${inside.rows[0]!.n}`);
      return 'done';
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const outside = db.query<{ n: number }>('select count(*)::int as n from cats').then((r) => {
      order.push(`outside sees ${r.rows[0]!.n}`);
    });
    await expect(tx).resolves.toBe('done');
    await outside;
    expect(order).toEqual(['tx insert', 'tx sees 2', 'outside sees 2']);

    await expect(
      db.transaction(async (t) => {
        await t.query('insert into cats values (3, $1)', ['Gone']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const after = await db.query<{ n: number }>('select count(*)::int as n from cats');
    expect(after.rows[0]!.n).toBe(2);
  });

  it('rolls back a transaction whose statement failed, and the connection goes on', async () => {
    await expect(
      db.transaction(async (t) => {
        await t.query('insert into cats values (4, $1)', ['Four']);
        await t.query('insert into cats values (4, $1)', ['Four again']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const rows = await db.query('select id from cats where id = 4');
    expect(rows.rows).toEqual([]);
  });

  it('prepares each statement once, and keeps it through failed executions', async () => {
    const prepared = async () =>
      (await db.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements')).rows[0]!.n;
    const before = await prepared();
    for (let i = 0; i < 5; i += 1) await db.query('select name from cats where id = $1', [1]);
    for (let i = 0; i < 3; i += 1) {
      await expect(db.query('insert into cats (id, name) values ($1, $2)', [1, 'Dup'])).rejects.toMatchObject(
        {
          code: '23505',
        },
      );
    }
    await expect(db.query('select name from cats where id = $1', ['not a number'])).rejects.toMatchObject({
      code: '22P02',
    });
    // The select and the insert, each once (the count was prepared by its first call).
    expect((await prepared()) - before).toBe(2);
  });

  it('prepares a statement again when its columns changed under it', async () => {
    await db.exec('create table toys (id int)');
    await db.query('insert into toys values (1)');
    const select = () => db.query('select * from toys');
    expect((await select()).rows).toEqual([{ id: 1 }]);
    await db.exec("alter table toys add column colour text default 'red'");
    expect((await select()).rows).toEqual([{ id: 1, colour: 'red' }]);
    await db.exec('drop table toys');
  });

  it('dumps its data directory, and a new database starts from the dump', async () => {
    const dump = await db.dumpDataDir();
    expect(dump.byteLength).toBeGreaterThan(1_000_000);
    const copy = await openPglite({ loadDataDir: dump });
    try {
      const rows = await copy.query<{ name: string }>('select name from cats order by id');
      expect(rows.rows.map((r) => r.name)).toEqual(['Tom', 'Kit']);
    } finally {
      await copy.close();
    }
  });

  it('answers a clear error after it is closed', async () => {
    const other = await openPglite();
    await other.close();
    expect(other.closed).toBe(true);
    await expect(other.query('select 1')).rejects.toThrow('The embedded database is closed');
    // A quiet spell during shutdown may still ask for a collection: there is nothing to collect.
    await expect(other.collectGarbage()).resolves.toBeUndefined();
    await expect(other.close()).resolves.toBeUndefined();
  });
});

/** A worker thread that answers only close(): the rest of each test says what happens to it. */
class StandInWorker extends EventEmitter {
  postMessage(request: PgliteRequest): void {
    if (request.op !== 'close') return;
    queueMicrotask(() => this.emit('message', { id: request.id, result: null }));
  }
  ref(): void {}
  unref(): void {}
  async terminate(): Promise<number> {
    this.emit('exit', 1);
    return 1;
  }
}

describe('PGlite thread that stops', () => {
  async function started() {
    const worker = new StandInWorker();
    const client = new PgliteThread(worker as never);
    worker.emit('message', { ready: true });
    await client.ready;
    const lost = vi.fn();
    client.onLost(lost);
    return { worker, client, lost };
  }

  it('fails waiting and later statements with a clear error, and reports the loss once', async () => {
    const { worker, client, lost } = await started();
    const waiting = client.query('select 1');
    worker.emit('error', new Error('RuntimeError: unreachable'));
    worker.emit('exit', 1);
    await expect(waiting).rejects.toThrow('The embedded database stopped: RuntimeError: unreachable');
    await expect(client.query('select 1')).rejects.toThrow('The embedded database stopped');
    await expect(client.transaction(async () => 'never')).rejects.toThrow('The embedded database stopped');
    expect(client.closed).toBe(true);
    expect(lost).toHaveBeenCalledTimes(1);
    await expect(client.close()).resolves.toBeUndefined();
  });

  it('reports no loss when it was closed', async () => {
    const { client, lost } = await started();
    await client.close();
    expect(lost).not.toHaveBeenCalled();
  });
});
